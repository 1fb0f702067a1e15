#!/usr/bin/env bash
# The installed mancala, as a user gets it from `cmake --install`: installs the build into a
# staging prefix, then checks that
#   - the command runs from there and says its version;
#   - a program outside the tree (tests/install/consumer) builds against the installed headers and
#     libraries, through find_package(mancala CONFIG) and through pkg-config, reaching them as
#     <mancala/...> beside its own db/ and solver/ folders, and compiling every installed header
#     on its own; it opens tables built by the installed `mancala db build`, probes a
#     position (the same value as the installed `mancala db query`) and solves Kalah(4,3) = +6;
#   - every command has a manual page, and `man -l` renders each one;
#   - the bash completion completes every command and its options as `--help` lists them, and the
#     zsh completion gives the same answers (when zsh is installed).
# Usage: install_test.sh BUILD_DIR SOURCE_DIR VERSION WORK_DIR
set -euo pipefail
build="$1" source="$2" version="$3" work="$4"
fail() {
  echo "install test: $*" >&2
  exit 1
}
rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"

cmake --install "$build" --prefix "$prefix" >"$work/install.log"
mancala="$prefix/bin/mancala"
[ -x "$mancala" ] || fail "no bin/mancala in the installed tree"
[ "$("$mancala" --version)" = "mancala $version" ] || fail "mancala --version: $("$mancala" --version)"
"$mancala" --help | grep -qE '^  --version ' || fail "--version is not in mancala --help"

# ---- The library, through CMake and through pkg-config
pc_file="$(find "$prefix" -name mancala.pc -path '*/pkgconfig/*' | head -1)"
[ -n "$pc_file" ] || fail "no mancala.pc installed"
libdir="$(cd "$(dirname "$pc_file")/.." && pwd)"
for layer in rules tables search db service; do
  compgen -G "$libdir/libmancala_$layer.*" >/dev/null || fail "libmancala_$layer is not installed"
done
[ -f "$prefix/include/mancala/solver/rules/game.h" ] || fail "the rules' headers are not installed"
# The builder is not part of the installed library: tables are built with `mancala db build`.
[ ! -e "$prefix/include/mancala/solver/tables/retrograde.h" ] || fail "the builder's header is installed"
# Installed, the headers reach each other as <mancala/...>, never by the source tree's paths.
unspaced="$(grep -rlE '#include "(solver|db|tools|mancala_version)' "$prefix/include/mancala" || true)"
[ -z "$unspaced" ] || fail "installed headers include the project without <mancala/...>: $unspaced"

tables="$work/tables"
"$mancala" db build kalah:4:3 --max-seeds 8 --out "$tables" --quiet
position=1-0-2-1-0-1-3-0-9-7-S
expected_probe="$("$mancala" db query kalah:4:3 "$position" --db "$tables" --json |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["value"])')"
check_consumer() {
  local output
  output="$("$1" "$tables" "$position")" || fail "$2: the consumer failed"
  [ "$output" = "version $version
probe $expected_probe
solve +6 B" ] || fail "$2: the consumer printed '$output' (expected version $version, probe \
$expected_probe, solve +6 B)"
}

cmake -S "$source/tests/install/consumer" -B "$work/consumer-cmake" -G Ninja \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="${CXX:-c++}" >"$work/consumer-cmake.log" ||
  fail "find_package(mancala): see $work/consumer-cmake.log"
cmake --build "$work/consumer-cmake" >>"$work/consumer-cmake.log" ||
  fail "the consumer does not build through find_package: see $work/consumer-cmake.log"
check_consumer "$work/consumer-cmake/consumer" "find_package(mancala)"

flags="$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs mancala)" ||
  fail "pkg-config --cflags --libs mancala failed"
# shellcheck disable=SC2086  # pkg-config's flags are separate words
"${CXX:-c++}" -o "$work/consumer-pkg-config" "$source/tests/install/consumer/consumer.cpp" \
  -I"$source/tests/install/consumer" $flags ||
  fail "the consumer does not build with: c++ consumer.cpp $flags"
check_consumer "$work/consumer-pkg-config" "pkg-config"

# ---- Manual pages: one per command, each rendered by man
mandir="$prefix/share/man/man1"
commands=(mancala)
for sub in $("$mancala" --help | awk '/^Subcommands:$/ { on = 1; next } /^$/ { on = 0 } on { print $1 }'); do
  commands+=("mancala $sub")
  for subsub in $("$mancala" "$sub" --help |
    awk '/^Subcommands:$/ { on = 1; next } /^$/ { on = 0 } on { print $1 }'); do
    commands+=("mancala $sub $subsub")
  done
done
((${#commands[@]} > 10)) || fail "only ${#commands[@]} commands found in --help"
for command in "${commands[@]}"; do
  page="$mandir/${command// /-}.1.gz"
  [ -f "$page" ] || fail "no manual page for '$command' ($page)"
  rendered="$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>"$work/man-warnings")" ||
    fail "man -l $page failed"
  [ ! -s "$work/man-warnings" ] || fail "man -l $page: $(cat "$work/man-warnings")"
  grep -q "^NAME" <<<"$rendered" && grep -q "^SYNOPSIS" <<<"$rendered" ||
    fail "$page has no NAME or SYNOPSIS"
  grep -qF -- "$command" <<<"$rendered" || fail "$page does not name '$command'"
done
[ "$(find "$mandir" -name 'mancala*' | wc -l)" -eq "${#commands[@]}" ] ||
  fail "the manual pages are not one per command: $(ls "$mandir")"
MANWIDTH=80 man -l "$mandir/mancala.1.gz" | grep -qF "$version" || fail "mancala(1) has no version"

# ---- Shell completion
bash_completion="$prefix/share/bash-completion/completions/mancala"
zsh_completion="$prefix/share/zsh/vendor-completions/_mancala"
[ -f "$bash_completion" ] && [ -f "$zsh_completion" ] || fail "no bash or zsh completion installed"
# What the bash completion offers after the words given (the last one being completed).
complete_bash() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _mancala
    printf "%s\n" "${COMPREPLY[@]}" | sort | paste -sd" "' _ "$bash_completion" "$@"
}
# The same with the zsh completion, its completion functions replaced by ones that print.
complete_zsh() {
  zsh -f -c 'compadd() { [[ $1 == -- ]] && shift; print -l -- "$@"; }
    _describe() { print -l -- ${(P)4%%:*}; }
    _files() { :; }
    source "$1"; shift; words=("$@"); CURRENT=$#; PREFIX="${words[CURRENT]}"
    _mancala' _ "$zsh_completion" "$@" | sort | grep "^${*: -1}" | paste -sd" "
}
expect_completion() {
  local expected="$1" got
  shift
  got="$(complete_bash "$@")"
  [ "$got" = "$expected" ] || fail "bash completes '$*' as '$got', not '$expected'"
  if command -v zsh >/dev/null; then
    got="$(complete_zsh "$@")"
    [ "$got" = "$expected" ] || fail "zsh completes '$*' as '$got', not '$expected'"
  fi
}
sorted_words() { tr ' ' '\n' <<<"$*" | sort | paste -sd" "; }
top_level=()
db_level=()
for command in "${commands[@]}"; do
  read -r -a words <<<"$command"
  ((${#words[@]} == 2)) && top_level+=("${words[1]}")
  ((${#words[@]} == 3)) && [ "${words[1]}" = db ] && db_level+=("${words[2]}")
done
expect_completion "$(sorted_words "${top_level[@]}")" mancala ""
expect_completion "$(sorted_words "${db_level[@]}")" mancala db ""
# Every command's options, as its --help lists them.
for command in "${commands[@]}"; do
  read -r -a words <<<"$command"
  listed="$("$mancala" "${words[@]:1}" --help |
    awk '/^Options:$/ { on = 1; next } /^$/ { on = 0 } on && /^  -/ { print $1 }' | tr ',' ' ')"
  expect_completion "$(sorted_words $listed)" "${words[@]}" -
done
expect_completion "--level" mancala play --lev
expect_completion "--max-seeds" mancala db build --max
expect_completion "interleaved ranges" mancala db build --partition ""
expect_completion "kalah" mancala solve ka
echo "install test: passed ($prefix)"
