#!/usr/bin/env bash
# Builds the project. Usage: scripts/build.sh [BUILD_DIR] [extra cmake arguments...]
# The default directory is build/ (Release).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-$root/build}"
shift || true
cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$dir"
