// Perft: the number of move sequences of a given length (solver/rules/README.md, "Perft"). Every
// move is applied, the last ply included, so moves applied per second measures the rules engine.
#pragma once

#include <cstdint>

#include "solver/rules/position.h"
#include "solver/rules/rules.h"

namespace mancala {

struct PerftCount {
  uint64_t leaves = 0;         // perft(p, depth)
  uint64_t moves_applied = 0;  // every apply on the way: the sum of perft over depths 1..depth
};

PerftCount perft(const Rules& rules, const Position& position, int depth);

}  // namespace mancala
