#!/usr/bin/env bash
# The computer levels against each other: for each game, level N+1 against level N (N = 1..5),
# 200 games each with the match defaults (colours alternating, balanced openings), levels 5 and 6
# on a node budget so that the games do not depend on the machine's speed. Prints A's share of
# the points per match and the full result line. Level 6 (Pro) uses the endgame tables in DB
# (default $MANCALA_DB or ~/.local/share/mancala/db; `mancala db build` makes them).
# A 2-core machine takes about an hour for the three games.
# Usage: scripts/bench-levels.sh [DB] [GAMES...]   (default games: kalah oware congkak)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
db="${1:-${MANCALA_DB:-$HOME/.local/share/mancala/db}}"
shift || true
games=("$@")
((${#games[@]})) || games=(kalah oware congkak)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" "$root/build" -DMANCALA_TESTS=OFF
mancala="$root/build/tools/mancala"
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/Model name: *//p'); tables from $db"
for game in "${games[@]}"; do
  for a in 2 3 4 5 6; do
    b=$((a - 1))
    start=$SECONDS
    line=$("$mancala" match "$game" --a "$a" --b "$b" --games 200 --nodes 100000 --db "$db" -q |
      sed -n 2p)
    printf '%-10s %d v %d  %s  (%d s)\n' "$game" "$a" "$b" "$line" $((SECONDS - start))
  done
done
