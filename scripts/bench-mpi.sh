#!/usr/bin/env bash
# What the distributed build (mancala db build --mpi) costs on this machine: Oware (abapa) tables
# to 20 seeds (or MAX_SEEDS) built on one machine, then under mpirun with 1, 2 and 4 ranks (ranks
# x threads: 1x2, 2x1, 4x1; on a 2-core machine 4 ranks are oversubscribed, two to a core), and
# once more with 2 ranks each holding one range of every layer instead of interleaved chunks. For
# each: wall time, the overhead against the one-machine build, peak memory of a rank, messages
# and bytes sent between ranks, exchanges, how unevenly the work fell on the ranks (the largest
# layer); every run's files must equal the one-machine build's. Per-layer figures of each run
# are kept in the log directory.
#
# Usage: scripts/bench-mpi.sh [MAX_SEEDS] [LOG_DIR]   (about 40 minutes at 20 seeds on a 2-core
# machine shared with other work, which makes the times vary by ±30%; the messages never vary)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seeds="${1:-20}"
logs="${2:-$(mktemp -d)}"
mkdir -p "$logs"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" "$root/build" -DMANCALA_MPI=ON >/dev/null
bin="$root/build/tools/mancala"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI and containers run as root
export OMP_WAIT_POLICY=passive  # threads and ranks share the cores: waiting ones must not spin

echo "== Oware (abapa) tables to $seeds seeds; $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GB", $2 / 1048576}' /proc/meminfo)"
echo "   load average before: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine shows here)"

# measure LOG COMMAND...: runs the command, its output to LOG; prints its wall time in seconds and
# the peak resident memory of its largest process in MB.
measure() {
  /usr/bin/python3 - "$@" <<'EOF'
import resource, subprocess, sys, time
start = time.time()
with open(sys.argv[1], "w") as log:
    code = subprocess.run(sys.argv[2:], stdout=log, stderr=subprocess.STDOUT).returncode
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"{time.time() - start:.1f} {peak:.0f}")
sys.exit(code)
EOF
}

read -r one_seconds one_peak < <(measure "$logs/one-machine.txt" "$bin" db build oware \
  --max-seeds "$seeds" --quiet --out "$scratch/one")
printf '\n%-40s %9s %7s %12s %14s %10s %10s %10s  %s\n' "build" "seconds" "vs one" \
  "peak MB/rank" "messages" "moved MB" "exchanges" "imbalance" "files"
printf '%-40s %9.1f %7s %12s %14s %10s %10s %10s  %s\n' "one machine, 2 threads" "$one_seconds" \
  "1.00" "$one_peak" "-" "-" "-" "-" "reference"

# ranks, threads per rank, how layers are cut (the last run shows what the default saves).
for config in "1 2 interleaved" "2 1 interleaved" "4 1 interleaved" "2 1 ranges"; do
  read -r ranks threads partition <<<"$config"
  out="$scratch/mpi-$ranks"
  log="$logs/mpi-${ranks}x${threads}-$partition.txt"
  read -r seconds _ < <(measure "$log" mpirun --oversubscribe --bind-to none \
    --mca mpi_yield_when_idle 1 -np "$ranks" "$bin" db build oware --max-seeds "$seeds" \
    --mpi --threads "$threads" --partition "$partition" --out "$out")
  same="identical"
  for f in "$scratch/one/oware-abapa"/*.mtb; do
    cmp -s "$f" "$out/oware-abapa/$(basename "$f")" || same="DIFFERENT: $(basename "$f")"
  done
  # The total line: "... s, N messages (M MB), peak memory of a rank P MB"
  total="$(grep '^total' "$log")"
  messages="$(sed -E 's/.* ([0-9]+) messages.*/\1/' <<<"$total")"
  moved="$(sed -E 's/.*messages \(([0-9.]+) MB\).*/\1/' <<<"$total")"
  peak="$(sed -E 's/.*peak memory of a rank ([0-9.]+) MB.*/\1/' <<<"$total")"
  # Per layer: exchanges (column 13) summed; imbalance (column 15) of the largest layer.
  exchanges="$(awk '$1 ~ /^[0-9]+$/ && NF >= 16 {n += $13} END {print n}' "$log")"
  imbalance="$(awk '$1 ~ /^[0-9]+$/ && NF >= 16 {i = $15} END {print i}' "$log")"
  printf '%-40s %9.1f %7.2f %12.0f %14s %10s %10s %10s  %s\n' \
    "mpirun -np $ranks, $threads thread(s), $partition" "$seconds" \
    "$(awk -v a="$seconds" -v b="$one_seconds" 'BEGIN {print a / b}')" "$peak" "$messages" "$moved" \
    "$exchanges" "$imbalance" "$same"
  rm -rf "$out"
done
echo
echo "per-layer figures: $logs"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
