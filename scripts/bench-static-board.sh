#!/usr/bin/env bash
# The static board's times in Debian's Chromium (tests/web/bench-static.mjs): the first board, the
# browser's tables built, each level's opening move, the frame rate while Pro thinks, with the
# page's main thread 4x slower (Chromium's own throttling, which does not reach the page's
# workers) or, with "quarter-cpu", the whole browser given a quarter of this machine's CPU time
# (a cgroup's CPU quota: every process and thread of it slower, the workers too; needs root and
# the cgroup file system's cpu controller). Builds the board (scripts/build-wasm.sh) unless
# MANCALA_WEB_STATIC names one, serves it with python3's http.server on a loopback port, and
# stops it after.
# Usage: scripts/bench-static-board.sh [RUNS [quarter-cpu]]   (RUNS: 1 by default; each prints)
# Not part of the tests: the times depend on the machine and its load.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-1}"
slower="${2:-}"
cgroup=""
if [ "$slower" = "quarter-cpu" ]; then
  quota=$(($(nproc) * 100000 / 4))
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then  # cgroup v2
    cgroup=/sys/fs/cgroup/mancala-bench
    mkdir -p "$cgroup"
    echo "$quota 100000" >"$cgroup/cpu.max"
  else  # cgroup v1
    cgroup=/sys/fs/cgroup/cpu/mancala-bench
    mkdir -p "$cgroup"
    echo 100000 >"$cgroup/cpu.cfs_period_us"
    echo "$quota" >"$cgroup/cpu.cfs_quota_us"
  fi
elif [ -n "$slower" ]; then
  echo "usage: scripts/bench-static-board.sh [RUNS [quarter-cpu]]" >&2
  exit 2
fi
board="${MANCALA_WEB_STATIC:-}"
if [ -z "$board" ]; then
  "$root/scripts/install-deps.sh"
  "$root/scripts/build-wasm.sh" "$root/build-wasm"
  board="$root/build-wasm/web-static"
fi
work="${MANCALA_BENCH_WORK:-$root/build/web-bench}"
"$root/tests/web/install-playwright.sh" "$work"
cp "$root/tests/web/bench-static.mjs" "$root/tests/web/board-actions.mjs" "$work/"
log="$(mktemp)"
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$board" >"$log" 2>/dev/null &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 50); do
  grep -q 'port' "$log" && break
  sleep 0.1
done
port="$(sed -nE 's/.*port ([0-9]+).*/\1/p' "$log" | head -1)"
for run in $(seq "$runs"); do
  echo "== run $run of $runs"
  if [ -n "$cgroup" ]; then
    # The bench joins the cgroup before it starts Chromium, which inherits it.
    (cd "$work" && echo "$BASHPID" >"$cgroup/cgroup.procs" &&
       BOARD_URL="http://127.0.0.1:$port/" THROTTLE_PAGE=0 exec node bench-static.mjs)
  else
    (cd "$work" && BOARD_URL="http://127.0.0.1:$port/" node bench-static.mjs)
  fi
done
