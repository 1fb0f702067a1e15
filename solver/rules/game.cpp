#include "solver/rules/game.h"

#include "solver/util/random.h"

namespace mancala {

Game::Game(const Rules& rules) : Game(rules, start_position(rules)) {}

Game::Game(const Rules& rules, const Position& start) : rules_(rules), positions_{start} {
  if (rules_.kind == GameKind::Oware) since_capture_.emplace(start, 1);
}

size_t Game::PositionHash::operator()(const Position& p) const {
  uint64_t h = (uint64_t{p.houses} << 8) | static_cast<uint64_t>(p.side_to_move);
  for (int i = 0; i < 2 * p.houses + 2; ++i) h = splitmix64_mix(h ^ p.slots[i]) + i;
  return static_cast<size_t>(h);
}

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
  repetition_end_ = rules_.kind == GameKind::Oware && count_and_check_third_occurrence();
  if (effect && repetition_end_) effect->game_over = true;
  return true;
}

bool Game::undo() {
  if (moves_.empty()) return false;
  if (rules_.kind == GameKind::Oware) {
    if (positions_.size() - 1 == since_capture_from_) {
      positions_.pop_back();
      recount_since_capture();  // the capture taken back: the positions before it count again
    } else {
      const auto counted = since_capture_.find(positions_.back());
      if (--counted->second == 0) since_capture_.erase(counted);
      positions_.pop_back();
    }
  } else {
    positions_.pop_back();
  }
  moves_.pop_back();
  repetition_end_ = false;  // a position that ended the game can only be the last one
  return true;
}

namespace {

bool same_stores(const Position& a, const Position& b) {
  return a.store(Side::South) == b.store(Side::South) &&
         a.store(Side::North) == b.store(Side::North);
}

}  // namespace

bool Game::count_and_check_third_occurrence() {
  const Position& now = position();
  if (!same_stores(now, positions_[positions_.size() - 2])) {  // a capture: a fresh count
    since_capture_.clear();
    since_capture_from_ = positions_.size() - 1;
  }
  return ++since_capture_[now] == 3;
}

void Game::recount_since_capture() {
  since_capture_.clear();
  size_t from = positions_.size() - 1;
  while (from > 0 && same_stores(positions_[from - 1], positions_.back())) --from;
  since_capture_from_ = from;
  for (size_t i = from; i < positions_.size(); ++i) ++since_capture_[positions_[i]];
}

Outcome Game::outcome() const {
  if (!repetition_end_) return final_outcome(rules_, position());
  const Position& p = position();
  const int left = p.seeds_on_board();
  return Outcome::from_stores(p.store(Side::South) + left / 2, p.store(Side::North) + left / 2);
}

}  // namespace mancala
