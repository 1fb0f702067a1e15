// Text drawing of a board for the terminal, with optional ANSI colours.
#pragma once

#include <optional>
#include <string>

#include "solver/rules/moves.h"

namespace mancala::cli {

struct LastMove {
  Side mover;
  Move move;
  MoveEffect effect;
};

// North's row on top, read right to left as South sees it, so that each house faces its
// opposite; North's store on the left, South's on the right; letters above and below.
std::string render_board(const Position& position, const std::optional<LastMove>& last, bool color);

}  // namespace mancala::cli
