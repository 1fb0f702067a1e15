#!/usr/bin/env bash
# Writes the manual pages and the shell completion of `mancala` from the built command's own
# --help, so that neither can drift from the command line: every command path (mancala, mancala
# db, mancala db build, ...) is found by walking the "Subcommands:" sections of the help, and its
# options are read from its "Options:" section.
#
# Usage: cmake/document_commands.sh MANCALA OUT_DIR VERSION [HELP2MAN]
#   OUT_DIR/bash/mancala   bash completion (share/bash-completion/completions/mancala)
#   OUT_DIR/zsh/_mancala   zsh completion (share/zsh/vendor-completions/_mancala)
#   OUT_DIR/man1/*.1.gz    with HELP2MAN: mancala(1) and one page per command, mancala-db-build(1)
#                          (compressed, as Debian installs manual pages)
set -euo pipefail
mancala="$1" out="$2" version="$3" help2man="${4:-}"

# The entries of one section of a help text ("Subcommands:", "Options:"), one per line, as
# "FIRST_WORD<TAB>REST": an option's names ("-s,--max-seeds") and its value type ("INT:0..64
# REQUIRED"), or a subcommand's name and its description. Entries start with two spaces; a
# description wrapped onto the next line is indented further and skipped.
section() {
  awk -v want="$1" '
    /^[^ ].*:$/ { inside = ($0 == want); next }
    /^$/ { inside = 0; next }
    inside && /^  [^ ]/ {
      line = substr($0, 3)
      split(line, parts, /  +/)
      first = parts[1]; rest = ""
      sp = index(first, " ")
      if (sp) { rest = substr(first, sp + 1); first = substr(first, 1, sp - 1) }
      if (want == "Subcommands:") rest = parts[2]
      print first "\t" rest
    }'
}

# CLI11 leaves one space only after an entry that ends on the descriptions' column less one
# ("  --seconds FLOAT:seconds > 0 Thinking time ..."); two tell where the entry ends, for this
# script's reading of the help as for help2man's.
widen='s/^(  [^ ].{25}[^ ]) ([^ ])/\1  \2/'

declare -a paths=(mancala)    # every command path: "mancala", "mancala db", "mancala db build" ...
declare -A subcommands=()     # path -> its subcommands, space separated
declare -A descriptions=()    # path -> the one-line description its parent's help gives it
declare -A options=()         # path -> every option name
declare -A valued=()          # path -> the options that take a value
declare -A choices=()         # "path option" -> the values it accepts, when they are a set
declare -A takes_game=()      # path -> 1 when its first positional is a GAME string

walk() {
  local path="$1" help name rest names n
  # shellcheck disable=SC2086  # the path's words are separate arguments
  help="$("$mancala" ${path#mancala} --help | sed -E "$widen")"
  subcommands[$path]=""
  while IFS=$'\t' read -r name rest; do
    [ -n "$name" ] || continue
    subcommands[$path]+="$name "
    descriptions["$path $name"]="$rest"
  done < <(section "Subcommands:" <<<"$help")
  options[$path]="" valued[$path]=""
  while IFS=$'\t' read -r names rest; do
    [ -n "$names" ] || continue
    IFS=, read -r -a split <<<"$names"
    for n in "${split[@]}"; do
      options[$path]+="$n "
      if [ -n "$rest" ] && [ "${rest#REQUIRED}" = "$rest" ]; then
        valued[$path]+="$n "
        # A set of values: TEXT:{interleaved,ranges}
        if [[ "$rest" =~ \{([^}]*)\} ]]; then choices["$path $n"]="${BASH_REMATCH[1]//,/ }"; fi
      fi
    done
  done < <(section "Options:" <<<"$help")
  if grep -qE '^  GAME ' <<<"$help"; then takes_game[$path]=1; fi
  local sub
  for sub in ${subcommands[$path]}; do
    paths+=("$path $sub")
    walk "$path $sub"
  done
}
walk mancala
# The kinds of game, from the GAME strings that the help's footer lists (kalah, oware, congkak).
games="$("$mancala" --help | awk '/^GAME strings:$/ { on = 1; next } /^$/ { on = 0 }
  on && /^  [a-z]+ / { print $1 }' | tr '\n' ' ')"
[ -n "${subcommands[mancala]}" ] && [ -n "$games" ] || {
  echo "document_commands.sh: no subcommands or GAME strings in '$mancala --help'" >&2
  exit 1
}

# Text in single quotes, which bash and zsh read alike.
quoted() { printf "'%s'" "${1//\'/\'\\\'\'}"; }

# Writes an associative array's contents as bash/zsh source: name=( [key]="value" ... ).
print_table() {
  local -n table="$1"
  local key
  printf '  local -A %s=(\n' "$1"
  for key in "${!table[@]}"; do
    printf '    [%s]=%s\n' "$(quoted "$key")" "$(quoted "${table[$key]% }")"
  done | sort
  printf '  )\n'
}

mkdir -p "$out/bash" "$out/zsh"
{
  cat <<'EOF'
# bash completion for mancala, written by cmake/document_commands.sh from `mancala --help`.
_mancala() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
EOF
  print_table subcommands
  print_table options
  print_table valued
  print_table choices
  print_table takes_game
  printf '  local games=%s\n' "$(quoted "${games% }")"
  cat <<'EOF'
  # The command path so far: each word that names a subcommand of the path before it.
  local path=mancala i word
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="${COMP_WORDS[i]}"
    if [[ " ${subcommands[$path]} " == *" $word "* ]]; then path="$path $word"; fi
  done
  if [[ " ${valued[$path]} " == *" $prev "* ]]; then
    if [ -n "${choices["$path $prev"]:-}" ]; then
      mapfile -t COMPREPLY < <(compgen -W "${choices["$path $prev"]}" -- "$cur")
    else
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
  elif [[ "$cur" == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "${options[$path]}" -- "$cur")
  elif [ -n "${subcommands[$path]}" ]; then
    mapfile -t COMPREPLY < <(compgen -W "${subcommands[$path]}" -- "$cur")
  elif [ -n "${takes_game[$path]:-}" ] && [[ "$cur" != */* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$games" -- "$cur")
  else
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
  fi
}
complete -o filenames -F _mancala mancala
EOF
} >"$out/bash/mancala"

# zsh: the same tables and the same walk, answered with zsh's completion functions (subcommands
# with their descriptions).
{
  cat <<'EOF'
#compdef mancala
# zsh completion for mancala, written by cmake/document_commands.sh from `mancala --help`.
_mancala() {
EOF
  print_table subcommands
  print_table descriptions
  print_table options
  print_table valued
  print_table choices
  print_table takes_game
  printf '  local games=%s\n' "$(quoted "${games% }")"
  cat <<'EOF'
  local cmdpath=mancala word sub
  for word in "${(@)words[2,CURRENT-1]}"; do
    if [[ " ${subcommands[$cmdpath]} " == *" $word "* ]]; then cmdpath="$cmdpath $word"; fi
  done
  local prev="${words[CURRENT-1]}"
  if [[ " ${valued[$cmdpath]} " == *" $prev "* ]]; then
    if [[ -n "${choices[$cmdpath $prev]}" ]]; then
      compadd -- ${=choices[$cmdpath $prev]}
    else
      _files
    fi
  elif [[ "$PREFIX" == -* ]]; then
    compadd -- ${=options[$cmdpath]}
  elif [[ -n "${subcommands[$cmdpath]}" ]]; then
    local -a described=()
    for sub in ${=subcommands[$cmdpath]}; do
      described+=("$sub:${descriptions[$cmdpath $sub]}")
    done
    _describe -t commands 'mancala command' described
  elif [[ -n "${takes_game[$cmdpath]}" ]]; then
    compadd -- ${=games}
    _files
  else
    _files
  fi
}
_mancala "$@"
EOF
} >"$out/zsh/_mancala"

[ -n "$help2man" ] || exit 0

# The manual pages. help2man runs a program by its name: each command path gets a small script
# named as its page (mancala-db-build runs `mancala db build`), and mancala(1) the command itself.
mkdir -p "$out/man1"
rm -f "$out/man1/"*.1 "$out/man1/"*.1.gz
wrappers="$(mktemp -d)"
trap 'rm -rf "$wrappers"' EXIT
page_name() { echo "${1// /-}"; }
see_also="$wrappers/see-also.h2m"
{
  echo "[SEE ALSO]"
  for path in "${paths[@]}"; do printf '.BR %s (1)\n' "$(page_name "$path")"; done |
    paste -sd, | sed 's/,/,\n/g'
  echo
  echo "The README of the mancala sources, and its docs/ folder, describe every command in full."
} >"$see_also"
for path in "${paths[@]}"; do
  name="$(page_name "$path")"
  printf '#!/bin/sh\n%q %s "$@" | sed -E %q\n' "$mancala" "${path#mancala}" "$widen" \
    >"$wrappers/$name"
  chmod +x "$wrappers/$name"
  if [ "$path" = mancala ]; then
    # mancala(1) reads the version from `mancala --version` itself.
    "$help2man" --no-info --section=1 --include="$see_also" \
      --name="play, count, solve and analyse Kalah, Oware and Congkak" \
      --output="$out/man1/$name.1" "$wrappers/$name"
  else
    "$help2man" --no-info --section=1 --include="$see_also" --version-string="$version" \
      --name="${descriptions[$path]}" --output="$out/man1/$name.1" "$wrappers/$name"
  fi
done
# -n: no name or time stamp in the archive, so that the same pages give the same bytes.
gzip -9n "$out/man1/"*.1
