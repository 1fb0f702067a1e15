"""mancala.Search, solve and Player: results, limits, errors, and the GIL released while they
think."""
import threading
import time

import pytest

import mancala


def test_solve_kalah_4_3():
    r = mancala.solve("kalah:4:3")
    assert (r.solved, r.value, r.lower, r.upper, r.best) == (True, 6, 6, 6, ["B"])
    assert r.pv[0] == "B" and r.nodes > 0


def test_solve_a_position_with_tables_matches_the_tables(tmp_path):
    mancala.build_tables("kalah", str(tmp_path / "small"), 4)
    mancala.build_tables("kalah", str(tmp_path / "large"), 6)
    small = mancala.Tables("kalah", str(tmp_path / "small"))
    large = mancala.Tables("kalah", str(tmp_path / "large"))
    p = "0-0-0-1-1-2-0-1-0-0-1-0-20-22-N"  # 6 seeds: the solve goes down into the small tables
    r = mancala.solve("kalah", p, tables=small)
    assert r.value == large.probe(p).score
    assert sorted(r.best) == sorted(large.probe(p).best)


def test_solve_stops_at_its_limit_with_proven_bounds():
    r = mancala.solve("kalah:6:4", nodes=1000, build_tables=-1)
    assert not r.solved and r.lower <= r.upper
    assert r.tables_built is None


def test_solve_builds_the_tables_asked_for_in_memory_first():
    built = mancala.solve("kalah:6:3", build_tables=8)
    assert built.tables_built.max_seeds == 8
    # One byte a position: layers 0..8 of twelve houses hold C(8 + 12, 12) positions.
    assert built.tables_built.bytes == 125970 and built.tables_built.seconds >= 0
    plain = mancala.solve("kalah:6:3", build_tables=-1)
    assert plain.tables_built is None
    assert (built.value, built.best) == (plain.value, plain.best)
    assert built.nodes < plain.nodes  # the tables end lines the plain search follows


def test_solve_builds_nothing_for_a_small_game_or_below_the_tables_given(tmp_path):
    # Kalah(4,3): 24 seeds, solved faster than any build (as `mancala solve` decides).
    assert mancala.solve("kalah:4:3").tables_built is None
    mancala.build_tables("kalah", str(tmp_path), 8)
    tables = mancala.Tables("kalah", str(tmp_path))
    r = mancala.solve("kalah:6:3", tables=tables, build_tables=8)
    assert r.tables_built is None
    assert r.value == mancala.solve("kalah:6:3", build_tables=-1).value


def test_solve_each_move_proves_every_move_and_agrees_with_solve():
    whole = mancala.solve("kalah:4:3")
    r = mancala.solve_each_move("kalah:4:3")
    assert [m.move for m in r.moves] == mancala.Game("kalah:4:3").legal_moves(
        mancala.Game("kalah:4:3").start())
    assert all(m.solved and m.lower == m.upper for m in r.moves)
    assert r.solved and r.lower == r.upper == whole.value
    assert [m.move for m in r.moves if m.lower == whole.value] == whole.best
    assert r.nodes == sum(m.nodes for m in r.moves) and r.tables_built is None


def test_solve_each_move_within_a_limit_gives_bounds_that_hold_the_values():
    exact = {m.move: m.lower for m in mancala.solve_each_move("kalah:6:3", build_tables=-1).moves}
    r = mancala.solve_each_move("kalah:6:3", nodes=6000, build_tables=-1)
    assert len(r.moves) == 6 and not r.solved
    for m in r.moves:
        assert m.lower <= exact[m.move] <= m.upper
    assert r.lower <= max(exact.values()) <= r.upper


def test_solve_each_move_builds_the_tables_asked_for_first():
    r = mancala.solve_each_move("kalah:6:3", build_tables=8)
    assert r.tables_built.max_seeds == 8 and r.solved
    assert r.lower == mancala.solve("kalah:6:3", build_tables=-1).value
    with pytest.raises(ValueError, match="build_tables must be from -1 to 64, not -2"):
        mancala.solve_each_move("kalah:6:3", build_tables=-2)


def test_solve_refuses_a_build_depth_out_of_range():
    with pytest.raises(ValueError, match="build_tables must be from -1 to 64, not 65"):
        mancala.solve("kalah:6:3", build_tables=65)


def test_solve_rejects_an_ended_game():
    with pytest.raises(ValueError, match="game is over"):
        mancala.solve("kalah:1:1", "0-0-2-0-S")


def test_search_finds_the_solved_value_when_deep_enough():
    search = mancala.Search("kalah:3:3")
    r = search.run(mancala.Game("kalah:3:3").start(), depth=40)
    assert r.proven and r.score == mancala.solve("kalah:3:3").value
    assert r.pv[0] == r.best


def test_search_needs_a_limit():
    search = mancala.Search("kalah")
    with pytest.raises(ValueError, match="limit"):
        search.run(mancala.Game("kalah").start())
    with pytest.raises(ValueError, match="nodes must be at least 1"):
        search.run(mancala.Game("kalah").start(), nodes=0)


def test_search_with_tables_of_another_game_is_refused(tmp_path):
    mancala.build_tables("kalah", str(tmp_path), 2)
    with pytest.raises(ValueError, match="tables are kalah:6's"):
        mancala.Search("oware", tables=mancala.Tables("kalah", str(tmp_path)))


def test_players_play_legal_moves_at_every_level():
    match = mancala.Match("oware")
    for level in range(1, 7):
        player = mancala.Player("oware", level, seconds=0.02)
        move = player.choose(match)
        assert move in match.legal_moves()
        match.play(move)
    assert mancala.Player("kalah", 6).name == "level 6 (Pro)"
    with pytest.raises(ValueError, match="level must be from 1 to 6"):
        mancala.Player("kalah", 7)


def test_player_thinking_names_its_move():
    match = mancala.Match("kalah:3:2")
    thinking = mancala.Player("kalah:3:2", 4).think(match)
    assert thinking.move in match.legal_moves() and thinking.pv[0] == thinking.move


def counts_while(call):
    """How often this thread counted while `call` ran in another: with the GIL held by the call,
    it could not count at all."""
    done = threading.Event()
    started = threading.Event()

    def run():
        started.set()
        call()
        done.set()

    worker = threading.Thread(target=run)
    worker.start()
    started.wait()
    time.sleep(0.05)  # let the worker enter the call
    count = 0
    while not done.is_set():
        count += 1
        time.sleep(0.001)
    worker.join()
    return count


@pytest.mark.parametrize("name, call", [
    ("search", lambda: mancala.Search("oware").run(mancala.Game("oware").start(), seconds=0.6)),
    ("perft", lambda: mancala.Game("kalah").perft(mancala.Game("kalah").start(), 10)),
    ("solve", lambda: mancala.solve("kalah:4:4", hash_mb=16)),
    ("player", lambda: mancala.Player("oware", 5, seconds=0.6).choose(mancala.Match("oware"))),
])
def test_long_calls_release_the_gil(name, call):
    assert counts_while(call) >= 10, f"{name} held the GIL"


def test_two_threads_search_at_once_and_stop_ends_a_search():
    game = mancala.Game("oware")
    searches = [mancala.Search(game), mancala.Search(game)]
    results = [None, None]

    def run(i):
        results[i] = searches[i].run(game.start(), seconds=30)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    started = time.monotonic()
    for t in threads:
        t.start()
    time.sleep(0.3)
    for s in searches:
        s.stop()
    for t in threads:
        t.join()
    assert time.monotonic() - started < 10
    assert all(r is not None and r.best in game.legal_moves(game.start()) for r in results)


def test_one_search_refuses_a_second_thread_and_stop_ends_the_first():
    game = mancala.Game("oware")
    search = mancala.Search(game)
    results = []
    def think():
        while True:  # refused only while the probe below holds the search for its clear()
            try:
                results.append(search.run(game.start(), seconds=30))
                return
            except RuntimeError:
                pass

    worker = threading.Thread(target=think)
    worker.start()
    # Wait until the worker is inside run(): clear() is refused from then on (before, it empties
    # an idle table, which changes nothing here).
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            search.clear()
        except RuntimeError:
            break
        time.sleep(0.001)
    with pytest.raises(RuntimeError, match="already thinking"):
        search.run(game.start(), depth=2)
    # Stopped as soon as it is found thinking: before it has started its clock, a stop() must
    # not be forgotten (it was, on a loaded machine: the search ran its 30 seconds).
    search.stop()
    worker.join()
    assert results[0].seconds < 10


@pytest.mark.parametrize("call", [
    lambda: mancala.Search("kalah", 2 ** 43),
    lambda: mancala.Player("kalah", 5, hash_mb=2 ** 43),
    lambda: mancala.solve("kalah:3:2", hash_mb=2 ** 43),
], ids=["search", "player", "solve"])
def test_memory_beyond_the_machine_is_refused_not_overflowed(call):
    # 2**43 MB overflows 64 bits as bytes: refused at once as more than the machine has.
    with pytest.raises(ValueError, match="more than this machine's memory"):
        call()


@pytest.mark.parametrize("seconds", [float("nan"), float("inf"), 0.0, -1.0])
def test_a_time_limit_must_be_a_finite_positive_number(seconds):
    start = mancala.Game("kalah").start()
    for call in (lambda: mancala.Search("kalah").run(start, seconds=seconds),
                 lambda: mancala.Player("kalah", 5, seconds=seconds),
                 lambda: mancala.solve("kalah:3:2", seconds=seconds),
                 lambda: mancala.analyse("kalah", seconds=seconds)):
        with pytest.raises(ValueError, match="seconds must be more than 0"):
            call()
