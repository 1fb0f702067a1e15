#include "solver/players.h"

#include <vector>

namespace mancala {

std::string level_name(int level) {
  switch (level) {
    case 1: return "level 1 (random)";
    case 2: return "level 2 (greedy)";
    default: return "level " + std::to_string(level);
  }
}

namespace {

// Store growth of the mover minus that of the opponent, for one move.
int immediate_gain(const Rules& rules, const Position& position, Move move) {
  const Side mover = position.side_to_move;
  const Position child = apply_move(rules, position, move);
  return (child.store(mover) - position.store(mover)) -
         (child.store(opponent(mover)) - position.store(opponent(mover)));
}

}  // namespace

Move Player::choose(const Game& game) {
  const MoveList moves = game.legal_moves();
  if (level_ <= 1) return moves[static_cast<int>(random_.below(static_cast<uint32_t>(moves.size())))];
  std::vector<Move> best;
  int best_gain = -1000000;
  for (Move m : moves) {
    const int gain = immediate_gain(game.rules(), game.position(), m);
    if (gain > best_gain) {
      best_gain = gain;
      best.clear();
    }
    if (gain == best_gain) best.push_back(m);
  }
  return best[random_.below(static_cast<uint32_t>(best.size()))];
}

}  // namespace mancala
