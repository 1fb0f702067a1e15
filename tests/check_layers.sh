#!/usr/bin/env bash
# Checks the include rules between the layers (README, "Folders, lowest layer first"):
#
#   solver/util/     includes nothing else of the project: the small utilities every layer uses
#   solver/rules/    includes only solver/util/ (and itself)
#   solver/tables/   includes only solver/util/ and solver/rules/ (and itself)
#   solver/search/   includes solver/util/, solver/rules/ and solver/tables/, never db/ and never
#                    the builder
#                    (solver/tables/retrograde.h and the rules of its phases,
#                    solver/tables/retrograde_phases.h: solver/tables/retrograde*.h)
#   db/              includes solver/util/, solver/rules/ and solver/tables/, never solver/search/;
#                    only the builds, db/table_build* (one machine, and distributed over MPI),
#                    include the builder
#   tools/service/   solver/ and db/ (and itself): what every door asks, answered once
#   tools/match/     solver/, db/, tools/service/ (and itself): engines as child processes and
#                    the match runner
#   tools/command_line/  solver/, db/, tools/service/ (and itself): what doors with a command
#                    line share
#   tools/api/       solver/ and tools/service/ (and itself), never db/: the JSON API, which the
#                    browser's engine compiles without the database files' code
#   tools/cli/, tools/http/, tools/engine/  the doors: solver/, db/, tools/service/,
#                    tools/command_line/ and their own folder; never another door; the terminal's
#                    door, tools/cli/, also tools/match/; the server, tools/http/, also tools/api/
#   tools/wasm/      the browser's engine, a door: solver/, tools/service/, tools/api/ and its own
#                    folder, never db/; its tables, built in memory (tools/wasm/browser_tables*),
#                    include the builder
#   tools/python/    a door: solver/, db/, tools/service/ and its own folder
#   tools/mancala_command.*, tools/main.cpp  the command that gathers the doors: anything
#   tests/           anything
#
# Every project include must also name a file that exists. And the layers below the doors
# (solver/, db/, tools/service/, tools/match/, tools/api/) never ask how many cores there are: a door resolves
# "all cores" once (solver/util/thread_count.h) and the layers take the count they are given.
# Prints each violation and exits 1 if there is any. Usage: tests/check_layers.sh [ROOT]   (default: the checkout this script is in)
#        tests/check_layers.sh --self-test             (shows that a violation is caught)
set -euo pipefail

check_tree() {
  local root="$1" violations=0 file line target layer
  while IFS= read -r file; do
    # The layer and each include's target are read with bash's own matching: a process per line
    # (sed, cut) made the check take 20 s of CPU.
    layer="${file%%/*}"
    [[ "$file" =~ ^(solver|tools)/([^/]+)/ ]] && layer="${BASH_REMATCH[1]}/${BASH_REMATCH[2]}"
    while IFS= read -r line; do
      [[ "$line" =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]+\"([^\"]+)\" ]] || continue
      target="${BASH_REMATCH[1]}"
      case "$target" in solver/* | db/* | tools/* | tests/*) ;; *) continue ;; esac
      local allowed=""
      case "$layer" in
        solver/util) allowed="solver/util/" ;;
        solver/rules) allowed="solver/util/ solver/rules/" ;;
        solver/tables) allowed="solver/util/ solver/rules/ solver/tables/" ;;
        solver/search) allowed="solver/util/ solver/rules/ solver/tables/ solver/search/" ;;
        db) allowed="solver/util/ solver/rules/ solver/tables/ db/" ;;
        tools/service) allowed="solver/ db/ tools/service/" ;;
        tools/match) allowed="solver/ db/ tools/service/ tools/match/" ;;
        tools/command_line) allowed="solver/ db/ tools/service/ tools/command_line/" ;;
        tools/cli) allowed="solver/ db/ tools/service/ tools/command_line/ tools/match/ tools/cli/" ;;
        tools/api) allowed="solver/ tools/service/ tools/api/" ;;
        tools/http) allowed="solver/ db/ tools/service/ tools/command_line/ tools/api/ tools/http/" ;;
        tools/engine) allowed="solver/ db/ tools/service/ tools/command_line/ tools/engine/" ;;
        tools/wasm) allowed="solver/ tools/service/ tools/api/ tools/wasm/" ;;
        tools/python) allowed="solver/ db/ tools/service/ tools/python/" ;;
        tools/*) allowed="" ;;  # a folder of tools/ that has no rule yet: it must get one
        *) allowed="solver/ db/ tools/ tests/" ;;
      esac
      local ok=0 prefix
      for prefix in $allowed; do [[ "$target" == "$prefix"* ]] && ok=1; done
      if [[ "$target" == solver/tables/retrograde*.h && "$layer" != solver/tables &&
        "$layer" != tools && "$layer" != tests ]]; then
        [[ "$file" == db/table_build* || "$file" == tools/wasm/browser_tables* ]] || ok=0
      fi
      if ((!ok)); then
        echo "$file: includes $target, which layer $layer may not include"
        violations=$((violations + 1))
      elif [[ ! -f "$root/$target" ]]; then
        echo "$file: includes $target, which does not exist"
        violations=$((violations + 1))
      fi
    done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]+"' "$root/$file" || true)
  done < <(cd "$root" && find solver db tools tests -type f \( -name '*.h' -o -name '*.cpp' \) 2>/dev/null | sort)
  while IFS= read -r line; do
    [[ "$line" == solver/util/thread_count.h:* ]] && continue
    echo "${line%%:*}: asks for the cores below the doors: ${line#*:}"
    violations=$((violations + 1))
  done < <(cd "$root" && find solver db tools/service tools/match tools/api -type f \( -name '*.h' -o -name '*.cpp' \) \
    2>/dev/null | sort | xargs -r grep -HE '\b(all_cores|threads_or_all_cores|omp_get_num_procs|omp_get_max_threads)[[:space:]]*\(' || true)
  if ((violations)); then
    echo "$violations violation(s) of a layer rule"
    return 1
  fi
  echo "layer includes OK"
}

if [[ "${1:-}" == --self-test ]]; then
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' EXIT
  mkdir -p "$scratch/solver/util" "$scratch/solver/rules" "$scratch/solver/search" \
    "$scratch/solver/tables" "$scratch/db" "$scratch/tools/service" "$scratch/tools/command_line" "$scratch/tools/cli" \
    "$scratch/tools/http" "$scratch/tools/engine" "$scratch/tools/python" "$scratch/tools/match" \
    "$scratch/tools/api" "$scratch/tools/wasm"
  touch "$scratch/tools/match/r.h" "$scratch/tools/service/s.h" "$scratch/tools/command_line/c.h" "$scratch/tools/cli/k.h" \
    "$scratch/tools/http/h.h" "$scratch/tools/engine/e.h" "$scratch/tools/python/p.h"
  # A door on the layers below it, and the command that gathers the doors.
  printf '#include "tools/service/s.h"\n#include "tools/command_line/c.h"\n' >"$scratch/tools/http/ok.cpp"
  # The terminal's door on the match runner, and the runner on the service layer.
  printf '#include "tools/match/r.h"\n' >"$scratch/tools/cli/ok.cpp"
  printf '#include "tools/service/s.h"\n' >"$scratch/tools/match/ok.cpp"
  printf '#include "tools/cli/k.h"\n#include "tools/http/h.h"\n' >"$scratch/tools/mancala_command.cpp"
  printf '#include "solver/rules/a.h"\n#include "solver/search/ok.cpp"\n' >"$scratch/solver/search/ok.cpp"
  # Every layer on the utilities.
  printf '#include "solver/util/u.h"\n' >"$scratch/solver/rules/ok.cpp"
  printf '#include "solver/util/u.h"\n' >"$scratch/db/ok.cpp"
  # Only thread_count.h itself may ask how many cores there are.
  printf 'inline int all_cores() { return omp_get_max_threads(); }\n' >"$scratch/solver/util/thread_count.h"
  touch "$scratch/solver/util/u.h" "$scratch/solver/rules/a.h" \
    "$scratch/solver/tables/retrograde.h" "$scratch/solver/tables/retrograde_phases.h"
  # The builds may include the builder and its phases.
  printf '#include "solver/tables/retrograde.h"\n' >"$scratch/db/table_build.cpp"
  printf '#include "solver/tables/retrograde_phases.h"\n' >"$scratch/db/table_build_mpi.cpp"
  check_tree "$scratch" >/dev/null || { echo "self-test: a clean tree was refused"; exit 1; }
  for bad in 'solver/util/v.h:#include "solver/rules/a.h"' \
    'solver/util/w.cpp:#include "db/ok.cpp"' \
    'solver/rules/b.h:#include "solver/search/ok.cpp"' \
    'db/c.cpp:#include "solver/search/ok.cpp"' \
    'solver/search/d.cpp:#include "solver/tables/retrograde.h"' \
    'solver/search/f.cpp:#include "solver/tables/retrograde_phases.h"' \
    'db/table_set.cpp:#include "solver/tables/retrograde.h"' \
    'db/table_verify.cpp:#include "solver/tables/retrograde_phases.h"' \
    'solver/rules/e.cpp:#include "solver/rules/missing.h"' \
    'tools/service/g.cpp:#include "tools/command_line/c.h"' \
    'tools/service/i.cpp:#include "tools/cli/k.h"' \
    'tools/command_line/j.cpp:#include "tools/http/h.h"' \
    'tools/cli/l.cpp:#include "tools/http/h.h"' \
    'tools/http/m.cpp:#include "tools/engine/e.h"' \
    'tools/engine/n.cpp:#include "tools/cli/k.h"' \
    'tools/python/o.cpp:#include "tools/command_line/c.h"' \
    'db/q.cpp:#include "tools/service/s.h"' \
    'tools/match/u.cpp:#include "tools/command_line/c.h"' \
    'tools/service/v.cpp:#include "tools/match/r.h"' \
    'tools/http/w.cpp:#include "tools/match/r.h"' \
    'tools/api/z.cpp:#include "db/ok.cpp"' \
    'tools/wasm/z.cpp:#include "db/ok.cpp"' \
    'tools/wasm/z2.cpp:#include "tools/command_line/c.h"' \
    'tools/wasm/z3.cpp:#include "solver/tables/retrograde.h"' \
    'solver/search/x.cpp:#include "tools/match/r.h"' \
    'db/y.cpp:const int threads = all_cores();' \
    'solver/tables/z.cpp:#pragma omp parallel num_threads(threads_or_all_cores(n))' \
    'tools/service/t.cpp:int cores = omp_get_num_procs();'; do
    echo "${bad#*:}" >"$scratch/${bad%%:*}"
    if check_tree "$scratch" >/dev/null; then
      echo "self-test: ${bad%%:*} (${bad#*:}) was not caught"
      exit 1
    fi
    rm "$scratch/${bad%%:*}"
  done
  echo "self-test OK: every planted violation was caught"
  exit 0
fi

check_tree "${1:-$(cd "$(dirname "$0")/.." && pwd)}"
