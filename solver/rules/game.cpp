#include "solver/rules/game.h"

namespace mancala {

Game::Game(const Rules& rules) : Game(rules, start_position(rules)) {}

Game::Game(const Rules& rules, const Position& start) : rules_(rules), positions_{start} {}

MoveList Game::legal_moves() const {
  if (repetition_end_) return {};
  return generate_moves(rules_, position());
}

bool Game::is_over() const {
  return legal_moves().empty();
}

bool Game::play(Move move, MoveEffect* effect) {
  if (!legal_moves().contains(move)) return false;
  positions_.push_back(apply_move(rules_, position(), move, effect));
  moves_.push_back(move);
  repetition_end_ = rules_.kind == GameKind::Oware && third_occurrence();
  if (effect && repetition_end_) effect->game_over = true;
  return true;
}

bool Game::undo() {
  if (moves_.empty()) return false;
  positions_.pop_back();
  moves_.pop_back();
  repetition_end_ = false;  // a position that ended the game can only be the last one
  return true;
}

// A repeated position has the same stores, so only positions since the last capture can match;
// the scan stops at the first position whose stores differ.
bool Game::third_occurrence() const {
  const Position& now = position();
  int seen = 0;
  for (auto it = positions_.rbegin(); it != positions_.rend(); ++it) {
    if (it->store(Side::South) != now.store(Side::South) ||
        it->store(Side::North) != now.store(Side::North))
      break;
    if (*it == now && ++seen == 3) return true;
  }
  return false;
}

Outcome Game::outcome() const {
  if (!repetition_end_) return final_outcome(rules_, position());
  const Position& p = position();
  const int left = p.seeds_on_board();
  return Outcome::from_stores(p.store(Side::South) + left / 2, p.store(Side::North) + left / 2);
}

}  // namespace mancala
