#!/usr/bin/env bash
# Whole-game solver benchmark: solves small Kalah and Oware variants, then Kalah(6,4) (both
# capture rules) and Kalah(6,5) within a time limit each, and prints value, best moves, nodes and
# seconds. The tables come from DB (default $MANCALA_DB or ~/.local/share/mancala/db); with
# MAX_SEEDS > 0 the Kalah(6 houses) and Oware tables are first built (or completed) up to that
# many seeds there - 24 seeds take about 40 minutes and 3 GiB on a 2-core machine.
# Usage: scripts/bench-solve.sh [MAX_SEEDS] [DB] [SECONDS]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
max_seeds="${1:-0}"
db="${2:-${MANCALA_DB:-$HOME/.local/share/mancala/db}}"
limit="${3:-600}"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" "$root/build" -DMANCALA_TESTS=OFF
mancala="$root/build/tools/mancala"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(lscpu | sed -n 's/Model name: *//p')"
if [ "$max_seeds" -gt 0 ]; then
  for game in kalah kalah:6:4:empty-capture oware; do
    "$mancala" db build "$game" --max-seeds "$max_seeds" --out "$db" --quiet
  done
fi
for game in kalah:3:3 kalah:4:3 kalah:4:4 kalah:4:5 kalah:4:6 kalah:5:4 kalah:6:3 \
  kalah:6:3:empty-capture oware:1 oware:2 kalah kalah:6:4:empty-capture kalah:6:5; do
  echo "== $game"
  "$mancala" solve "$game" --db "$db" --max-seconds "$limit" --hash 2048 || true
done
