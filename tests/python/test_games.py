"""mancala.Game, Position, Match, records and perft, against the command line where it has the
same answer."""
import json
import random
import re

import numpy
import pytest

import mancala
from conftest import REPO


@pytest.mark.parametrize("game, counts", [
    ("kalah:6:4", [6, 35, 185, 942, 4690, 23233, 114430]),
    ("oware", [6, 36, 190, 1014, 5219, 27332]),
    ("kalah:4:3", [4, 15, 50, 158, 488, 1510, 4637]),
    ("oware:2:awari", [6, 33, 155, 672, 2792, 11349, 46178]),
])
def test_perft_counts_match_the_published_ones(game, counts):
    g = mancala.Game(game)
    assert [g.perft(g.start(), depth) for depth in range(1, len(counts) + 1)] == counts


def test_perft_of_a_position_matches_the_command_line(run_cli):
    g = mancala.Game("congkak:3:2")
    p = g.position("2-2-2-2-2-2-0-0-N")
    cli = json.loads(run_cli("perft", "congkak:3:2", "4", "--position", str(p), "--json"))
    assert [g.perft(p, d) for d in range(1, 5)] == [row["leaves"] for row in cli["perft"]]


def test_position_strings_round_trip():
    g = mancala.Game("oware")
    text = "0-0-0-0-2-1-1-0-1-0-0-0-20-23-N"
    p = g.position(text)
    assert str(p) == text
    assert repr(p) == f"Position('{text}')"
    assert p.side_to_move == "North"
    assert p.stores == (20, 23)
    assert p.seeds_on_board == 5
    assert p.mover_lead == 3
    assert p == g.position(text) and hash(p) == hash(g.position(text))


def test_a_position_is_a_numpy_array_of_house_counts():
    g = mancala.Game("kalah:6:4")
    q = g.apply(g.start(), "C")
    a = numpy.asarray(q)
    assert a.dtype == numpy.int32 and a.shape == (12,)
    assert a.tolist() == [4, 4, 0, 5, 5, 5, 4, 4, 4, 4, 4, 4] == q.houses
    assert memoryview(q).readonly


def test_make_position_builds_from_counts():
    g = mancala.Game("kalah:3:2")
    p = g.make_position([1, 0, 2, 0, 3, 0], (4, 2), "N")
    assert str(p) == "1-0-2-0-3-0-4-2-N"


def test_game_names_and_sizes():
    g = mancala.Game("oware:3:awari")
    assert (g.name, g.kind, g.houses, g.seeds, g.total_seeds) == ("oware:3:awari", "oware", 6, 3, 36)
    assert g.table_name == "oware:awari"
    assert mancala.Game("kalah") == mancala.Game("kalah:6:4")


def test_play_reports_captures_and_extra_turns():
    g = mancala.Game("kalah:6:4")
    extra = g.play(g.start(), "C")
    assert extra.extra_turn and extra.captured == 0 and not extra.game_over
    # South's A holds 1 seed, B is empty, North's e (opposite B) holds 7: A's seed lands in B.
    p = g.position("1-0-0-0-0-2-4-4-4-4-7-0-8-14-S")
    capture = g.play(p, "A")
    assert capture.captured == 8 and not capture.extra_turn and not capture.game_over
    assert str(capture.position) == "0-0-0-0-0-2-4-4-4-4-0-0-16-14-N"


def test_game_over_and_result():
    g = mancala.Game("kalah:1:1")
    end = g.apply(g.start(), "A")
    assert g.is_over(end) and g.legal_moves(end) == []
    result = g.result(end)
    # A's seed goes into South's store; South's row is empty, so North keeps its seed.
    assert (result.south, result.north, result.winner, result.difference) == (1, 1, "draw", 0)
    with pytest.raises(ValueError, match="not over"):
        g.result(g.start())


def test_moves_may_be_house_indexes():
    g = mancala.Game("kalah:6:4")
    assert g.apply(g.start(), 2) == g.apply(g.start(), "C")


@pytest.mark.parametrize("call, message", [
    (lambda: mancala.Game("chess"), "unknown game 'chess'"),
    (lambda: mancala.Game("kalah:13:4"), "kalah:13:4"),
    (lambda: mancala.Game("kalah").position("4-4-4"), "expected 15 fields"),
    (lambda: mancala.Game("kalah").position("4-4-4-4-4-4-4-4-4-4-4-5-0-0-S"), "seed total is 49"),
    (lambda: mancala.Game("kalah").apply(mancala.Game("kalah").start(), "a"),
     "'a' is a North house but South is to move"),
    (lambda: mancala.Game("kalah").apply(mancala.Game("kalah").start(), "Z"), "not a house"),
    (lambda: mancala.Game("kalah").apply(mancala.Game("kalah").start(), 6), "not from 0 to 5"),
    (lambda: mancala.Game("kalah").apply(mancala.Game("kalah").position(
        "0-4-4-4-4-4-4-4-4-4-4-8-0-0-S"), "A"), "move 'A' is illegal"),
    (lambda: mancala.Game("oware").apply(mancala.Game("kalah:6:5").start(), "A"),
     "is not a position of oware"),
    (lambda: mancala.Game("kalah").perft(mancala.Game("kalah").start(), 0), "at least 1"),
    (lambda: mancala.Game("kalah").make_position([4] * 12, (0, 0), "W"), "side to move"),
    (lambda: mancala.read_record('[Game "kalah"]\n\n1. Z *\n'), "Z"),
])
def test_bad_input_raises_value_error_with_the_library_message(call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        call()


def test_wrong_types_raise_type_error():
    g = mancala.Game("kalah")
    with pytest.raises(TypeError):
        g.apply(g.start(), 2.5)
    with pytest.raises(TypeError):
        mancala.Tables(42, "/tmp")


def test_a_random_game_agrees_with_the_command_line_apply(run_cli):
    rng = random.Random(20)
    for game in ("kalah:6:4", "oware", "congkak:5:4"):
        g = mancala.Game(game)
        match = mancala.Match(g)
        while not match.is_over():
            match.play(rng.choice(match.legal_moves()))
        cli = json.loads(run_cli("apply", game, "--json", *match.moves))
        assert cli["position"] == str(match.position)
        assert cli["game_over"] is True
        result = match.result()
        assert (cli["result"]["south"], cli["result"]["north"]) == (result.south, result.north)
        assert cli["result"]["winner"] == result.winner
        assert cli["result"]["repetition"] == match.ended_by_repetition


def test_match_ends_an_oware_game_on_the_third_repetition():
    # Three seeds go round the board: after 24 moves the start comes a third time.
    line = "BdCeDfFaEbAcBdCeFfDaEbAc"
    match = mancala.Match("oware", "0-1-0-0-0-1-0-0-0-1-0-0-22-23-S")
    for letter in line[:-1]:
        match.play(letter)
    assert not match.is_over() and not mancala.Game("oware").is_over(match.position)
    match.play(line[-1])
    assert match.is_over() and match.ended_by_repetition and match.legal_moves() == []
    result = match.result()
    assert (result.south, result.north, result.repetition) == (23, 24, True)
    with pytest.raises(ValueError, match="already over"):
        match.play("B")


def test_match_undo_and_positions():
    match = mancala.Match("kalah:3:2")
    match.play("A")
    match.play("a")
    assert match.moves == ["A", "a"] and len(match) == 2
    assert [str(p) for p in match.positions][0] == "2-2-2-2-2-2-0-0-S"
    assert match.undo() and match.moves == ["A"]
    assert match.position == match.positions[-1]


def test_records_round_trip():
    match = mancala.Match("kalah:4:3")
    for letter in "BaC":
        if letter in match.legal_moves():
            match.play(letter)
    text = mancala.write_record(match, {"South": "Ann", "North": "Bob"})
    assert '[Game "kalah:4:3"]' in text and '[South "Ann"]' in text
    record = mancala.read_record(text)
    assert record.tags["North"] == "Bob"
    assert record.match.moves == match.moves
    assert record.match.position == match.position


def test_aualé_records_are_read():
    text = '[Variant "Oware Abapa"]\n[Result "*"]\n\n1. F a 2. E b *\n'
    record = mancala.read_record(text)
    assert record.match.game == mancala.Game("oware")
    assert record.match.moves == ["F", "a", "E", "b"]


def test_the_version_is_the_projects_and_the_commands(run_cli):
    cmake_lists = (REPO / "CMakeLists.txt").read_text()
    version = re.search(r"^project\(mancala VERSION ([0-9.]+)", cmake_lists, re.M).group(1)
    assert mancala.__version__ == version
    assert run_cli("--version") == f"mancala {version}\n"


@pytest.mark.parametrize("call, shown", [
    (lambda: mancala.Game("kalah\0"), "GAME 'kalah\\x00'"),
    (lambda: mancala.Tables("kalah\0:4", "/nonexistent"), "GAME 'kalah\\x00:4'"),
    (lambda: mancala.Game("kalah").position("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\0"),
     "position '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\\x00'"),
    (lambda: mancala.Game("kalah").apply(mancala.Game("kalah").start(), "C\0"), "move 'C\\x00'"),
    (lambda: mancala.Game("kalah").make_position([4] * 12, (0, 0), "S\0"),
     "side to move 'S\\x00'"),
    (lambda: mancala.read_record('[Game "kalah"]\n\0\n1. C *\n'), "record '[Game"),
    (lambda: mancala.write_record(mancala.Match("kalah"), {"South": "Ann\0Bob"}),
     "tag value 'Ann\\x00Bob'"),
])
def test_a_str_with_a_nul_byte_is_refused_with_the_nul_shown(call, shown):
    with pytest.raises(ValueError) as raised:
        call()
    message = str(raised.value)
    assert message.startswith(shown) and "a text with a NUL byte" in message, message


@pytest.mark.parametrize("tags", [
    {"South": "Ann\n[Game \"oware\"]"},  # a line break would end the tag line
    {"Sou th": "Ann"},  # the reader ends a name at the space: "Sou"
    {'Ev"]ent': "x"},
    {"": "x"},
    {"Event": "tab\there"},
])
def test_write_record_refuses_tags_that_would_not_read_back_the_same(tags):
    with pytest.raises(ValueError):
        mancala.write_record(mancala.Match("kalah"), tags)


def test_every_tag_written_reads_back_the_same():
    match = mancala.Match("kalah")
    match.play("C")
    tags = {"South": 'Ann "the \\ quick"]', "North": "Bob [x] {y}", "Event": "café \"]",
            "Round_2": "1-0 *"}
    record = mancala.read_record(mancala.write_record(match, tags))
    for name, value in tags.items():
        assert record.tags[name] == value
    assert record.match.moves == match.moves


def test_a_record_with_two_game_tags_is_refused():
    with pytest.raises(ValueError, match=r"a second \[Game\] tag"):
        mancala.read_record('[Game "kalah"]\n[Game "oware"]\n\n1. C *\n')
