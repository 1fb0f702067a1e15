#!/usr/bin/env bash
# One command from a fresh Debian machine to a passing test suite: installs what is missing,
# builds the browser's engine (WebAssembly) and the command, and runs every test twice: in the
# Release build (GCC), and in a build with AddressSanitizer + UndefinedBehaviorSanitizer (clang,
# with libFuzzer's coverage); then runs each libFuzzer target of that same build for a short fixed
# time (scripts/fuzz.sh runs them longer).
#
# The browser's engine is built beside the Release build (each has steps that keep one core while
# the other has work); its log is shown when it is done. Each phase's time is printed as it starts.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jobs="$(nproc)"
started=$SECONDS
phase() { echo "== $1 (at $((SECONDS - started)) s)"; }

"$root/scripts/install-deps.sh"

phase "The browser's engine (WebAssembly, emscripten), built beside the Release build"
mkdir -p "$root/build-wasm"
"$root/scripts/build-wasm.sh" "$root/build-wasm" >"$root/build-wasm/build.log" 2>&1 &
wasm_build=$!
trap 'kill "$wasm_build" 2>/dev/null || true' EXIT  # a failed Release build leaves it no use

phase "Release build"
# The library layers position-independent, shared by the command and the Python module rather
# than compiled twice (MANCALA_PIC_LIBRARIES: two minutes less on a clean clone). Both builds
# compile each target's files in unity batches (CMAKE_UNITY_BUILD): the headers' inline and
# template code (JSON, the command line's parser, fmt, GoogleTest) is compiled once a batch rather
# than once a file.
"$root/scripts/build.sh" "$root/build" -DMANCALA_TESTS=ON -DMANCALA_PYTHON=ON -DMANCALA_MPI=ON \
  -DMANCALA_PIC_LIBRARIES=ON -DCMAKE_UNITY_BUILD=ON \
  -DMANCALA_WASM_ENGINE="$root/build-wasm/tools/wasm/mancala-engine.js"
wasm_status=0
wait "$wasm_build" || wasm_status=$?
trap - EXIT  # done: its process id may be another process's by the end of the run
cat "$root/build-wasm/build.log"
((wasm_status == 0)) || { echo "the browser's engine did not build" >&2; exit "$wasm_status"; }

phase "Release tests"
ctest --test-dir "$root/build" --output-on-failure -j "$jobs"

# One sanitized build serves the tests and the fuzz targets (-DMANCALA_FUZZ=ON implies the
# sanitizers). The browser tests drive the Release binary only: the sanitized server runs the API
# tests. The layer-include checks read the sources, not a build: the Release run has them.
# (Built at the lowest priority beside the Release tests, it took as much from them as it gained:
# those tests keep both cores busy.)
phase "AddressSanitizer + UndefinedBehaviorSanitizer build (clang)"
CC=clang CXX=clang++ "$root/scripts/build.sh" "$root/build-sanitize" -DMANCALA_FUZZ=ON \
  -DMANCALA_TESTS=ON -DMANCALA_BROWSER_TESTS=OFF -DCMAKE_UNITY_BUILD=ON

phase "AddressSanitizer + UndefinedBehaviorSanitizer tests"
# LLVM's OpenMP runtime registers each process in /dev/shm/__KMP_REGISTERED_LIB_<pid>_<uid>; a
# process that could not size that file (under a file size limit below 1 KiB) leaves it empty, and
# a later process given the same pid dies of SIGBUS reading it. An empty one is always such a
# leftover (a live registration is 1 KiB): they are cleared before the run.
find /dev/shm -maxdepth 1 -name "__KMP_REGISTERED_LIB_*_$(id -u)" -user "$(id -u)" -size 0 \
  -delete 2>/dev/null || true
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir "$root/build-sanitize" --output-on-failure -j "$jobs" -E '^LayerIncludes'

phase "Fuzz targets (libFuzzer, ASan+UBSan): ${MANCALA_FUZZ_SECONDS:-10} s each from the seed corpus"
MANCALA_FUZZ_BUILD="$root/build-sanitize" "$root/scripts/fuzz.sh" "${MANCALA_FUZZ_SECONDS:-10}"
phase "All passed"
