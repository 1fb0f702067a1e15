// Positions and exact values shared by the search, solver and player tests.
#pragma once

#include <algorithm>
#include <map>
#include <string>

#include "solver/rules/moves.h"
#include "solver/search/match.h"
#include "solver/util/random.h"

namespace mancala {

// A random legal position `plies` sowings from the start (never a finished game).
inline Position random_position(const Rules& rules, Random& random, int plies) {
  return random_walk(rules, start_position(rules), random, plies);
}

// `seeds` seeds dropped at random into the houses of `rules`' board, stores empty, South to
// move: positions for checks against the endgame tables.
inline Position scattered_position(const Rules& rules, Random& random, int seeds) {
  Position p = start_position(rules);
  p.slots.fill(0);
  for (int k = 0; k < seeds; ++k) {
    // Two draws in sequence, not as two arguments of one call, whose order the compiler chooses:
    // GCC drew the house first and clang the side, so the same seed gave each other positions.
    const int house = static_cast<int>(random.below(p.houses));
    const Side side = random.below(2) ? Side::South : Side::North;
    ++p.slots[p.house_slot(side, house)];
  }
  return p;
}

// Exhaustive value (final store difference for the side to move) of a game without cycles,
// memoised on the whole position.
inline int exhaustive_value(const Rules& rules, const Position& p,
                            std::map<std::string, int>& memo) {
  const std::string key = to_string(p);
  if (auto it = memo.find(key); it != memo.end()) return it->second;
  const Side mover = p.side_to_move;
  const MoveList moves = generate_moves(rules, p);
  int best = -100000;
  if (moves.empty()) best = final_outcome(rules, p).lead(mover);
  for (Move m : moves) {
    const Position c = apply_move(rules, p, m);
    const int v = exhaustive_value(rules, c, memo);
    best = std::max(best, c.side_to_move == mover ? v : -v);
  }
  memo[key] = best;
  return best;
}

}  // namespace mancala
