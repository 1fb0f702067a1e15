#!/usr/bin/env bash
# Times scripts/run.sh as a new user meets it: a clean clone of this repository in a minimal Debian
# made for the purpose (mmdebstrap: the essential packages and apt, nothing else; needs root or
# sudo, and the network for apt). Prints the seconds from `scripts/run.sh` to the board's address,
# the packages it installed, then follows the background table build: the seconds until the
# server's catalogue shows Kalah to 20 seeds and Oware to 20 (or MANCALA_RUN_SEEDS), asking the
# running server, and stops everything. The root is removed after.
#
#   scripts/run-fresh-check.sh [--no-wait]     --no-wait: stop once the board is up
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
wait_tables=1
[ "${1:-}" != --no-wait ] || wait_tables=0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
fail() {
  echo "run-fresh-check: $*" >&2
  exit 1
}
clean="$(mktemp -d)"
log="$(mktemp)"
run=""
cleanup() {
  # run.sh stops its server and its table build on TERM (the chroot ran it in place of itself).
  if [ -n "$run" ]; then
    $SUDO kill -TERM "$run" 2>/dev/null || true
    wait "$run" 2>/dev/null || true
  fi
  $SUDO umount "$clean/proc" "$clean/dev" 2>/dev/null || true
  $SUDO rm -rf --one-file-system "$clean"
}
trap cleanup EXIT

suite="$(. /etc/os-release && echo "$VERSION_CODENAME")"
start=$SECONDS
$SUDO mmdebstrap --quiet --variant=apt --mode=root "$suite" "$clean"
echo "a minimal $suite: $($SUDO chroot "$clean" dpkg-query -W | wc -l) packages, made in $((SECONDS - start)) s"
$SUDO cp /etc/resolv.conf "$clean/etc/resolv.conf"
$SUDO mount --bind /dev "$clean/dev"
$SUDO mount -t proc proc "$clean/proc"
# A clean clone of what is committed (git is not needed inside: the user has cloned already).
git clone --quiet "$root" "$clean/tmp/clone-source"
$SUDO mv "$clean/tmp/clone-source" "$clean/root/mancala"
before="$($SUDO chroot "$clean" dpkg-query -W | wc -l)"

echo "== scripts/run.sh --port 0, from the clean clone ($(date +%T))"
start=$SECONDS
$SUDO chroot "$clean" env HOME=/root bash -c 'cd /root/mancala && exec scripts/run.sh --port 0' \
  >"$log" 2>&1 &
run=$!
address=""
while [ -z "$address" ]; do
  sleep 1
  address="$(grep -o 'http://[0-9.:]*/' "$log" | head -1 || true)"
  if ! jobs -r | grep -q .; then
    cat "$log" >&2
    fail "scripts/run.sh stopped before printing the address"
  fi
done
up=$((SECONDS - start))
echo "the board at $address after $up s; $(($($SUDO chroot "$clean" dpkg-query -W | wc -l) - before)) packages installed"
((wait_tables)) || exit 0

read -r kalah_seeds oware_seeds <<<"${MANCALA_RUN_SEEDS:-20 20}"
reach() {  # the server's catalogue: "KALAH OWARE" max seeds
  /usr/bin/python3 - "$address" <<'PY'
import json, sys, urllib.request
games = json.load(urllib.request.urlopen(sys.argv[1] + "api/v1/games", timeout=5))
reach = {t["table"]: t["max_seeds"] for g in games["games"] for t in g["tables"]}
print(reach.get("kalah:6", -1), reach.get("oware:abapa", -1))
PY
}
kalah_at="" oware_at=""
while [ -z "$oware_at" ]; do
  sleep 2
  read -r kalah oware <<<"$(reach)"
  if [ -z "$kalah_at" ] && ((kalah >= kalah_seeds)); then
    kalah_at=$((SECONDS - start))
    echo "Kalah tables to $kalah seeds in use after $kalah_at s"
  fi
  if ((oware >= oware_seeds)); then
    oware_at=$((SECONDS - start))
    echo "Oware tables to $oware seeds in use after $oware_at s"
  fi
  ((SECONDS - start < 3600)) || fail "the tables did not reach $kalah_seeds and $oware_seeds seeds in an hour"
done
echo "run-fresh-check: passed"
