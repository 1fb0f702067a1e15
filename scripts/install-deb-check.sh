#!/usr/bin/env bash
# Builds the .deb as it is meant to be shipped and installs it for real with apt-get (needs root or
# sudo): a build for any x86-64 (-DMANCALA_NATIVE=OFF, no tests), `cpack -G DEB`, then
# `apt-get install ./mancala_*.deb`, and checks what a user gets: `mancala` on the PATH with its
# version, its manual pages found and rendered by `man`, its bash completion loaded by
# bash-completion, tables built and probed, a whole game solved, the web server answering.
#
#   scripts/install-deb-check.sh [--keep] [BUILD_DIR]
#       installs on this machine, checks also that every shared library the command names comes
#       from a package that Depends: lists, and removes the package again (unless --keep)
#   scripts/install-deb-check.sh --clean-root [BUILD_DIR]
#       installs into a minimal Debian made for the purpose (mmdebstrap: the essential packages,
#       apt, and man-db and bash-completion to read pages and complete with), where apt-get must
#       bring every dependency itself, and runs the same checks there; the root is removed after
#
# Prints the package's size, its Depends: and the time each step took. BUILD_DIR: build-deb/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mode=host keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --keep) keep=1 ;;
    --clean-root) mode=clean-root ;;
    --checks-inside) mode=inside ;;  # used by --clean-root: the checks, run inside the new root
    *) break ;;
  esac
  shift
done
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
fail() {
  echo "install-deb-check: $*" >&2
  exit 1
}
step() {
  echo "== $1 ($(date +%T))"
}

# What a user of the installed package gets. $1: the package's version.
check_installed() {
  local version="$1" work server="" address="" port games page name pages=0 completed
  [ "$(command -v mancala)" = /usr/bin/mancala ] || fail "mancala is not /usr/bin/mancala on the PATH"
  [ "$(mancala --version)" = "mancala $version" ] || fail "mancala --version: $(mancala --version)"
  echo "mancala --version: $(mancala --version)"

  step "manual pages"
  for page in /usr/share/man/man1/mancala*.1.gz; do
    name="$(basename "$page" .1.gz)"
    [ "$(man -w "$name")" = "$page" ] || fail "man does not find $name"
    man "$name" 2>&1 >/dev/null | grep . && fail "man $name: warnings"
    pages=$((pages + 1))
  done
  ((pages > 10)) || fail "only $pages manual pages"
  echo "$pages pages, each found by man -w and rendered by man"

  step "bash completion"
  completed="$(bash -c 'source /usr/share/bash-completion/bash_completion
    _completion_loader mancala
    COMP_WORDS=(mancala db b); COMP_CWORD=2; COMP_LINE="mancala db b"; COMP_POINT=${#COMP_LINE}
    $(complete -p mancala | sed -E "s/.*-F ([^ ]+) .*/\1/") mancala b db
    echo "${COMPREPLY[*]}"')"
  [ "$completed" = "build bench" ] || fail "bash completes 'mancala db b' as '$completed'"
  echo "mancala db b<TAB>: $completed"

  step "tables built and probed, a game solved, the server's games"
  work="$(mktemp -d)"
  mancala db build kalah --max-seeds 10 --out "$work/db" --quiet
  mancala db query kalah 0-0-0-0-1-2-0-0-0-0-3-1-20-21-S --db "$work/db" | sed -n 1,2p
  mancala solve kalah:4:3 --no-tables --quiet | grep -qE '^value +\+6 ' || fail "Kalah(4,3) is not +6"
  echo "mancala solve kalah:4:3: +6"
  mancala serve --port 0 --db "$work/db" >"$work/serve.log" 2>&1 &
  server=$!
  for _ in $(seq 50); do
    address="$(grep -oE 'http://[0-9.]+:[0-9]+/' "$work/serve.log" || true)"
    [ -n "$address" ] && break
    sleep 0.1
  done
  [ -n "$address" ] || fail "the server printed no address: $(cat "$work/serve.log")"
  port="${address##*:}"
  port="${port%/}"
  # bash's own /dev/tcp: no HTTP client is needed on a minimal system.
  exec 3<>"/dev/tcp/127.0.0.1/$port"
  printf 'GET /api/v1/games HTTP/1.0\r\nHost: localhost\r\n\r\n' >&3
  games="$(tail -n 1 <&3)"
  exec 3<&-
  kill "$server"
  wait "$server" 2>/dev/null || true
  rm -rf "$work"
  grep -qF "\"server\":{\"name\":\"mancala\",\"version\":\"$version\"}" <<<"$games" ||
    fail "the server's games do not name mancala $version: ${games:0:200}"
  echo "GET ${address}api/v1/games: ${games:0:60}..."
}

if [ "$mode" = inside ]; then
  check_installed "$1"
  exit 0
fi

build="${1:-$root/build-deb}"
"$root/scripts/install-deps.sh" --build-only
# cpack's Depends: come from dpkg-shlibdeps (dpkg-dev), which reads files through `file`; the
# checks need man and bash-completion, and a clean root mmdebstrap.
missing=()
wanted=(dpkg-dev file bash-completion man-db binutils)
[ "$mode" = clean-root ] && wanted+=(mmdebstrap)
for package in "${wanted[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if ((${#missing[@]})); then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

step "build for any x86-64 in $build"
start=$SECONDS
"$root/scripts/build.sh" "$build" -DMANCALA_NATIVE=OFF -DMANCALA_TESTS=OFF -DMANCALA_PYTHON=OFF
echo "built in $((SECONDS - start)) s"

step "cpack -G DEB"
start=$SECONDS
rm -f "$build"/mancala_*.deb
(cd "$build" && cpack -G DEB >/dev/null)
deb="$(find "$build" -maxdepth 1 -name 'mancala_*.deb' | head -1)"
[ -n "$deb" ] || fail "cpack made no .deb"
echo "$(basename "$deb"): $(du -k "$deb" | cut -f1) KiB, made in $((SECONDS - start)) s"
echo "Depends: $(dpkg-deb -f "$deb" Depends)"
echo "Installed-Size: $(dpkg-deb -f "$deb" Installed-Size) KiB"
version="$(dpkg-deb -f "$deb" Version)"

if [ "$mode" = clean-root ]; then
  clean="$(mktemp -d)"
  unmount() {
    $SUDO umount "$clean/proc" "$clean/dev" 2>/dev/null || true
    $SUDO rm -rf --one-file-system "$clean"
  }
  trap unmount EXIT
  step "a minimal Debian in $clean"
  start=$SECONDS
  suite="$(. /etc/os-release && echo "$VERSION_CODENAME")"
  # The package lists are kept, for apt-get to find the package's dependencies.
  $SUDO mmdebstrap --quiet --variant=apt --mode=root --skip=cleanup/apt/lists \
    --include=man-db,bash-completion "$suite" "$clean"
  echo "$suite: $($SUDO chroot "$clean" dpkg-query -W | wc -l) packages, made in $((SECONDS - start)) s"
  $SUDO cp /etc/resolv.conf "$clean/etc/resolv.conf"
  $SUDO cp "$deb" "$0" "$clean/tmp/"
  $SUDO mount --bind /dev "$clean/dev"
  $SUDO mount -t proc proc "$clean/proc"

  step "apt-get install ./$(basename "$deb") in the minimal Debian"
  start=$SECONDS
  $SUDO chroot "$clean" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    "/tmp/$(basename "$deb")" >"$build/clean-root-install.log" 2>&1 ||
    fail "apt-get install failed: see $build/clean-root-install.log"
  echo "installed in $((SECONDS - start)) s: $($SUDO chroot "$clean" dpkg-query -W | wc -l) packages"
  $SUDO chroot "$clean" bash "/tmp/$(basename "$0")" --checks-inside "$version"
  echo "install-deb-check: passed in a minimal Debian"
  exit 0
fi

step "apt-get install $deb"
start=$SECONDS
if ((!keep)); then trap '$SUDO apt-get remove -y -qq mancala >/dev/null || true' EXIT; fi
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$deb" >/dev/null
echo "installed in $((SECONDS - start)) s"

step "every shared library /usr/bin/mancala names comes from a package in Depends:"
depends=" $(dpkg-deb -f "$deb" Depends | sed -E 's/ \([^)]*\)//g; s/,/ /g') "
while read -r library; do
  owner="$(dpkg -S "$(readlink -f "$library")" 2>/dev/null | head -1 | cut -d: -f1)" ||
    owner=""
  [ -n "$owner" ] || owner="$(dpkg -S "$library" 2>/dev/null | head -1 | cut -d: -f1)"
  [ -n "$owner" ] || fail "$library belongs to no package"
  [[ "$depends" == *" $owner "* ]] || fail "$library comes from $owner, which Depends: lacks"
  echo "  $library: $owner"
done < <(
  # The libraries the command names (its NEEDED entries), where the loader finds them: the ones
  # they load in turn are their own packages' dependencies.
  needed="$(readelf -d /usr/bin/mancala | sed -nE 's/.*\(NEEDED\).*\[(.*)\]/\1/p')"
  ldd /usr/bin/mancala | awk 'NR == FNR { needed[$1] = 1; next } ($1 in needed) && $3 ~ /^\// {
    print $3 }' <(echo "$needed") -
)

check_installed "$version"
if ((keep)); then
  echo "install-deb-check: passed; mancala $version stays installed"
else
  echo "install-deb-check: passed; the package is removed again"
fi
