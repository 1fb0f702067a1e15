#!/usr/bin/env python3
"""A scripted engine for the match runner's tests: `mancala engine` behind a proxy that
misbehaves on purpose at its Nth `go` (counted over the process's life).

Usage: fake_engine.py MANCALA_BINARY MODE N [PID_DIR]
  illegal  answers the opponent's house (the engine's move with its case swapped)
  crash    exits with status 3 instead of answering
  hang     never answers again, and ignores quit and SIGTERM (only SIGKILL ends it)
  late     answers the engine's move, but a second after the go's movetime
  zero     answers 0000 to a position given with moves (as Aalina does at its own repetition
           rule), and plays normally when given the position alone
  none     never misbehaves
Every process it starts writes its pid in PID_DIR, so that a test can check none is left.
"""
import os
import signal
import subprocess
import sys
import time

binary, mode, nth = sys.argv[1], sys.argv[2], int(sys.argv[3])
pid_dir = sys.argv[4] if len(sys.argv) > 4 else None

engine = subprocess.Popen([binary, "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True, bufsize=1)
if pid_dir:
    for pid in (os.getpid(), engine.pid):
        open(os.path.join(pid_dir, str(pid)), "w").close()


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def ask(line, until):
    """Sends a line to the engine and relays its answers up to the one starting with `until`;
    returns that line."""
    engine.stdin.write(line + "\n")
    engine.stdin.flush()
    while True:
        answer = engine.stdout.readline()
        if not answer:
            sys.exit(4)
        answer = answer.rstrip("\n")
        if answer.startswith(until):
            return answer
        say(answer)


gos = 0
position = "position startpos"
for line in sys.stdin:
    line = line.strip()
    words = line.split()
    if not words:
        continue
    if words[0] == "quit":
        if mode == "hang" and gos >= nth:
            continue
        break
    if words[0] == "uci":
        say("id name fake " + mode)
        ask("uci", "uciok")
        say("uciok")
    elif words[0] == "isready":
        say(ask("isready", "readyok"))
    elif words[0] == "position":
        position = line
        engine.stdin.write(line + "\n")
        engine.stdin.flush()
    elif words[0] == "go":
        gos += 1
        if gos >= nth and mode == "crash":
            sys.exit(3)
        if gos >= nth and mode == "hang":
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            continue
        if mode == "zero" and gos >= nth and " moves " in position:
            say("bestmove 0000")
            continue
        answer = ask(line, "bestmove")
        if gos >= nth and mode == "late":
            movetime = int(words[words.index("movetime") + 1]) if "movetime" in words else 0
            time.sleep(movetime / 1000 + 1)
        if gos >= nth and mode == "illegal":
            answer = "bestmove " + answer.split()[1].swapcase()
        say(answer)
    else:
        engine.stdin.write(line + "\n")
        engine.stdin.flush()
engine.stdin.close()
engine.wait()
