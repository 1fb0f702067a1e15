#!/usr/bin/env bash
# Endgame table build benchmark: the Kalah (6 houses) tables 0..MAX_SEEDS (default 20) with both
# capture rules, built with one thread and with two, RUNS times each (default 3), the runs of all
# settings interleaved so that a busy spell of the machine does not land on one setting only.
# Prints, per setting, the median wall time with the fastest and slowest run, the median CPU time
# (user + system: every thread, the writer's included), peak memory, and bits per position on
# disk.
#
# Peers, only when PEERS names a directory that holds them already built (the script never
# fetches anything): PEERS/kalah/generator (Geoffrey Irving's generator, empty-capture rule,
# `make serial`) and PEERS/CMancala/build/Mancala (CMancala, standard rule, built with CMake).
# Their generators build the same layers, interleaved with ours; their times are wall times of
# the whole program (girving's writes one 4-bit file at the end, CMancala one raw file per layer).
#
# OWARE=1 also builds the Oware (abapa) tables 0..MAX_SEEDS once and measures probes per second
# (`mancala db bench`) on both tables.
#
# Usage: scripts/bench-db.sh [MAX_SEEDS] [DIR]
#   RUNS=5 THREADS="1 2" PEERS=/path/to/peers scripts/bench-db.sh 20
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
max_seeds="${1:-20}"
dir="${2:-$root/build/bench-db}"
runs="${RUNS:-3}"
threads="${THREADS:-1 2}"
peers="${PEERS:-}"
"$root/scripts/install-deps.sh"
command -v /usr/bin/time >/dev/null || { apt-get install -y -qq time >/dev/null; }
"$root/scripts/build.sh" "$root/build" -DMANCALA_TESTS=OFF
mancala="$root/build/tools/mancala"
python=/usr/bin/python3
mkdir -p "$dir"
results="$dir/results.txt"
: >"$results"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(lscpu | sed -n 's/Model name: *//p')"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# One timed run: LABEL, then the command. Appends "label<TAB>wall cpu peak_kb" to the results.
timed() {
  local label="$1"
  shift
  local out="$dir/time.out"
  /usr/bin/time -f "%e %U %S %M" -o "$out" "$@" >/dev/null 2>"$dir/stderr.txt" ||
    { echo "$label: failed: $(tail -1 "$dir/stderr.txt")" >&2; return 0; }
  read -r wall user sys peak <"$out"
  printf '%s\t%s %s %s\n' "$label" "$wall" "$(awk "BEGIN { print $user + $sys }")" "$peak" >>"$results"
}

ours() {  # GAME THREADS
  rm -rf "$dir/tables"
  timed "this project, $1, $2 thread(s)" "$mancala" db build "$1" --max-seeds "$max_seeds" \
    --out "$dir/tables" --threads "$2" --quiet
}
girving() {
  rm -f "$dir/girving.dat"
  timed "girving generator (empty-capture), 1 thread" \
    sh -c "printf '4\nc $max_seeds\nq\n' | '$peers/kalah/generator' '$dir/girving.dat'"
}
cmancala() {
  rm -rf "$dir/cmancala" && mkdir -p "$dir/cmancala"
  timed "CMancala generator (standard), 1 thread" \
    sh -c "cd '$dir/cmancala' && '$peers/CMancala/build/Mancala' --api --egdb $max_seeds </dev/null"
}

for run in $(seq "$runs"); do
  echo "run $run of $runs (load $(cut -d' ' -f1 /proc/loadavg))"
  for t in $threads; do
    ours kalah "$t"
    ours kalah:6:4:empty-capture "$t"
  done
  if [ -n "$peers" ] && [ -x "$peers/kalah/generator" ]; then girving; fi
  if [ -n "$peers" ] && [ -x "$peers/CMancala/build/Mancala" ]; then cmancala; fi
done

echo "== Kalah tables 0..$max_seeds seeds, $runs runs each (median, fastest-slowest)"
$python - "$results" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    label, values = line.rstrip("\n").split("\t")
    wall, cpu, peak = values.split()
    rows.setdefault(label, []).append((float(wall), float(cpu), int(peak)))
print("%-52s %8s %15s %8s %9s" % ("builder", "wall s", "(fastest-slowest)", "cpu s", "peak MiB"))
for label, r in rows.items():
    walls = [x[0] for x in r]
    print("%-52s %8.1f %15s %8.1f %9.0f" % (label, statistics.median(walls),
          "(%.1f-%.1f)" % (min(walls), max(walls)), statistics.median(x[1] for x in r),
          max(x[2] for x in r) / 1024))
EOF
for game in kalah kalah:6:4:empty-capture; do
  rm -rf "$dir/tables"
  "$mancala" db build "$game" --max-seeds "$max_seeds" --out "$dir/tables" --threads 2 --quiet >/dev/null
  "$mancala" db info "$dir/tables" | grep '^table'
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

if [ "${OWARE:-0}" = 1 ]; then
  rm -rf "$dir/tables"
  for game in kalah oware; do
    echo "== $game tables up to $max_seeds seeds, then probes"
    /usr/bin/time -f "%e %M" -o "$dir/$game.time" "$mancala" db build "$game" \
      --max-seeds "$max_seeds" --out "$dir/tables" --quiet
    read -r wall peak_kb <"$dir/$game.time"
    echo "wall $wall s, peak memory $((peak_kb / 1024)) MiB"
    "$mancala" db bench "$game" --db "$dir/tables"
  done
fi
