#!/usr/bin/python3
"""How often Pro's move keeps the exact value of a Kalah position.

Usage: scripts/kalah-accuracy.py --game kalah:6:4 --pro-tables DB --judge-tables DB30
                                 [--positions 200] [--seconds 1 | --nodes N] [--seed 1]
                                 [--judge-seconds 600]
                                 [--max-board-seeds N] [--judged FILE]

Kalah(6,4) and Kalah(6,5) are solved, so every move of theirs can be judged exactly. The script
plays --positions games from the start: a random opening of 2 to 8 plies, then level 4 for 0 to
40 plies more; it keeps the position reached when it has more seeds on the board than Pro's tables
hold (inside them Pro looks the move up, which judges nothing), at most --max-board-seeds (the
judge's time grows steeply with the seeds on the board: a Kalah(6,5) position with 54 took ten
minutes on one core, with the 0..30 tables), and more than one legal move (a forced move judges
nothing either), and plays another game otherwise. Pro (level 6, a fresh player
for each position, with the tables in DB: those `scripts/run.sh` builds, Kalah to 20 seeds) moves
in --seconds a move, one thread. Then every legal move of each position is solved exactly
(mancala.solve_each_move, one thread, with the tables in DB30, e.g. 0..30 from `mancala db build
kalah --max-seeds 30 --out DB30`, a few minutes on 2 cores): Pro's move keeps the value when its
value equals the best move's. Prints each position as it is judged, every move that lost value,
and the share. Pro's moves are all made first, then judged. Deterministic positions for a given
--seed; Pro's moves depend on the machine's speed (a time budget).

The judge's values do not depend on Pro: with --judged FILE they are kept there (a JSON object:
position -> move -> [lower, upper]), with the positions sampled (level 4's playouts may change from
build to build), and read back by the next run, which then only plays Pro's moves: an A/B of two
builds takes minutes instead of the judge's hours.

Run it from the checkout after a build with the Python module (scripts/build.sh build
-DMANCALA_PYTHON=ON); it uses build/python.
"""
import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "python"))
import mancala  # noqa: E402

PRO = 6
PLAYOUT_LEVEL = 4


def sample_positions(game, count, pro_tables_seeds, max_board_seeds, rnd):
    """`count` positions of games after random openings (see the module's help)."""
    playout = mancala.Player(game, PLAYOUT_LEVEL, seed=rnd.randrange(1 << 30))
    positions = []
    while len(positions) < count:
        match = mancala.Match(game)
        opening, further = rnd.randint(2, 8), rnd.randint(0, 40)
        while not match.is_over() and len(match.moves) < opening + further:
            if len(match.moves) < opening:
                match.play(rnd.choice(match.legal_moves()))
            else:
                match.play(playout.choose(match))
        position = match.position
        if (not match.is_over() and pro_tables_seeds < position.seeds_on_board <= max_board_seeds
                and len(match.legal_moves()) > 1):
            positions.append(str(position))
    return positions


def read_judged(path, game):
    """What an earlier run kept: the judge's values (position -> move -> (lower, upper)) and the
    positions it sampled (a description of the sample -> positions)."""
    if not path or not os.path.exists(path):
        return {}, {}
    with open(path, encoding="utf-8") as f:
        kept = json.load(f)
    if kept.get("game") != game:
        sys.exit(f"{path} holds values of {kept.get('game')}, not {game}")
    values = {text: {m: tuple(b) for m, b in moves.items()}
              for text, moves in kept["positions"].items()}
    return values, kept.get("samples", {})


def write_judged(path, game, values, samples):
    if not path:
        return
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump({"game": game, "samples": samples, "positions": values}, f, sort_keys=True)
    os.replace(path + ".tmp", path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="kalah:6:4")
    parser.add_argument("--pro-tables", required=True, help="Pro's tables (Kalah to 20 seeds)")
    parser.add_argument("--judge-tables", required=True, help="the judge's tables (0..30)")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=1.0, help="Pro's time a move")
    parser.add_argument("--nodes", type=int, default=0,
                        help="Pro's nodes a move instead of time (the same moves on any machine)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-board-seeds", type=int, default=1000,
                        help="only positions with at most this many seeds on the board")
    parser.add_argument("--judge-seconds", type=float, default=600,
                        help="at most this long to solve the moves of one position")
    parser.add_argument("--judged", help="a file of the judge's values, read and extended")
    args = parser.parse_args()

    game = mancala.Game(args.game)
    pro_tables = mancala.Tables(game, args.pro_tables)
    judge_tables = mancala.Tables(game, args.judge_tables)
    rnd = random.Random(args.seed)
    judged_values, samples = read_judged(args.judged, args.game)
    # The playouts are level 4's, which may differ from build to build: the positions are kept
    # with the judge's values, so that two builds are judged on the same ones.
    sample_key = (f"seed {args.seed}, {args.positions} positions, tables to "
                  f"{pro_tables.max_seeds}, at most {args.max_board_seeds} on the board")
    positions = samples.get(sample_key)
    if positions is None:
        positions = sample_positions(game, args.positions, pro_tables.max_seeds,
                                     args.max_board_seeds, rnd)
        samples[sample_key] = positions
        write_judged(args.judged, args.game, judged_values, samples)
    budget = f"{args.nodes} nodes" if args.nodes else f"{args.seconds:g} s"
    print(f"{args.game}: {len(positions)} positions; Pro {budget} a move with tables to "
          f"{pro_tables.max_seeds} seeds; judged with tables to {judge_tables.max_seeds}",
          flush=True)

    # Pro's moves first, all of them, so that the judge's solving (which is not timed) can share the
    # machine with other work without slowing Pro down.
    pro_moves = []
    pro_seconds = 0.0
    for text in positions:
        # A Player's `seconds` (or `nodes`) is level 5's budget; Pro takes up to six times as much
        # (four parts search, two the whole-game solver: levels.md), so --seconds is the whole
        # move's.
        pro = (mancala.Player(game, PRO, nodes=max(args.nodes // 6, 1), tables=pro_tables)
               if args.nodes else
               mancala.Player(game, PRO, seconds=args.seconds / 6, tables=pro_tables))
        start = time.monotonic()
        pro_moves.append(pro.choose(mancala.Match(game, text)))
        pro_seconds += time.monotonic() - start
    print(f"Pro's moves: mean time a move {pro_seconds / len(positions):.2f} s", flush=True)

    kept = lost = undecided = 0
    for i, (text, move) in enumerate(zip(positions, pro_moves), 1):
        bounds = judged_values.get(text)
        if bounds is None:
            judged = mancala.solve_each_move(game, text, seconds=args.judge_seconds,
                                             tables=judge_tables, threads=1)
            bounds = {m.move: (m.lower, m.upper) for m in judged.moves}
            judged_values[text] = bounds
            write_judged(args.judged, args.game, judged_values, samples)
        best_lower = max(lower for lower, _ in bounds.values())
        best_upper = max(upper for _, upper in bounds.values())
        mine_lower, mine_upper = bounds[move]
        if mine_lower >= best_upper:
            kept += 1
            verdict = "keeps"
        elif mine_upper < best_lower:
            lost += 1
            verdict = "LOSES"
        else:
            undecided += 1
            verdict = "undecided"
        values = " ".join(f"{m}:{lower}" if lower == upper else f"{m}:[{lower},{upper}]"
                          for m, (lower, upper) in bounds.items())
        print(f"{i:4d} {text}  Pro {move}  {verdict}  ({values})", flush=True)

    judged_count = kept + lost
    share = 100.0 * kept / judged_count if judged_count else 0.0
    print(f"{args.game}: Pro kept the exact value in {kept} of {judged_count} positions "
          f"({share:.1f}%), lost value in {lost}, {undecided} not solved within "
          f"{args.judge_seconds:g} s")


if __name__ == "__main__":
    main()
