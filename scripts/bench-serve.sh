#!/usr/bin/env bash
# Load test of `mancala serve` on loopback, bounded in time: endgame-table queries (GET
# /api/v1/tables) over CONNECTIONS keep-alive connections (default 64) with wrk for SECONDS
# (default 10; wrk runs for a duration, and the number of requests it made is printed), alone,
# then again while computer moves are asked alongside (POST /api/v1/move, level 4, 4
# connections).
# Prints table queries per second, their p50/p99/max latency, computer moves per second under
# that load, errors of each (non-2xx answers and socket errors: 0 below the queue limit) and the
# server's peak memory. wrk shares the machine with the server.
#
# The tables are Kalah 6 houses and Oware abapa to 14 seeds (built if missing; scripts/run.sh builds
# deeper ones) in DB (default $MANCALA_DB or ~/.local/share/mancala/db); the queries are 2000
# random positions with 8 to 14 seeds on the board, half Kalah, half Oware.
# Usage: scripts/bench-serve.sh [SECONDS] [CONNECTIONS] [DB]
# MANCALA_BINARY=path: that `mancala` is measured, nothing is installed nor built (to compare two
# builds, each run alternately with the same tables).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-10}"
connections="${2:-64}"
db="${3:-${MANCALA_DB:-$HOME/.local/share/mancala/db}}"
if [ -n "${MANCALA_BINARY:-}" ]; then
  mancala="$MANCALA_BINARY"
else
  "$root/scripts/install-deps.sh"
  "$root/scripts/build.sh" "$root/build" -DMANCALA_TESTS=OFF
  mancala="$root/build/tools/mancala"
fi
for game in kalah oware; do
  "$mancala" db build "$game" --max-seeds 14 --out "$db" --quiet >/dev/null
done
work="$(mktemp -d)"
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# Random positions inside the tables: 8..14 seeds in the houses, the rest in the stores.
/usr/bin/python3 - "$work" <<'PY'
import json, random, sys, urllib.parse
work = sys.argv[1]
random.seed(12)
with open(f"{work}/paths.txt", "w") as paths:
    for i in range(2000):
        game = "kalah" if i % 2 else "oware"
        while True:
            houses = [0] * 12
            for _ in range(random.randint(8, 14)):
                houses[random.randrange(12)] += 1
            if any(houses[:6]) and any(houses[6:]):
                break
        rest = 48 - sum(houses)
        south = random.randint(0, rest)
        position = "-".join(map(str, houses + [south, rest - south])) + "-" + random.choice("SN")
        paths.write(f"/api/v1/tables?game={game}&position={position}\n")
PY
"$mancala" serve --port 0 --db "$db" --threads 2 >"$work/server.out" &
server=$!
for _ in $(seq 100); do
  grep -q 'board is at' "$work/server.out" 2>/dev/null && break
  sleep 0.1
done
url="$(sed -n 's/.*board is at \(http[^ ]*\)\/$/\1/p' "$work/server.out")"
# Computer moves from 200 openings of 2 to 8 random legal moves, asked of the server itself.
/usr/bin/python3 - "$work" "$url" <<'PY'
import json, random, sys, urllib.request
work, url = sys.argv[1], sys.argv[2]
random.seed(34)
with open(f"{work}/bodies.txt", "w") as bodies:
    for i in range(200):
        moves = ""
        for _ in range(random.randint(2, 8)):
            with urllib.request.urlopen(f"{url}/api/v1/position?game=kalah&moves={moves}") as r:
                legal = [m["move"] for m in json.load(r)["moves"]]
            if not legal:
                break
            moves += random.choice(legal)
        bodies.write(json.dumps({"game": "kalah", "moves": moves, "level": 4}) + "\n")
PY
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/Model name: *//p'); server $url, tables:"
sed -n 's/^endgame tables: /  /p' "$work/server.out"

# Warm up (tables mapped, caches filled); then the table queries alone, then again with
# computer moves asked alongside.
tables() {
  PATHS_FILE="$work/paths.txt" wrk -t2 -c"$connections" -d"$1" --latency \
    -s "$root/scripts/bench-serve/tables.lua" "$url"
}
tables 3s >/dev/null
tables "${seconds}s" >"$work/alone.txt"
BODIES_FILE="$work/bodies.txt" \
  wrk -t1 -c4 -d"$((seconds + 2))s" -s "$root/scripts/bench-serve/moves.lua" "$url" \
  >"$work/moves.txt" &
moves=$!
sleep 1
tables "${seconds}s" >"$work/tables.txt"
wait "$moves"
peak_kb="$(awk '/^VmHWM:/ {print $2}' "/proc/$server/status")"

/usr/bin/python3 - "$work" "$connections" "$peak_kb" <<'PY'
import re, sys
work, connections, peak_kb = sys.argv[1], sys.argv[2], int(sys.argv[3])
def parse(name):
    text = open(f"{work}/{name}.txt").read()
    def number(pattern, default=0.0):
        m = re.search(pattern, text)
        return float(m.group(1)) if m else default
    def ms(label):
        m = re.search(rf"^\s+{label}\s+([\d.]+)(us|ms|s)\b", text, re.M)
        if not m:
            return float("nan")
        return float(m.group(1)) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[m.group(2)]
    socket = sum(int(x) for x in re.findall(r"(?:connect|read|write|timeout) (\d+)",
                                             re.search(r"Socket errors:.*", text).group(0))) \
        if "Socket errors" in text else 0
    def seconds(m):
        return float(m.group(1)) * {"ms": 0.001, "s": 1, "m": 60, "h": 3600}[m.group(2)] if m else 0.0
    latency = re.search(r"Latency\s+\S+\s+\S+\s+([\d.]+)(us|ms|s)\b", text)
    return {"requests": int(number(r"(\d+) requests in")),
            "seconds": seconds(re.search(r"requests in ([\d.]+)(ms|s|m|h)\b", text)),
            "rate": number(r"Requests/sec:\s+([\d.]+)"),
            "p50": ms("50%"), "p99": ms("99%"),
            "max": float(latency.group(1)) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[latency.group(2)]
                   if latency else float("nan"),
            "non2xx": int(number(r"Non-2xx or 3xx responses: (\d+)")), "socket": socket}
def table_line(title, t):
    print(f"{title}: {t['requests']} at {connections} connections in {t['seconds']:.1f} s: "
          f"{t['rate']:.0f} per second, latency p50 {t['p50']:.2f} ms, p99 {t['p99']:.2f} ms, "
          f"max {t['max']:.1f} ms; errors: {t['non2xx']} non-2xx, {t['socket']} socket")
a, t, m = parse("alone"), parse("tables"), parse("moves")
table_line("table queries alone", a)
table_line("table queries with moves alongside", t)
print(f"computer moves (level 4, 4 connections) alongside: {m['requests']} in "
      f"{m['seconds']:.1f} s: {m['rate']:.1f} per second; errors: {m['non2xx']} non-2xx, "
      f"{m['socket']} socket")
print(f"server peak memory (VmHWM): {peak_kb / 1024:.0f} MiB")
PY
