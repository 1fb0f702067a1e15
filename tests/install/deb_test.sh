#!/usr/bin/env bash
# The Debian package: `cpack -G DEB` from the build, then its file list (the command, its manual
# pages, completion, the library, its headers, CMake and pkg-config files, nothing outside /usr)
# and its Depends: as dpkg-shlibdeps computed them from what the command links.
# Usage: deb_test.sh BUILD_DIR VERSION WORK_DIR
set -euo pipefail
build="$1" version="$2" work="$3"
fail() {
  echo "deb test: $*" >&2
  exit 1
}
rm -rf "$work"
mkdir -p "$work"
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work" >"$work/cpack.log" ||
  fail "cpack failed: see $work/cpack.log"
deb="$(find "$work" -maxdepth 1 -name "mancala_${version}_*.deb")"
[ -n "$deb" ] || fail "no mancala_${version}_*.deb in $work"

files="$(dpkg-deb -c "$deb" | awk '{ print $NF }')"
for wanted in ./usr/bin/mancala ./usr/share/man/man1/mancala.1.gz \
  ./usr/share/man/man1/mancala-db-build.1.gz ./usr/share/bash-completion/completions/mancala \
  ./usr/share/zsh/vendor-completions/_mancala ./usr/include/mancala/solver/rules/rules.h \
  ./usr/include/mancala/mancala_version.h; do
  grep -qxF "$wanted" <<<"$files" || fail "$wanted is not in the package"
done
grep -qE '^\./usr/lib/.*libmancala_rules\.' <<<"$files" || fail "libmancala_rules is not in the package"
grep -qE '^\./usr/lib/.*cmake/mancala/mancala-config\.cmake$' <<<"$files" ||
  fail "the CMake package is not in the package"
grep -qE '^\./usr/lib/.*pkgconfig/mancala\.pc$' <<<"$files" || fail "mancala.pc is not in the package"
outside="$(grep -vE '^\./(usr(/.*)?)?$' <<<"$files" || true)"
[ -z "$outside" ] || fail "files outside /usr: $outside"

[ "$(dpkg-deb -f "$deb" Package)" = mancala ] || fail "the package is not named mancala"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "the package's version is not $version"
depends="$(dpkg-deb -f "$deb" Depends)"
# What the command links, each as a versioned dependency on its library package.
for library in libc6 libstdc\\+\\+6 libgomp1 libzstd1 'libfmt[0-9]+'; do
  grep -qE "(^|, )$library \(>= [^)]+\)" <<<"$depends" ||
    fail "Depends: lacks $library: $depends"
done
echo "deb test: passed ($deb; Depends: $depends)"
