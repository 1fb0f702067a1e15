// The rules of the endgame tables, which the builder, the probe, the verifier and the search all
// share: which games have tables, which moves leave a layer, and what a move is worth when the
// values after it come from the tables.
//
// Layer s of a table holds every position with s seeds in the houses, seen from the side to move
// (stores are not part of a table position). A move either leaves the layer (seeds reach a store:
// sowing into it, a capture, or the end of the game), and its value comes from the layers
// below, or keeps every seed on the board (an "inner" move), and the position after it is in the
// same layer.
#pragma once

#include "solver/rules/position.h"
#include "solver/rules/rules.h"
#include "solver/util/expected.h"

namespace mancala {

// The rules the tables of a game are built and read with, or why the game has none (Congkak,
// Kalah with more than 6 houses). They are the game's rules with a seeds-per-house so large that
// the Oware majority rule (which reads the stores) can never end play inside the tables: a table
// position has empty stores. Tables do not depend on the seeds per house otherwise.
Expected<Rules> table_rules_for(const Rules& game_rules);

// Does the move from a position with `layer_seeds` seeds on the board to `after` keep every
// seed on the board (an inner move, inside the layer)?
inline bool is_inner_move(int layer_seeds, const Position& after) {
  return after.seeds_on_board() == layer_seeds;
}

// The value of one move for the mover: its store gain minus the opponent's, plus the value of the
// position reached (negated when the other side moves next). `value_after(after)` gives the
// table value of `after` (solver/rules/README.md, "Values").
template <class ValueAfter>
int table_move_value(const Position& before, const Position& after, ValueAfter&& value_after) {
  const int v = value_after(after);
  return store_gain(before, after) + (after.side_to_move == before.side_to_move ? v : -v);
}

}  // namespace mancala
