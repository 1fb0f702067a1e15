#!/usr/bin/env bash
# Builds the .deb as it is meant to be shipped and installs it for real with apt-get (needs root or
# sudo): a build for any x86-64 (-DMANCALA_NATIVE=OFF, no tests), `cpack -G DEB`, then
# `apt-get install ./mancala_*.deb`, and checks what a user gets: `mancala` on the PATH, its manual
# pages found by `man`, its bash completion loaded by bash-completion, tables built and probed, the
# web server answering; and that every shared library the installed command names comes from a
# package its Depends: lists (what makes the package work on a machine that has nothing else).
# Prints the package's size, its Depends: and the time each step took. Removes the package at the
# end unless --keep is given.
# Usage: scripts/install-deb-check.sh [--keep] [BUILD_DIR]   (default BUILD_DIR: build-deb/)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
keep=0
if [ "${1:-}" = --keep ]; then
  keep=1
  shift
fi
build="${1:-$root/build-deb}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
fail() {
  echo "install-deb-check: $*" >&2
  exit 1
}
step() {
  echo "== $1 ($(date +%T))"
}
"$root/scripts/install-deps.sh" --build-only
# cpack's Depends: come from dpkg-shlibdeps (dpkg-dev), which reads files through `file`; the
# completion is checked through bash-completion's loader.
missing=()
for package in dpkg-dev file bash-completion man-db curl; do
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

step "apt-get install $deb"
start=$SECONDS
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$deb" >/dev/null
echo "installed in $((SECONDS - start)) s"
[ "$(command -v mancala)" = /usr/bin/mancala ] || fail "mancala is not /usr/bin/mancala on the PATH"
version="$(dpkg-deb -f "$deb" Version)"
[ "$(mancala --version)" = "mancala $version" ] || fail "mancala --version: $(mancala --version)"
echo "mancala --version: $(mancala --version)"

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

step "manual pages"
pages=0
for page in /usr/share/man/man1/mancala*.1.gz; do
  name="$(basename "$page" .1.gz)"
  [ "$(man -w "$name")" = "$page" ] || fail "man does not find $name"
  man "$name" 2>&1 >/dev/null | grep . && fail "man $name: warnings"
  pages=$((pages + 1))
done
echo "$pages pages, each found by man -w and rendered by man"

step "bash completion"
completed="$(bash -c 'source /usr/share/bash-completion/bash_completion
  _completion_loader mancala
  COMP_WORDS=(mancala db b); COMP_CWORD=2; COMP_LINE="mancala db b"; COMP_POINT=${#COMP_LINE}
  $(complete -p mancala | sed -E "s/.*-F ([^ ]+) .*/\1/") mancala b db
  echo "${COMPREPLY[*]}"')"
[ "$completed" = "build bench" ] || fail "bash completes 'mancala db b' as '$completed'"
echo "mancala db b<TAB>: $completed"

step "tables built and probed, the server's games"
work="$(mktemp -d)"
server=""
cleanup() {
  [ -z "$server" ] || kill "$server" 2>/dev/null || true
  rm -rf "$work"
  if ((!keep)); then $SUDO apt-get remove -y -qq mancala >/dev/null || true; fi
}
trap cleanup EXIT
mancala db build kalah --max-seeds 10 --out "$work/db" --quiet
mancala db query kalah 0-0-0-0-1-2-0-0-0-0-3-1-20-21-S --db "$work/db"
mancala serve --port 0 --db "$work/db" >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 50); do
  address="$(grep -oE 'http://[0-9.]+:[0-9]+/' "$work/serve.log" || true)"
  [ -n "$address" ] && break
  sleep 0.1
done
[ -n "$address" ] || fail "the server printed no address: $(cat "$work/serve.log")"
games="$(curl -s "${address}api/v1/games")"
grep -qF "\"server\":{\"name\":\"mancala\",\"version\":\"$version\"}" <<<"$games" ||
  fail "the server's games do not name mancala $version: ${games:0:200}"
echo "GET ${address}api/v1/games: ${games:0:60}..."
if ((keep)); then
  echo "install-deb-check: passed; mancala $version stays installed"
else
  echo "install-deb-check: passed; the package is removed again"
fi
