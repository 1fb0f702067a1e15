#!/usr/bin/env bash
# Whole-game solver benchmark: solves small Kalah and Oware variants, then Kalah(6,4) with both
# capture rules, each within a time limit, and prints one row per game: value, best first moves,
# nodes, the seconds to the value and to the whole answer (value, best moves and line), and the
# wall time of the whole command (tables opened, transposition table allocated).
#
# The tables come from DB (default $MANCALA_DB or ~/.local/share/mancala/db). With MAX_SEEDS > 0
# the Kalah (6 houses with both capture rules, and 4 and 5 houses) and Oware tables are first
# built (or completed) up to that many seeds there and unpacked into plain copies (`mancala db
# unpack`), which the solver reads in place. On a 2-core machine 24 seeds take about 25 minutes
# a table and 1.25 GB of plain copies each; 26 seeds about 45 minutes and 2.7 GB.
#
# Usage: scripts/bench-solve.sh [MAX_SEEDS] [DB] [SECONDS] [THREADS]
# Extra games (e.g. kalah:6:5) can be given in GAMES="..."; THREADS defaults to all cores.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
max_seeds="${1:-0}"
db="${2:-${MANCALA_DB:-$HOME/.local/share/mancala/db}}"
limit="${3:-600}"
threads="${4:-$(nproc)}"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" "$root/build" -DMANCALA_TESTS=OFF
mancala="$root/build/tools/mancala"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(lscpu | sed -n 's/Model name: *//p')"
if [ "$max_seeds" -gt 0 ]; then
  for game in kalah kalah:6:4:empty-capture oware kalah:4:4 kalah:5:4; do
    "$mancala" db build "$game" --max-seeds "$max_seeds" --out "$db" --quiet
    "$mancala" db unpack "$game" --max-seeds "$max_seeds" --db "$db" --quiet
  done
fi
games="kalah:3:3 kalah:4:3 kalah:4:4 kalah:4:5 kalah:4:6 kalah:5:4 kalah:6:3
  kalah:6:3:empty-capture oware:1 oware:2 kalah kalah:6:4:empty-capture ${GAMES:-}"
printf '%-26s %7s %-8s %14s %9s %9s %9s  %s\n' game value best nodes value_s answer_s wall_s \
  tables
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT
for game in $games; do
  start=$EPOCHREALTIME
  if json=$("$mancala" solve "$game" --db "$db" --max-seconds "$limit" --threads "$threads" \
    --json 2>"$errors"); then
    echo "$json" | python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
game, wall = sys.argv[1], float(sys.argv[3]) - float(sys.argv[2])
tables = "up to %d seeds" % d["tables"] if d["tables"] >= 0 else "none"
print("%-26s %+7d %-8s %14d %9.2f %9.2f %9.2f  %s" % (game, d["value"], " ".join(d["best"]),
      d["nodes"], d["value_seconds"], d["seconds"], wall, tables))' "$game" "$start" "$EPOCHREALTIME"
  else
    printf '%-26s %s\n' "$game" "$(tail -1 "$errors" | sed 's/^mancala: error: //')"
  fi
done
