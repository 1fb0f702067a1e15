#!/usr/bin/env bash
# One command from a fresh Debian machine to a passing test suite: installs what is missing,
# builds the browser's engine (WebAssembly) and the command, and runs every test twice: in the
# Release build (GCC), and in a build with AddressSanitizer + UndefinedBehaviorSanitizer (clang,
# with libFuzzer's coverage); then runs each libFuzzer target of that same build for a short fixed
# time (scripts/fuzz.sh runs them longer).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jobs="$(nproc)"
"$root/scripts/install-deps.sh"

echo "== The browser's engine (WebAssembly, emscripten)"
"$root/scripts/build-wasm.sh" "$root/build-wasm"

echo "== Release build and tests"
"$root/scripts/build.sh" "$root/build" -DMANCALA_TESTS=ON -DMANCALA_PYTHON=ON -DMANCALA_MPI=ON \
  -DMANCALA_WASM_ENGINE="$root/build-wasm/tools/wasm/mancala-engine.js"
ctest --test-dir "$root/build" --output-on-failure -j "$jobs"

echo "== AddressSanitizer + UndefinedBehaviorSanitizer build (clang) and tests"
# One sanitized build serves the tests and the fuzz targets (-DMANCALA_FUZZ=ON implies the
# sanitizers). The browser tests drive the Release binary only: the sanitized server runs the API
# tests. The layer-include checks read the sources, not a build: the Release run has them.
CC=clang CXX=clang++ "$root/scripts/build.sh" "$root/build-sanitize" -DMANCALA_FUZZ=ON \
  -DMANCALA_TESTS=ON -DMANCALA_BROWSER_TESTS=OFF
# LLVM's OpenMP runtime registers each process in /dev/shm/__KMP_REGISTERED_LIB_<pid>_<uid>; a
# process that could not size that file (under a file size limit below 1 KiB) leaves it empty, and
# a later process given the same pid dies of SIGBUS reading it. An empty one is always such a
# leftover (a live registration is 1 KiB): they are cleared before the run.
find /dev/shm -maxdepth 1 -name "__KMP_REGISTERED_LIB_*_$(id -u)" -user "$(id -u)" -size 0 \
  -delete 2>/dev/null || true
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir "$root/build-sanitize" --output-on-failure -j "$jobs" -E '^LayerIncludes'

echo "== Fuzz targets (libFuzzer, ASan+UBSan): ${MANCALA_FUZZ_SECONDS:-10} s each from the seed corpus"
MANCALA_FUZZ_BUILD="$root/build-sanitize" "$root/scripts/fuzz.sh" "${MANCALA_FUZZ_SECONDS:-10}"
