#!/usr/bin/env bash
# Builds (Release) and runs the fixed speed workloads: `mancala bench`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" "$root/build" -DMANCALA_TESTS=OFF
exec "$root/build/tools/mancala" bench "$@"
