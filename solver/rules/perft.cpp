#include "solver/rules/perft.h"

#include <bit>

#include "solver/rules/moves.h"

namespace mancala {

namespace {

using detail::Board;

// The last ply: applies every move of `board` and returns the sum of the child boards. Adding
// every child into a sum that perft reads at the end keeps the compiler from dropping any part
// of that work. A function of its own so that its tight loop keeps everything in registers.
template <GameKind K>
[[gnu::noinline]] lanes::Vec apply_leaves(const Rules& rules, const Board& board, uint32_t legal) {
  lanes::Vec sum = lanes::zero();
  for (; legal; legal &= legal - 1) {
    const Board child = apply_slot<K>(rules, board, std::countr_zero(legal));
    sum = lanes::add(sum, lanes::load(child));
  }
  return sum;
}

// Perft on the lane board of moves.h, with the legal moves of `board` passed in as a lane mask
// (so each node's moves are found once, right after the move that made it).
template <GameKind K>
uint64_t perft_recursive(const Rules& rules, const Board& board, uint32_t legal, int depth,
                         uint64_t& applied, lanes::Vec& sink) {
  const int count = std::popcount(legal);
  applied += static_cast<uint64_t>(count);
  if (depth == 1) {
    sink = lanes::add(sink, apply_leaves<K>(rules, board, legal));
    return static_cast<uint64_t>(count);
  }
  uint64_t leaves = 0;
  for (; legal; legal &= legal - 1) {
    const Board child = apply_slot<K>(rules, board, std::countr_zero(legal));
    leaves +=
        perft_recursive<K>(rules, child, legal_slots<K>(rules, child), depth - 1, applied, sink);
  }
  return leaves;
}

template <GameKind K>
PerftCount perft_from(const Rules& rules, const Position& position, int depth) {
  PerftCount count;
  const Board board = detail::to_board(position);
  lanes::Vec sink = lanes::zero();
  count.leaves = perft_recursive<K>(rules, board, legal_slots<K>(rules, board), depth,
                                    count.moves_applied, sink);
  const Board folded = lanes::store(sink);
  uint64_t checksum = 0;
  for (uint16_t lane : folded.lane) checksum = checksum * 31 + lane;
  volatile uint64_t kept = checksum;
  (void)kept;
  return count;
}

}  // namespace

PerftCount perft(const Rules& rules, const Position& position, int depth) {
  if (depth <= 0) {
    PerftCount count;
    count.leaves = 1;
    return count;
  }
  switch (rules.kind) {
    case GameKind::Kalah:
      return perft_from<GameKind::Kalah>(rules, position, depth);
    case GameKind::Oware:
      return perft_from<GameKind::Oware>(rules, position, depth);
    case GameKind::Congkak:
      return perft_from<GameKind::Congkak>(rules, position, depth);
  }
  return PerftCount{};
}

}  // namespace mancala
