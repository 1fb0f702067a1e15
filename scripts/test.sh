#!/usr/bin/env bash
# One command from a fresh Debian machine to a passing test suite: installs what is missing,
# builds, and runs every test twice: in the Release build, and in a build with
# AddressSanitizer + UndefinedBehaviorSanitizer; then runs each libFuzzer target for a short fixed
# time (scripts/fuzz.sh runs them longer).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jobs="$(nproc)"
"$root/scripts/install-deps.sh"

echo "== Release build and tests"
"$root/scripts/build.sh" "$root/build" -DMANCALA_TESTS=ON
ctest --test-dir "$root/build" --output-on-failure -j "$jobs"

echo "== AddressSanitizer + UndefinedBehaviorSanitizer build and tests"
# The browser tests drive the Release binary only: the sanitized server runs the API tests.
"$root/scripts/build.sh" "$root/build-sanitize" -DMANCALA_SANITIZE=ON -DMANCALA_TESTS=ON \
  -DMANCALA_BROWSER_TESTS=OFF
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir "$root/build-sanitize" --output-on-failure -j "$jobs"

echo "== Fuzz targets (libFuzzer, clang, ASan+UBSan): 15 s each from the seed corpus"
"$root/scripts/fuzz.sh" "${MANCALA_FUZZ_SECONDS:-15}"
