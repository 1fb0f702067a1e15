#!/usr/bin/env bash
# One command from a fresh Debian machine to a game: installs what is missing, builds (Release),
# builds the default endgame tables on first use (Kalah 6 houses and Oware abapa, up to 14 seeds,
# a few seconds; kept for later runs) and starts the main job, a game of Kalah in the terminal
# against the strongest computer level (6, Pro) using those tables. Extra arguments replace the
# default `kalah --level 6` given to `mancala play` (e.g. `scripts/run.sh oware --level 1`).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" "$root/build" -DMANCALA_TESTS=OFF
mancala="$root/build/tools/mancala"
for game in kalah oware; do
  # A finished build is kept: this returns at once when the tables are there.
  "$mancala" db build "$game" --max-seeds 14 --quiet >/dev/null
done
if [ "$#" -eq 0 ]; then set -- kalah --level 6; fi
exec "$mancala" play "$@"
