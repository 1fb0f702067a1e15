#!/usr/bin/env bash
# One command from a fresh Debian machine to a game: installs what is missing, builds (Release),
# builds the default endgame tables on first use (Kalah 6 houses and Oware abapa, up to 14 seeds,
# a few seconds; kept for later runs) and starts the web board (`mancala serve`) on them, printing
# the address to open; Ctrl-C stops it. Arguments are passed to `mancala serve` (e.g. --port 9000).
# `scripts/run.sh play [GAME OPTIONS...]` plays in the terminal instead, by default Kalah against
# the strongest computer level (6, Pro): `scripts/run.sh play oware --level 1`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh" --build-only
"$root/scripts/build.sh" "$root/build" -DMANCALA_TESTS=OFF
mancala="$root/build/tools/mancala"
for game in kalah oware; do
  # A finished build is kept: this returns at once when the tables are there.
  "$mancala" db build "$game" --max-seeds 14 --quiet >/dev/null
done
if [ "${1:-}" = play ]; then
  shift
  if [ "$#" -eq 0 ]; then set -- kalah --level 6; fi
  exec "$mancala" play "$@"
fi
exec "$mancala" serve "$@"
