#!/usr/bin/env bash
# One command from a fresh Debian machine to a game: installs what is missing, builds (Release)
# and starts the main job, a game of Kalah in the terminal against the computer.
# Extra arguments go to `mancala play` (e.g. `scripts/run.sh oware --level 1`).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" "$root/build" -DMANCALA_TESTS=OFF
exec "$root/build/tools/mancala" play "${@:-kalah}"
