#!/usr/bin/env bash
# Endgame table benchmark: builds Kalah(6 houses) and Oware (abapa) tables up to MAX_SEEDS
# (default 20) into a scratch directory, then measures probes per second.
# For each game it prints the build table (time per layer and phase, bytes per layer), the wall
# time, positions per second, peak memory (from /usr/bin/time), bits on disk per position, and
# uniform random and playout probes per second with one thread and with all threads.
# Usage: scripts/bench-db.sh [MAX_SEEDS] [DIR]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
max_seeds="${1:-20}"
dir="${2:-$root/build/bench-db}"
"$root/scripts/install-deps.sh"
command -v /usr/bin/time >/dev/null || { apt-get install -y -qq time >/dev/null; }
"$root/scripts/build.sh" "$root/build" -DMANCALA_TESTS=OFF
mancala="$root/build/tools/mancala"
rm -rf "$dir"
mkdir -p "$dir"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(lscpu | sed -n 's/Model name: *//p')"
for game in kalah oware; do
  echo "== $game tables up to $max_seeds seeds"
  /usr/bin/time -f "%e %M" -o "$dir/$game.time" "$mancala" db build "$game" --max-seeds "$max_seeds" --out "$dir" --quiet
  read -r wall peak_kb <"$dir/$game.time"
  positions=$("$mancala" db info "$dir/$(echo "$game" | sed 's/^oware$/oware-abapa/; s/^kalah$/kalah-6/')" | sed -n 's/^table .*: \([0-9]*\) positions in \([0-9]*\) bytes.*/\1 \2/p')
  read -r count bytes <<<"$positions"
  awk -v w="$wall" -v m="$peak_kb" -v n="$count" -v b="$bytes" 'BEGIN {
    printf "wall %.1f s, %.2f M positions/s, peak memory %.2f GiB, %.3f bits/position on disk\n",
           w, n / w / 1e6, m / 1048576, 8 * b / n }'
  "$mancala" db bench "$game" --db "$dir"
done
