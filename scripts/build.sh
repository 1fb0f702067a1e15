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
cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "${configure[@]}" >/dev/null
cmake --build "$dir" "$@"
