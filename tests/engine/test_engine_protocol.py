"""`mancala engine` driven through pipes, as the Aualé board drives it: go movetime is honoured,
stop ends an infinite search at once, uci is answered at once, and a whole game is played through
the protocol (every move checked with `mancala apply`)."""
import json
import os
import queue
import subprocess
import threading
import time

import pytest

BINARY = os.environ.get("MANCALA_BINARY")


class Engine:
    """A running `mancala engine` with a reader thread, so the test never blocks on its output."""

    def __init__(self, *args):
        assert BINARY, "MANCALA_BINARY must name the built mancala command"
        self.process = subprocess.Popen([BINARY, "engine", *args], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, command):
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def until(self, prefix, timeout=60):
        """The lines up to and including the first that starts with `prefix`."""
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(deadline - time.monotonic(), 0.001))
            assert line is not None, f"the engine ended before '{prefix}': {seen}"
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def close(self):
        if self.process.poll() is None:
            self.send("quit")
            self.process.wait(timeout=30)
        return self.process.returncode


@pytest.fixture
def engine(tmp_path):
    e = Engine("--db", str(tmp_path))  # an empty database: no tables
    yield e
    if e.process.poll() is None:
        e.process.kill()
        e.process.wait()


def test_uci_is_answered_at_once(engine):
    started = time.monotonic()
    engine.send("uci")
    lines = engine.until("uciok", timeout=8)
    assert time.monotonic() - started < 2
    assert lines[0] == "id name mancala"
    for option in ("Hash", "Game", "Level", "UseTables", "TablesPath"):
        assert any(line.startswith(f"option name {option} type ") for line in lines)
    assert engine.close() == 0


def test_go_movetime_is_honoured(engine):
    engine.send("position startpos")
    engine.send("isready")
    engine.until("readyok")
    started = time.monotonic()
    engine.send("go movetime 300")
    lines = engine.until("bestmove")
    elapsed = time.monotonic() - started
    # Loose bounds: the search uses its time, and answers well before a GUI would give up.
    assert 0.25 < elapsed < 3, elapsed
    infos = [line for line in lines if line.startswith("info depth")]
    assert infos, lines
    reported_ms = int(infos[-1].split(" time ")[1].split()[0])
    assert reported_ms <= 400
    assert lines[-1] in {f"bestmove {m}" for m in "ABCDEF"}


def test_stop_ends_an_infinite_search_at_once(engine):
    engine.send("position startpos moves FaEb")
    engine.send("go infinite")
    engine.until("info depth 3")  # it is searching
    time.sleep(0.5)
    assert engine.lines.empty() or not any(
        (line or "").startswith("bestmove") for line in list(engine.lines.queue))
    started = time.monotonic()
    engine.send("stop")
    lines = engine.until("bestmove", timeout=8)
    assert time.monotonic() - started < 1, "stop took too long"
    assert lines[-1] in {f"bestmove {m}" for m in "ABCDEF"}
    engine.send("isready")
    assert engine.until("readyok") == ["readyok"]


def test_an_infinite_search_answers_isready_while_it_searches(engine):
    engine.send("go infinite")
    engine.until("info depth 2")
    engine.send("isready")
    lines = engine.until("readyok", timeout=8)
    assert not any(line.startswith("bestmove") for line in lines)
    engine.send("stop")
    engine.until("bestmove", timeout=8)


def test_quit_stops_a_search_and_exits(engine):
    engine.send("go infinite")
    engine.until("info depth 2")
    started = time.monotonic()
    engine.send("quit")
    assert engine.process.wait(timeout=8) == 0
    assert time.monotonic() - started < 2


def apply_json(moves, game="oware"):
    result = subprocess.run([BINARY, "apply", game, "--json", *moves], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("game, setup", [
    ("oware", []),
    ("kalah:4:3", ["setoption name Game value kalah:4:3"]),
])
def test_a_whole_game_through_the_protocol(engine, game, setup):
    """Two levels of the engine play each other as a GUI would drive them: the position from the
    start with every move so far, then go; each bestmove must be legal (mancala apply accepts it)
    and 0000 must come exactly when the game is over."""
    engine.send("uci")
    engine.until("uciok")
    engine.send("setoption name Hash value 1")
    for command in setup:
        engine.send(command)
    engine.send("ucinewgame")
    engine.send("isready")
    engine.until("readyok")
    moves = []
    state = apply_json(moves, game)
    for ply in range(400):
        level = 3 if ply % 2 == 0 else 5
        engine.send(f"setoption name Level value {level}")
        engine.send("position startpos" + (" moves " + "".join(moves) if moves else ""))
        engine.send("go depth 4")
        move = engine.until("bestmove")[-1].split()[1]
        if move == "0000":
            assert state["game_over"], f"0000 before the end: {state}"
            break
        assert not state["game_over"], f"{move} after the end: {state}"
        moves.append(move)
        state = apply_json(moves, game)  # fails on an illegal move
    else:
        pytest.fail("the game did not end in 400 plies")
    assert len(moves) > 10
    assert engine.close() == 0


def test_a_clock_gives_the_move_a_share_of_it(engine):
    engine.send("position startpos")
    engine.send("isready")  # the engine makes its tables of positions here, not in the go
    engine.until("readyok")
    started = time.monotonic()
    engine.send("go wtime 2000 btime 2000 winc 0 binc 0")
    engine.until("bestmove", timeout=8)
    # South's share: 2 s / 25 moves = 80 ms (at most half the clock), so well under a second.
    assert time.monotonic() - started < 1.5


def test_ponderhit_ends_a_ponder_search(engine):
    engine.send("position startpos moves F")
    engine.send("go ponder")
    engine.until("info depth 2")
    engine.send("ponderhit")
    lines = engine.until("bestmove", timeout=8)
    assert lines[-1] in {f"bestmove {m}" for m in "abcdef"}


def peak_memory_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise AssertionError("no VmHWM")


def test_a_line_beyond_the_cap_is_ignored_in_bounded_memory_and_said_once(tmp_path):
    # 64 MiB of NUL bytes without a newline (what `mancala engine < /dev/zero` reads), then a
    # command: the long line is dropped, said once, and the engine goes on.
    process = subprocess.Popen([BINARY, "engine", "--db", str(tmp_path)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE)
    try:
        process.stdin.write(b"setoption name Hash value 1\n")
        block = b"\0" * (1 << 20)
        for _ in range(64):
            process.stdin.write(block)
        process.stdin.write(b"\nisready\n")
        process.stdin.flush()
        lines = []
        while not lines or lines[-1] != b"readyok":
            line = process.stdout.readline()
            assert line, f"the engine ended: {lines}"
            lines.append(line.rstrip(b"\n"))
        # Said once, in turn (then isready opens the tables, and says there are none).
        assert lines[0] == b"info string a line longer than 4096 bytes (ignored)"
        assert sum(b"longer than" in line for line in lines) == 1
        assert lines[-1] == b"readyok"
        assert peak_memory_kb(process.pid) < 48 * 1024
        process.stdin.write(b"quit\n")
        process.stdin.flush()
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_control_bytes_read_are_echoed_escaped(engine):
    engine.send("foo\x1b[2J\x07\x00\tbar\r")
    assert engine.until("info string") == [
        "info string unknown command 'foo\\x1b[2J\\x07\\x00\\x09bar\\x0d' (ignored)"]
    engine.send("position fen \x1b]0;x\x07")
    line = engine.until("info string")[0]
    assert "\x1b" not in line and "\x07" not in line and "\\x1b]0;x\\x07" in line, line


def test_a_tables_path_with_a_nul_byte_is_refused_and_no_tables_are_used(tmp_path):
    # As --db refuses it: the file system would read the path cut at the NUL, as another. And the
    # tables of --db, there, are not used instead of those named (issue 40).
    db = tmp_path / "db"
    subprocess.run([BINARY, "db", "build", "oware", "--max-seeds", "3", "--out", str(db)],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    engine = Engine("--db", str(db))
    try:
        engine.send("isready")
        assert any(line.startswith("info string endgame tables: oware") and str(db) in line
                   for line in engine.until("readyok"))
        engine.send(f"setoption name TablesPath value {db}\x00/x")
        assert engine.until("info string") == [
            "info string setoption TablesPath: a path with a NUL byte "
            "(no endgame tables until a usable TablesPath)"]
        engine.send("isready")
        lines = engine.until("readyok")
        assert "info string no endgame tables: the TablesPath set is a path with a NUL byte" \
            in lines, lines
        assert not any(line.startswith("info string endgame tables") for line in lines), lines
        # A path without tables: none either, said.
        engine.send(f"setoption name TablesPath value {tmp_path / 'nothing here'}")
        engine.send("isready")
        lines = engine.until("readyok")
        assert any(line.startswith("info string no endgame tables") for line in lines), lines
        assert not any(line.startswith("info string endgame tables") for line in lines), lines
        # A usable path again: its tables.
        engine.send(f"setoption name TablesPath value {db}")
        engine.send("isready")
        assert any(line.startswith("info string endgame tables: oware")
                   for line in engine.until("readyok"))
    finally:
        engine.close()


def test_commands_read_during_a_search_wait_in_a_bounded_queue(tmp_path):
    # Issue 40: a flood of commands while an infinite search runs is dropped beyond 1024 waiting
    # (said once), not queued without bound: 400 000 lines of 120 bytes (48 MB) leave the engine
    # small, and the 1024 that waited are answered after stop.
    engine = Engine("--db", str(tmp_path), "--level", "3")
    try:
        engine.send("setoption name Hash value 1")
        engine.send("isready")
        engine.until("readyok")
        engine.send("go infinite")
        engine.until("info depth")
        block = ("nonsense " + "x" * 110 + "\n") * 1000
        for _ in range(400):
            engine.process.stdin.write(block)
        engine.process.stdin.flush()
        engine.send("stop")
        lines = engine.until("bestmove")
        unknown = "info string unknown command 'nonsense"
        while sum(line.startswith(unknown) for line in lines) < 1024:
            lines += engine.until(unknown)
        engine.send("isready")
        lines += engine.until("readyok")
        dropped = [line for line in lines if line.startswith("info string more than 1024")]
        assert len(dropped) == 1, dropped
        assert sum(line.startswith(unknown) for line in lines) == 1024
        assert peak_memory_kb(engine.process.pid) < 48 * 1024
        assert engine.close() == 0
    finally:
        if engine.process.poll() is None:
            engine.process.kill()
            engine.process.wait()
