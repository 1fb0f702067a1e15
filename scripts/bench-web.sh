#!/usr/bin/env bash
# How fast the web board loads: first paint and first board, first visit (empty cache) and repeat
# visit, under an emulated mobile network (Chrome DevTools' "Fast 4G": 165 ms per request, 9 Mbit/s
# down, 1.5 Mbit/s up) and a CPU 4 times slower, in Debian's Chromium driven by playwright-core
# (tests/web/bench-load.mjs); medians of RUNS runs (default 5). Prints the page weight too: the raw,
# gzip and brotli bytes of the web app's files, as the server sends them.
# Usage: scripts/bench-web.sh [RUNS]
# MANCALA_BINARY=path: that `mancala` is measured, nothing is installed nor built.
# MANCALA_WEB_DIR=path: the staged web app the page weight is counted from (default build/tools/web).
# BENCH_VERBOSE=1: every request of the first run's two visits, with its status and bytes.
# Not part of the tests: the times depend on the machine and its load.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-5}"
if [ -n "${MANCALA_BINARY:-}" ]; then
  mancala="$MANCALA_BINARY"
else
  "$root/scripts/install-deps.sh"
  "$root/scripts/build.sh" "$root/build" -DMANCALA_TESTS=OFF
  mancala="$root/build/tools/mancala"
fi
# playwright-core, pinned as the browser tests pin it, installed once beside the build.
work="${MANCALA_BENCH_WORK:-$root/build/web-bench}"
"$root/tests/web/install-playwright.sh" "$work"
cp "$root/tests/web/bench-load.mjs" "$work/"
server=""
cleanup() {
  if [ -n "$server" ]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
}
trap cleanup EXIT
# No tables: the first board does not wait for them.
mkdir -p "$work/db"
"$mancala" serve --port 0 --db "$work/db" >"$work/server.out" 2>&1 &
server=$!
for _ in $(seq 100); do
  grep -q 'board is at' "$work/server.out" 2>/dev/null && break
  sleep 0.1
done
url="$(sed -n 's/.*board is at \(http[^ ]*\).*/\1/p' "$work/server.out")"
[ -n "$url" ] || {
  cat "$work/server.out" >&2
  exit 1
}

cd "$work"
# The page weight is of the files as the server sends them: the staged app (its modules joined).
MANCALA_WEB_DIR="${MANCALA_WEB_DIR:-$root/build/tools/web}" node bench-load.mjs "$url" "$runs"
