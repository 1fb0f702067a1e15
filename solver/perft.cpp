#include "solver/perft.h"

#include <bit>

#include "solver/moves.h"

namespace mancala {

namespace {

using detail::Board;

// Perft on the lane board of moves.h, with the legal moves of `board` passed in as a lane mask
// (so each node's moves are found once, right after the move that made it).
template <GameKind K>
uint64_t perft_recursive(const Rules& rules, const Board& board, uint32_t legal, int depth,
                         uint64_t& applied, detail::lanes::Vec& sink) {
  const int count = std::popcount(legal);
  applied += static_cast<uint64_t>(count);
  const int base = detail::first_house(rules.houses, detail::lanes::side_to_move(detail::lanes::load(board)));
  if (depth == 1) {
    // The leaf moves are applied too; adding every child board into a sink that is read at the
    // end keeps the compiler from dropping any part of that work.
    for (; legal; legal &= legal - 1) {
      const Board child = apply_move<K>(rules, board, static_cast<Move>(std::countr_zero(legal) - base));
      sink = detail::lanes::add(sink, detail::lanes::load(child));
    }
    return static_cast<uint64_t>(count);
  }
  uint64_t leaves = 0;
  for (; legal; legal &= legal - 1) {
    const Board child = apply_move<K>(rules, board, static_cast<Move>(std::countr_zero(legal) - base));
    leaves += perft_recursive<K>(rules, child, legal_slots<K>(rules, child), depth - 1, applied, sink);
  }
  return leaves;
}

template <GameKind K>
PerftCount perft_from(const Rules& rules, const Position& position, int depth) {
  PerftCount count;
  const Board board = detail::to_board(position);
  detail::lanes::Vec sink = detail::lanes::zero();
  count.leaves = perft_recursive<K>(rules, board, legal_slots<K>(rules, board), depth, count.moves_applied, sink);
  const Board folded = detail::lanes::store(sink);
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
    case GameKind::Kalah: return perft_from<GameKind::Kalah>(rules, position, depth);
    case GameKind::Oware: return perft_from<GameKind::Oware>(rules, position, depth);
    case GameKind::Congkak: return perft_from<GameKind::Congkak>(rules, position, depth);
  }
  return PerftCount{};
}

}  // namespace mancala
