// A hash of the houses and the side to move, for the searches' transposition tables. Stores are
// not part of it: both tables keep scores without the stores ("futures"), so that a position
// reached with other stores still hits.
#pragma once

#include <cstdint>

#include "solver/rules/position.h"

namespace mancala {

uint64_t position_hash(const Position& position);

}  // namespace mancala
