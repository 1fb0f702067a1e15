#!/usr/bin/env bash
# Whole-game solver benchmark: Kalah(6,4) solved from the start with both capture rules, without
# endgame tables and over the 0..TABLE_SEEDS-seed tables (default 20; plain copies, which the
# solver reads in place), with one thread and with two, RUNS times each (default 3), the runs of
# all settings interleaved so that a busy spell of the machine does not land on one setting only.
# Prints per setting the value, the nodes, and the median seconds to the value with the fastest
# and slowest run; then, for each setting on more than one thread, its seconds and nodes against
# one thread's (the median of the ratios of the runs made side by side: the issue's target is two
# threads at 0.55 of one thread's time). Only a machine with a core free for each thread gives
# wall times worth comparing: docs/solving.md ("Several threads") measures CPU time instead.
#
# The tables come from DB (default $MANCALA_DB or ~/.local/share/mancala/db); layers that are
# missing are built there first, and plain copies made (`mancala db unpack`).
#
# Peers, only when PEERS names a directory that holds them already built (the script never
# fetches anything), solving the same games, interleaved with ours, one thread each:
#   PEERS/kalah/kalah-s   Geoffrey Irving's solver (empty-capture rule; `make serial`), a 2^24-entry
#                         transposition table (192 MiB), without tables and over its own 0..TABLE_SEEDS
#                         tables (built once by PEERS/kalah/generator into DB/peers/girving.dat);
#   PEERS/CMancala/build/Mancala   CMancala (standard rule; CMake), cache 2^24 (its "--api" mode),
#                         without tables and over its own tables (built once into DB/peers/cmancala).
# Their seconds are their own "thinking time" (girving) or the wall time of the whole program
# (CMancala, whose API mode prints no timing; loading its tables is included).
#
# FROM_NOTHING=1 measures instead what a user without tables waits for (docs/solving.md, "Solving
# from nothing"): from an empty database directory to the printed value, as CPU seconds (user and
# system) of the whole processes, one thread: ours is `mancala solve` alone (it builds in memory the
# layers that pay, then solves); each peer's best route from nothing is the smaller of its plain
# solve and its table build (0..TABLE_SEEDS, into an empty directory) plus its solve over them. The
# runs are interleaved, RUNS times; the ratios of the medians are printed.
#
# GAMES="kalah:4:4 oware:2 ..." also solves other games once each (THREADS' last count), one row
# each, as in the table of whole-game solves of docs/solving.md.
#
# Usage: scripts/bench-solve.sh [DB]
#   RUNS=5 THREADS="1 2" TABLE_SEEDS=20 HASH=256 LIMIT=900 PEERS=/path/to/peers scripts/bench-solve.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
db="${1:-${MANCALA_DB:-$HOME/.local/share/mancala/db}}"
runs="${RUNS:-3}"
threads="${THREADS:-1 2}"
table_seeds="${TABLE_SEEDS:-20}"
hash_mb="${HASH:-256}"
limit="${LIMIT:-900}"
peers="${PEERS:-}"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" "$root/build" -DMANCALA_TESTS=OFF
mancala="$root/build/tools/mancala"
python=/usr/bin/python3
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
results="$work/results.txt"
: >"$results"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(lscpu | sed -n 's/Model name: *//p')"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
# Our solver asks for transparent huge pages for its transposition table; the peers do not, so in
# "madvise" mode they get none and their times suffer. For like-for-like ratios run this with the
# mode at "always" (as root: echo always > /sys/kernel/mm/transparent_hugepage/enabled).
thp=/sys/kernel/mm/transparent_hugepage/enabled
[ -r "$thp" ] && echo "transparent huge pages: $(sed 's/.*\[\(.*\)\].*/\1/' "$thp")"

# (Solving from nothing builds no tables beforehand.)
[ -n "${FROM_NOTHING:-}" ] ||
  for game in kalah kalah:6:4:empty-capture; do
    "$mancala" db build "$game" --max-seeds "$table_seeds" --out "$db" --quiet >/dev/null
    "$mancala" db unpack "$game" --max-seeds "$table_seeds" --db "$db" --quiet >/dev/null
  done
# One solve of ours: LABEL GAME THREADS TABLES(yes|no). Appends "label<TAB>value nodes seconds".
ours() {
  local tables=(--no-tables)
  [ "$4" = yes ] && tables=(--db "$db")
  if json=$("$mancala" solve "$2" "${tables[@]}" --threads "$3" --hash "$hash_mb" \
    --max-seconds "$limit" --json --quiet 2>"$work/stderr"); then
    echo "$json" | $python -c '
import json, sys
d = json.load(sys.stdin)
print("%s\t%+d %d %.3f" % (sys.argv[1], d["value"], d["nodes"], d["value_seconds"]))' "$1" >>"$results"
  else
    echo "$1: $(tail -1 "$work/stderr")" >&2
  fi
}

girving_tables() {
  [ -f "$db/peers/girving-$table_seeds.dat" ] && return
  mkdir -p "$db/peers"
  printf '4\nc %s\nq\n' "$table_seeds" |
    "$peers/kalah/generator" "$db/peers/girving-$table_seeds.dat" >/dev/null
}
girving() {  # LABEL TABLE_SEEDS (0: none)
  local out
  out=$(cd "$work" && "$peers/kalah/kalah-s" -t 24 -e "$2" -E "$db/peers/girving-$table_seeds.dat" s 4 2>&1)
  echo "$out" | $python -c '
import re, sys
text = sys.stdin.read()
value = re.search(r"Move: s \d+, m \d+, r (-?\d+)", text)
nodes = re.search(r"Nodes searched: *(\d+)", text)
# Under a minute "12.345678"; from a minute on whole seconds as "M:SS" or "H:MM:SS".
seconds = re.search(r"Thinking time: *([0-9:.]+)", text)
if value and nodes and seconds:
    total = 0.0
    for part in seconds.group(1).split(":"):
        total = total * 60 + float(part)
    print("%s\t%+d %s %.3f" % (sys.argv[1], int(value.group(1)), nodes.group(1), total))' \
    "$1" >>"$results"
}

cmancala_tables() {
  [ -d "$db/peers/cmancala/EGDB" ] && return
  mkdir -p "$db/peers/cmancala"
  (cd "$db/peers/cmancala" && "$peers/CMancala/build/Mancala" --api --egdb "$table_seeds" </dev/null >/dev/null)
}
cmancala() {  # LABEL TABLE_SEEDS (0: none)
  local code start end answer egdb=()
  [ "$2" -gt 0 ] && egdb=(--egdb "$2")
  code=$(echo "ROOT 4" | "$peers/CMancala/build/Mancala" --api | sed -n 's/^OK CODE //p')
  start=$EPOCHREALTIME
  answer=$(cd "$db/peers/cmancala" 2>/dev/null || cd "$work"
    printf 'SOLVE %s\nQUIT\n' "$code" | "$peers/CMancala/build/Mancala" --api --cache 24 "${egdb[@]}")
  end=$EPOCHREALTIME
  echo "$answer" | $python -c '
import re, sys
m = re.search(r"OK EVAL (-?\d+)", sys.stdin.read())
if m:
    print("%s\t%+d - %.3f" % (sys.argv[1], int(m.group(1)), float(sys.argv[3]) - float(sys.argv[2])))' \
    "$1" "$start" "$end" >>"$results"
}

have_girving=no
have_cmancala=no
if [ -n "$peers" ] && [ -x "$peers/kalah/kalah-s" ] && [ -x "$peers/kalah/generator" ]; then
  have_girving=yes
  [ -n "${FROM_NOTHING:-}" ] || girving_tables
fi
if [ -n "$peers" ] && [ -x "$peers/CMancala/build/Mancala" ]; then
  have_cmancala=yes
  [ -n "${FROM_NOTHING:-}" ] || cmancala_tables
fi

# CPU seconds (user + system) of a command and all it starts, and its wall seconds: "cpu wall".
cpu_seconds() {
  $python - "$@" <<'PY'
import resource, subprocess, sys, time
start = time.monotonic()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
wall = time.monotonic() - start
used = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.3f %.3f" % (used.ru_utime + used.ru_stime, wall))
PY
}
# One route from nothing: LABEL COMMAND... ; the command runs in an empty directory ($work/empty,
# made anew), which is also the database directory it is given. Appends "label<TAB>cpu wall".
from_nothing() {
  local label="$1"
  shift
  rm -rf "$work/empty" && mkdir -p "$work/empty"
  printf '%s\t%s\n' "$label" "$(cd "$work/empty" && cpu_seconds "$@")" >>"$results"
}
if [ -n "${FROM_NOTHING:-}" ]; then
  echo "transposition tables: ours --hash $hash_mb MB; CMancala 2^24 entries; girving 2^24 entries"
  for run in $(seq "$runs"); do
    echo "run $run of $runs (load $(cut -d' ' -f1 /proc/loadavg))"
    for game in kalah kalah:6:4:empty-capture; do
      from_nothing "ours $game" "$mancala" solve "$game" --db "$work/empty" --threads 1 \
        --hash "$hash_mb" --json --quiet
    done
    if [ $have_cmancala = yes ]; then
      code=$(echo "ROOT 4" | "$peers/CMancala/build/Mancala" --api | sed -n 's/^OK CODE //p')
      from_nothing "CMancala kalah plain" bash -c \
        "printf 'SOLVE %s\nQUIT\n' $code | '$peers/CMancala/build/Mancala' --api --cache 24"
      from_nothing "CMancala kalah tables" bash -c \
        "'$peers/CMancala/build/Mancala' --api --egdb $table_seeds </dev/null &&
         printf 'SOLVE %s\nQUIT\n' $code |
           '$peers/CMancala/build/Mancala' --api --cache 24 --egdb $table_seeds"
    fi
    if [ $have_girving = yes ]; then
      # Its solver opens a database even with none used: a 1-seed one costs nothing.
      from_nothing "girving kalah:6:4:empty-capture plain" bash -c \
        "printf '4\nc 1\nq\n' | '$peers/kalah/generator' g.dat >/dev/null &&
         '$peers/kalah/kalah-s' -t 24 -e 0 -E g.dat s 4"
      from_nothing "girving kalah:6:4:empty-capture tables" bash -c \
        "printf '4\nc %s\nq\n' $table_seeds | '$peers/kalah/generator' g.dat >/dev/null &&
         '$peers/kalah/kalah-s' -t 24 -e $table_seeds -E g.dat s 4"
    fi
  done
  echo "== from nothing: CPU seconds of the whole processes, one thread, $runs runs (median)"
  $python - "$results" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    label, values = line.rstrip("\n").split("\t")
    cpu, wall = map(float, values.split())
    rows.setdefault(label, []).append((cpu, wall))
med = {label: statistics.median(c for c, _ in r) for label, r in rows.items()}
for label, r in rows.items():
    print("%-48s cpu %8.2f s (%s)  wall %8.2f s" % (label, med[label],
          " ".join("%.1f" % c for c, _ in r), statistics.median(w for _, w in r)))
def best(peer, game):
    routes = [med[k] for k in med if k.startswith(peer + " " + game + " ")]
    return min(routes) if routes else None
for ours, peer, game in (("ours kalah", "CMancala", "kalah"),
                         ("ours kalah:6:4:empty-capture", "girving", "kalah:6:4:empty-capture")):
    b = best(peer, game)
    if b and ours in med:
        print("%s from nothing / %s's best route: %.2f" % (game, peer, med[ours] / b))
EOF
  echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
  exit 0
fi

for run in $(seq "$runs"); do
  echo "run $run of $runs (load $(cut -d' ' -f1 /proc/loadavg))"
  for tables in no yes; do
    for t in $threads; do
      what="no tables"
      [ $tables = yes ] && what="over 0..$table_seeds-seed tables"
      ours "this project, Kalah(6,4) standard, $what, $t thread(s)" kalah "$t" $tables
      ours "this project, Kalah(6,4) empty-capture, $what, $t thread(s)" \
        kalah:6:4:empty-capture "$t" $tables
    done
    seeds=0
    [ $tables = yes ] && seeds=$table_seeds
    [ $have_cmancala = yes ] && cmancala "CMancala, Kalah(6,4) standard, $what, 1 thread" "$seeds"
    [ $have_girving = yes ] && girving "girving, Kalah(6,4) empty-capture, $what, 1 thread" "$seeds"
  done
done

echo "== Kalah(6,4) from the start, $runs runs each (median, fastest-slowest)"
$python - "$results" <<'EOF'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    label, values = line.rstrip("\n").split("\t")
    value, nodes, seconds = values.split()
    rows.setdefault(label, []).append((value, nodes, float(seconds)))
print("%-72s %6s %12s %9s %17s" % ("solver", "value", "nodes", "seconds", "(fastest-slowest)"))
for label, r in sorted(rows.items(), key=lambda kv: (" standard" not in kv[0], "tables," in kv[0], kv[0])):
    s = [x[2] for x in r]
    nodes = r[len(r) // 2][1]
    print("%-72s %6s %12s %9.2f %17s" % (label, r[0][0], nodes, statistics.median(s),
          "(%.2f-%.2f)" % (min(s), max(s))))
# Each thread count against one thread, setting by setting: the runs were interleaved, so run i
# of one count is paired with run i of one thread; the median of the pairs' ratios is printed,
# for the seconds to the value and for the nodes.
pairs = []
for label, r in rows.items():
    if not label.startswith("this project") or label.endswith(", 1 thread(s)"):
        continue
    base = re.sub(r", \d+ thread\(s\)$", ", 1 thread(s)", label)
    if base not in rows:
        continue
    b = rows[base]
    n = min(len(r), len(b))
    time_ratio = statistics.median(r[i][2] / b[i][2] for i in range(n))
    node_ratio = statistics.median(int(r[i][1]) / int(b[i][1]) for i in range(n))
    pairs.append((label, time_ratio, node_ratio, n))
if pairs:
    print("%-72s %9s %9s" % ("against one thread (median of paired runs)", "seconds", "nodes"))
    for label, time_ratio, node_ratio, n in sorted(pairs):
        print("%-72s %9.3f %9.3f" % (label.replace("this project, ", ""), time_ratio, node_ratio))
EOF
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

if [ -n "${GAMES:-}" ]; then
  last_threads="${threads##* }"
  printf '%-26s %7s %-8s %14s %9s %9s\n' game value best nodes value_s seconds
  for game in $GAMES; do
    if json=$("$mancala" solve "$game" --db "$db" --max-seconds "$limit" --threads "$last_threads" \
      --json --quiet 2>"$work/stderr"); then
      echo "$json" | $python -c '
import json, sys
d = json.load(sys.stdin)
print("%-26s %+7d %-8s %14d %9.2f %9.2f" % (sys.argv[1], d["value"], " ".join(d["best"]),
      d["nodes"], d["value_seconds"], d["seconds"]))' "$game"
    else
      printf '%-26s %s\n' "$game" "$(tail -1 "$work/stderr" | sed 's/^mancala: error: //')"
    fi
  done
fi
