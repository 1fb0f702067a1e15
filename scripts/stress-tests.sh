#!/usr/bin/env bash
# Runs tests that start processes (MPI jobs, servers) many times in a row under load, to show that
# they wait on events, not on time: the chosen tests COUNT times, one run after another, while the
# rest of the suite runs beside them at -j 2 (started again whenever it ends), as on a busy CI
# machine. Prints each failure's output and a closing "N passed, M failed" line; exits 1 on any
# failure. Needs a Release build with the tests (scripts/build.sh build -DMANCALA_TESTS=ON).
#
# Usage: scripts/stress-tests.sh [COUNT] [CTEST_REGEX]
#   COUNT        runs of the chosen tests (default 200)
#   CTEST_REGEX  which tests (default: the distributed build's failure and quiet tests)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
count="${1:-200}"
chosen="${2:-^(DistributedBuildFailure|DistributedBuildQuiet|WithoutMpi)$}"
build="${MANCALA_BUILD:-$root/build}"
[ -x "$build/tools/mancala" ] || { echo "no build in $build (scripts/build.sh first)" >&2; exit 2; }
logs="$(mktemp -d)"

# The load: the rest of the suite, again and again, until the chosen tests are done; in its own
# process group (set -m), so that the trap ends it with every test it started.
set -m
(
  while :; do
    ctest --test-dir "$build" -j 2 -E "$chosen" >/dev/null 2>&1 || true
  done
) &
load=$!
set +m
trap 'kill -- -$load 2>/dev/null || true' EXIT

passed=0
failed=0
start=$(date +%s)
for ((i = 1; i <= count; i++)); do
  if ctest --test-dir "$build" -R "$chosen" --output-on-failure >"$logs/run.txt" 2>&1; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "== run $i failed:"
    cat "$logs/run.txt"
  fi
done
echo "$count runs of the tests matching '$chosen' beside the rest of the suite at -j 2," \
  "$(($(date +%s) - start)) s; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$passed passed, $failed failed"
rm -rf "$logs"
[ "$failed" -eq 0 ]
