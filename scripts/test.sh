#!/usr/bin/env bash
# One command from a fresh Debian machine to a passing test suite: installs what is missing,
# builds, and runs every test twice: in the Release build (GCC), and in a build with
# AddressSanitizer + UndefinedBehaviorSanitizer (clang, with libFuzzer's coverage); then runs each
# libFuzzer target of that same build for a short fixed time (scripts/fuzz.sh runs them longer).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jobs="$(nproc)"
"$root/scripts/install-deps.sh"

echo "== Release build and tests"
"$root/scripts/build.sh" "$root/build" -DMANCALA_TESTS=ON
ctest --test-dir "$root/build" --output-on-failure -j "$jobs"

echo "== AddressSanitizer + UndefinedBehaviorSanitizer build (clang) and tests"
# One sanitized build serves the tests and the fuzz targets (-DMANCALA_FUZZ=ON implies the
# sanitizers). The browser tests drive the Release binary only: the sanitized server runs the API
# tests. The layer-include checks read the sources, not a build: the Release run has them.
CC=clang CXX=clang++ "$root/scripts/build.sh" "$root/build-sanitize" -DMANCALA_FUZZ=ON \
  -DMANCALA_TESTS=ON -DMANCALA_BROWSER_TESTS=OFF
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir "$root/build-sanitize" --output-on-failure -j "$jobs" -E '^LayerIncludes'

echo "== Fuzz targets (libFuzzer, ASan+UBSan): ${MANCALA_FUZZ_SECONDS:-10} s each from the seed corpus"
MANCALA_FUZZ_BUILD="$root/build-sanitize" "$root/scripts/fuzz.sh" "${MANCALA_FUZZ_SECONDS:-10}"
