#!/usr/bin/python3
"""Fits the weights of Oware's evaluation (solver/search/evaluation.h) again.

Usage: scripts/fit-evaluation.py --tables DB [--games 200] [--depth 8] [--seed 1]

DB is a database directory holding the Oware abapa tables (mancala db build oware --max-seeds 20
makes them). The script plays games in which both sides search --depth plies with the store
difference alone (the evaluation off) and now and then play a random move, so that the positions
are varied; it labels every position met with what the side to move will still gain beyond its
store lead: the exact value where the tables cover it, elsewhere a search of --depth plies (the
evaluation off, the tables on). Then it fits, by least squares, the label from the features
(mancala.oware_features: empty houses, houses of 1-2 seeds, houses of 12 or more, seeds on the
row, each the mover's count minus the opponent's), and prints the weights in 1/16 seed as
evaluation.h takes them, with how much better they predict the labels than the store difference
alone. Deterministic for a given --seed, tables and depth (searches by depth, not time).

Run it from the checkout after a build with the Python module (scripts/build.sh build
-DMANCALA_PYTHON=ON); it uses build/python.
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "python"))
import mancala  # noqa: E402
import numpy  # noqa: E402

UNITS_PER_SEED = 16
FEATURES = ["empty houses", "houses of 1-2 seeds", "houses of 12+ seeds", "seeds on the row"]


def lead(position):
    fields = str(position).split("-")
    south, north, side = int(fields[-3]), int(fields[-2]), fields[-1]
    return south - north if side == "S" else north - south


def play_games(game, search, args, rnd):
    positions = []
    for _ in range(args.games):
        match = mancala.Match(game)
        opening = rnd.randint(2, 8)
        while not match.is_over():
            moves = match.legal_moves()
            if len(match.moves) < opening or rnd.random() < args.random_moves:
                move = rnd.choice(moves)
            else:
                move = search.run(match.position, depth=args.play_depth).best
                if move not in moves:  # the search does not know the repetition rule
                    move = moves[0]
            positions.append(str(match.position))
            match.play(move)
    return positions


def label(game, tables, search, position, depth):
    if tables.covers(position):
        return tables.probe(position).value, True
    return search.run(position, depth=depth).score - lead(position), False


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", required=True, help="the database directory")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--depth", type=int, default=8, help="plies of a label's search")
    parser.add_argument("--play-depth", type=int, default=4, help="plies of a move's search")
    parser.add_argument("--random-moves", type=float, default=0.15)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    game = mancala.Game("oware")
    tables = mancala.Tables(game, args.tables)
    rnd = random.Random(args.seed)
    player_search = mancala.Search(game, tables=tables, evaluation=False)
    positions = play_games(game, player_search, args, rnd)
    label_search = mancala.Search(game, hash_mb=64, tables=tables, evaluation=False)
    rows, targets, exact = [], [], 0
    for text in sorted(set(positions)):
        position = text
        if not game.legal_moves(position):
            continue
        value, from_tables = label(game, tables, label_search, position, args.depth)
        exact += from_tables
        rows.append(mancala.oware_features(game, position) + [1])
        targets.append(value)
    x = numpy.array(rows, dtype=float)
    y = numpy.array(targets, dtype=float)
    weights, *_ = numpy.linalg.lstsq(x, y, rcond=None)
    baseline = float(numpy.mean(y * y))
    fitted = float(numpy.mean((x @ weights - y) ** 2))
    print(f"positions: {len(y)} ({exact} valued by the tables, {len(y) - exact} by a "
          f"{args.depth}-ply search), {args.games} games, seed {args.seed}")
    for name, w in zip(FEATURES + ["to move"], weights):
        print(f"  {name:22s} {w:+.3f} seeds")
    print(f"mean squared error: {baseline:.2f} (store difference alone), {fitted:.2f} (fitted)")
    units = [int(round(w * UNITS_PER_SEED)) for w in weights]
    print("evaluation.h: kOwareWeights{{" + ", ".join(str(u) for u in units[:-1]) + "}, " +
          str(units[-1]) + "}")


if __name__ == "__main__":
    main()
