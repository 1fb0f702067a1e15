// Computer players. Level 1 plays a random legal move; level 2 is greedy: the move with the best
// immediate gain (its own store growth minus the opponent's), ties broken at random. The search
// levels 3-6 build on the same interface.
#pragma once

#include <cstdint>
#include <string>

#include "solver/game.h"
#include "solver/random.h"

namespace mancala {

inline constexpr int kMinLevel = 1;
inline constexpr int kMaxImplementedLevel = 2;

std::string level_name(int level);

class Player {
 public:
  Player(int level, uint64_t seed) : level_(level), random_(seed) {}

  int level() const { return level_; }
  // A legal move for the side to move; the game must not be over.
  Move choose(const Game& game);

 private:
  int level_;
  Random random_;
};

}  // namespace mancala
