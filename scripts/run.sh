#!/usr/bin/env bash
# One command from a fresh Debian machine to a game. It installs only what the board needs
# (scripts/install-deps.sh --board), builds only the `mancala` command (Release), builds small
# endgame tables (Kalah 6 houses and Oware abapa up to 12 seeds: a second or two) and starts the
# web board (`mancala serve`) on them, printing the address to open; Ctrl-C stops it. While the
# board is up, deeper tables are built in the background at a low priority (Kalah to 20 seeds,
# about 30 s on two cores; then Oware to 20, a few minutes): the server uses each layer as it
# lands and the board says how far the tables reach. Built layers are kept for later runs, and an interrupted build
# goes on where it stopped. MANCALA_RUN_SEEDS="KALAH OWARE" chooses the background build's depths
# ("12 12": none).
# Arguments are passed to `mancala serve` (e.g. --port 9000).
# `scripts/run.sh play [GAME OPTIONS...]` plays in the terminal instead, by default Kalah against
# the strongest computer level (6, Pro): `scripts/run.sh play oware --level 1`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh" --board
"$root/scripts/build.sh" "$root/build" -DMANCALA_TESTS=OFF -- --target mancala
mancala="$root/build/tools/mancala"
for game in kalah oware; do
  # A finished build is kept: this returns at once when the tables are there.
  "$mancala" db build "$game" --max-seeds 12 --quiet >/dev/null
done
if [ "${1:-}" = play ]; then
  shift
  if [ "$#" -eq 0 ]; then set -- kalah --level 6; fi
  exec "$mancala" play "$@"
fi
read -r kalah_seeds oware_seeds <<<"${MANCALA_RUN_SEEDS:-20 20}"
# Deeper tables, one game after the other, below the server's priority. A layer is renamed into
# place only when whole, so the server never reads one being written. Stopped (TERM), the builder
# stops the build it runs; the next run goes on from the layers already written.
(
  trap 'kill "$build" 2>/dev/null; exit 0' TERM
  nice -n 19 "$mancala" db build kalah --max-seeds "$kalah_seeds" --quiet >/dev/null &
  build=$!
  wait "$build" || exit 0
  nice -n 19 "$mancala" db build oware --max-seeds "$oware_seeds" --quiet >/dev/null &
  build=$!
  wait "$build" || true
) &
tables_builder=$!
# The server runs in the background of this script, which waits for it: a signal reaches the
# script at once (a shell runs its traps only between foreground commands), and the script stops
# the server and the builder. (A background job ignores the terminal's Ctrl-C: the trap passes it
# on as TERM, which the server answers by closing down cleanly.)
"$mancala" serve "$@" &
server=$!
stop() {
  kill "$server" "$tables_builder" 2>/dev/null || true
  wait "$server" "$tables_builder" 2>/dev/null || true
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
wait "$server"
