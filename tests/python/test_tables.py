"""mancala.Tables and build_tables: probes agree with `mancala db query`, failures raise
TablesError, the progress callback sees the build."""
import json
import random

import pytest

import mancala


def random_positions(game, seeds, count, rng):
    """Positions of `game` with `seeds` on the board, South or North to move, not over."""
    found = []
    while len(found) < count:
        houses = [0] * (2 * game.houses)
        for _ in range(seeds):
            houses[rng.randrange(len(houses))] += 1
        rest = game.total_seeds - seeds
        p = game.make_position(houses, (rest // 2, rest - rest // 2), rng.choice("SN"))
        if not game.is_over(p):
            found.append(p)
    return found


def test_probes_agree_with_db_query(awari_db, run_cli):
    game = mancala.Game("oware:4:awari")
    tables = mancala.Tables(game, str(awari_db))
    rng = random.Random(7)
    for seeds in (3, 8, tables.max_seeds):
        for p in random_positions(game, seeds, 4, rng):
            cli = json.loads(run_cli("db", "query", game.name, str(p), "--db", str(awari_db),
                                     "--json"))
            probe = tables.probe(p)
            assert probe.value == cli["value"] and probe.score == cli["score"]
            assert probe.moves == {m["move"]: m["value"] for m in cli["moves"]}
            assert list(probe.moves) == game.legal_moves(p)  # house order; the CLI: best first
            assert probe.best == cli["best"]


def test_probe_takes_position_strings(awari_db):
    tables = mancala.Tables("oware:4:awari", str(awari_db))
    text = "0-0-0-0-0-1-1-0-0-0-0-0-23-23-S"
    assert tables.probe(text).moves == tables.probe(tables.game.position(text)).moves


def test_a_position_beyond_the_tables_raises_tables_error(awari_db):
    tables = mancala.Tables("oware:4:awari", str(awari_db))
    with pytest.raises(mancala.TablesError, match="48 seeds on the board"):
        tables.probe(tables.game.start())
    assert not tables.covers(tables.game.start())


def test_missing_tables_raise_tables_error(tmp_path):
    with pytest.raises(mancala.TablesError, match="no kalah:6 tables"):
        mancala.Tables("kalah", str(tmp_path))
    with pytest.raises(mancala.TablesError, match="(?i)no endgame tables for congkak"):
        mancala.Tables("congkak", str(tmp_path))


def test_a_build_too_deep_for_this_machine_raises_tables_error(tmp_path):
    # 64 seeds: terabytes for the last layers; refused before anything is written.
    with pytest.raises(mancala.TablesError, match="the deepest build that fits here goes to"):
        mancala.build_tables("kalah", str(tmp_path), 64)
    assert not any(tmp_path.iterdir())


def test_a_corrupt_layer_raises_tables_error(tmp_path):
    mancala.build_tables("kalah:2:2", str(tmp_path), 4)
    for seeds in (3, 4):  # the layers of every position after a move from 4 seeds
        layer = tmp_path / "kalah-2" / f"seeds-0{seeds}.mtb"
        layer.write_bytes(layer.read_bytes()[:40])
    tables = mancala.Tables("kalah:2:2", str(tmp_path))
    with pytest.raises(mancala.TablesError, match="seeds-0[34]"):
        tables.probe("1-1-1-1-2-2-S")


def test_build_reports_progress_and_layers(tmp_path):
    seen = []
    reports = mancala.build_tables("kalah", str(tmp_path), 5, progress=seen.append)
    assert [r.seeds for r in reports] == [0, 1, 2, 3, 4, 5]
    assert all(not r.resumed and r.positions > 0 and r.file_size > 0 for r in reports)
    assert {p.seeds for p in seen} == {0, 1, 2, 3, 4, 5}
    # Kalah's layers are built in one pass ("values"); the writes overlap it and end with "write".
    assert any(p.phase == "values" for p in seen) and any(p.phase == "write" for p in seen)
    again = mancala.build_tables("kalah", str(tmp_path), 6)
    assert [r.resumed for r in again] == [True] * 6 + [False]
    assert not any(r.from_plain_copy for r in again)


def test_a_resumed_build_reads_plain_copies_in_place(tmp_path, run_cli):
    mancala.build_tables("kalah", str(tmp_path), 5)
    run_cli("db", "unpack", "kalah", "--db", str(tmp_path), "--quiet")
    again = mancala.build_tables("kalah", str(tmp_path), 7)
    assert [(r.resumed, r.from_plain_copy) for r in again] == [(True, True)] * 6 + [
        (False, False)
    ] * 2


def test_an_exception_in_the_progress_callback_ends_the_build(tmp_path):
    def stop_at_layer_3(progress):
        if progress.seeds == 3:
            raise KeyError("enough")

    with pytest.raises(KeyError, match="enough"):
        mancala.build_tables("oware", str(tmp_path), 8, progress=stop_at_layer_3)
    # The finished layers stay; a later build resumes from them.
    reports = mancala.build_tables("oware", str(tmp_path), 4)
    assert [r.resumed for r in reports] == [True, True, True, False, False]


def test_build_rejects_games_without_tables(tmp_path):
    with pytest.raises(mancala.TablesError, match="(?i)no endgame tables for congkak"):
        mancala.build_tables("congkak", str(tmp_path), 4)


def test_a_directory_with_a_nul_byte_is_refused(awari_db):
    # Opened as the part before the NUL, it used to report that directory's tables as this one's.
    for call in (lambda: mancala.Tables("oware:4:awari", str(awari_db) + "\0/x"),
                 lambda: mancala.build_tables("kalah:2:1", str(awari_db) + "\0/x", 1)):
        with pytest.raises(ValueError) as raised:
            call()
        assert str(raised.value).startswith("directory '") and "NUL byte" in str(raised.value)
