"""One analysis behind every door: `mancala analyse --json`, the HTTP API's /api/v1/analyse and
mancala.analyse give the same moves, scores, provenances and lines for the same position, depth and
tables (the web board's hint is the HTTP answer's best move: tests/web/board.test.mjs); and the
engine protocol plays the move `mancala.Player` plays, at every level, for the same budget."""
import json
import re
import subprocess
import urllib.parse
import urllib.request

import pytest

import mancala

DEPTH = 8
KALAH_MAX_SEEDS = 8
# The Kalah start (searched: estimates and proofs), a Kalah position inside the tables with
# winning, drawing and losing moves, and one the tables do not hold but reach within the search.
POSITIONS = [
    ("kalah", None),
    ("kalah", "1-2-0-1-0-1-0-1-0-2-0-0-20-20-S"),
    ("kalah", "0-0-3-0-1-2-0-2-0-1-1-0-18-20-N"),
    # Oware inside the tables, where F reaches a majority (26-17, +9) that the tables, playing
    # on, count +14: every door gives the count, the real end and what the scores count alike.
    ("oware", "1-2-0-0-0-1-2-0-0-0-0-2-23-17-S"),
]


@pytest.fixture(scope="module")
def kalah_db(tmp_path_factory):
    directory = tmp_path_factory.mktemp("kalah_db")
    mancala.build_tables("kalah", str(directory), KALAH_MAX_SEEDS)
    mancala.build_tables("oware", str(directory), KALAH_MAX_SEEDS)
    return directory


@pytest.fixture(scope="module")
def server(binary, kalah_db):
    """A real `mancala serve` on a free loopback port, over the same tables."""
    process = subprocess.Popen(
        [binary, "serve", "--port", "0", "--db", str(kalah_db), "--threads", "1",
         "--analyse-seconds", "600"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        first = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", first)
        assert match, first
        yield f"http://127.0.0.1:{match.group(1)}"
    finally:
        process.terminate()
        process.wait(timeout=30)


def same_fields(moves):
    return [(m["move"], m["score"], m["provenance"], m["exact"], m["line"], m["ends_game"],
             m["final_score"]) for m in moves]


def from_cli(run_cli, db, game, position):
    args = ["analyse", game, position or str(mancala.Game(game).start()), "--depth", str(DEPTH),
            "--json", "--db", str(db)]
    return json.loads(run_cli(*args))


def from_http(url, game, position):
    query = {"game": game, "depth": DEPTH}
    if position:
        query["position"] = position
    with urllib.request.urlopen(f"{url}/api/v1/analyse?{urllib.parse.urlencode(query)}",
                                timeout=600) as reply:
        return json.load(reply)


def from_python(db, game, position):
    a = mancala.analyse(game, position, tables=mancala.Tables(game, str(db)), depth=DEPTH)
    return [{"move": m.move, "score": m.score, "provenance": m.provenance, "exact": m.exact,
             "line": m.line, "ends_game": m.ends_game, "final_score": m.final_score}
            for m in a.moves]


@pytest.mark.parametrize("game,position", POSITIONS,
                         ids=["start", "in_tables", "near_tables", "oware_majority"])
def test_every_door_gives_the_same_analysis(run_cli, server, kalah_db, game, position):
    cli = from_cli(run_cli, kalah_db, game, position)
    http = from_http(server, game, position)
    python = from_python(kalah_db, game, position)
    assert same_fields(cli["moves"]) == same_fields(http["moves"])
    assert same_fields(cli["moves"]) == same_fields(python)
    for field in ("score", "margin", "exact", "provenance", "best", "line", "source"):
        assert cli[field] == http[field], field
    # The answer's headline is its best move's: what the board's hint shows.
    assert cli["score"] == cli["moves"][0]["score"]
    assert cli["best"][0] == cli["moves"][0]["move"]


def test_an_oware_majority_is_ranked_by_the_tables_count_and_carries_its_real_end(kalah_db):
    a = mancala.analyse(*POSITIONS[3], tables=mancala.Tables("oware", str(kalah_db)), depth=DEPTH)
    assert a.margin == "tables"
    first = a.moves[0]
    assert (first.move, first.score, first.ends_game, first.final_score) == ("F", 14, True, 9)
    assert [m.final_score for m in a.moves[1:]] == [None, None]


def test_inside_the_tables_every_value_is_the_tables(run_cli, kalah_db):
    cli = from_cli(run_cli, kalah_db, *POSITIONS[1])
    assert cli["source"] == "tables"
    assert {m["provenance"] for m in cli["moves"]} == {"tables"}
    assert {m["category"] for m in cli["moves"]} == {"win", "draw", "loss"}


def test_at_the_start_values_say_where_they_come_from(run_cli, kalah_db):
    cli = from_cli(run_cli, kalah_db, *POSITIONS[0])
    assert cli["source"] == "search"
    for m in cli["moves"]:
        assert m["provenance"] in ("proven", "estimate")
        assert (m["provenance"] == "estimate") == (not m["exact"])
        if not m["exact"]:
            assert m["depth"] > 0


def engine_move(binary, db, game, level, position, nodes):
    """The engine protocol's bestmove for `position`, at `level`, within `nodes`."""
    script = "\n".join([
        "uci",
        f"setoption name Game value {game}",
        "setoption name Hash value 32",
        f"setoption name Level value {level}",
        f"setoption name TablesPath value {db}",
        f"position fen {position}",
        f"go nodes {nodes}",
    ]) + "\n"
    result = subprocess.run([binary, "engine"], input=script, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    moves = re.findall(r"^bestmove (\S+)$", result.stdout, re.M)
    assert len(moves) == 1, result.stdout
    return moves[0]


# The engine's `go nodes N` is the move's whole budget; a Player's `nodes` is level 5's, which Pro
# multiplies by six.
@pytest.mark.parametrize("level", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("game,position", POSITIONS,
                         ids=["start", "in_tables", "near_tables", "oware_majority"])
def test_the_engine_plays_the_players_move(binary, kalah_db, level, game, position):
    position = position or str(mancala.Game(game).start())
    nodes = 3000
    player = mancala.Player(game, level, nodes=nodes, hash_mb=32,
                            tables=mancala.Tables(game, str(kalah_db)))
    expected = player.choose(mancala.Match(game, position))
    budget = 6 * nodes if level == 6 else nodes
    assert engine_move(binary, kalah_db, game, level, position, budget) == expected
