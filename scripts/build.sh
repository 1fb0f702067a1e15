#!/usr/bin/env bash
# Builds the project. Usage: scripts/build.sh [BUILD_DIR] [cmake arguments...] [-- build arguments...]
# The default directory is build/ (Release). Arguments after `--` go to `cmake --build`, for
# example `-- --target mancala` to build the command alone.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-$root/build}"
shift || true
configure=()
while (($#)) && [ "$1" != -- ]; do
  configure+=("$1")
  shift
done
shift || true
# With ccache (scripts/install-deps.sh installs it), a build that compiled a file before, in any
# build folder, takes it from the cache: a fresh clone's second build, scripts/test.sh's again.
launcher=()
command -v ccache >/dev/null &&
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
# The library layers are position-independent only where asked (scripts/test.sh does): a folder
# the tests built before is then the command's full-speed build again for the benchmarks and
# scripts/run.sh (a later -D wins).
cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" \
  -DMANCALA_PIC_LIBRARIES=OFF "${configure[@]}" >/dev/null
cmake --build "$dir" "$@"
