#include "solver/perft.h"

#include "solver/moves.h"

namespace mancala {

namespace {

template <GameKind K>
uint64_t perft_recursive(const Rules& rules, const Position& position, int depth,
                         uint64_t& applied, uint64_t& checksum) {
  MoveList moves;
  generate_moves<K>(rules, position, moves);
  applied += moves.size();
  if (depth == 1) {
    // The leaf moves are applied too; folding each child into a checksum keeps the compiler
    // from dropping the work.
    for (Move m : moves) {
      const Position child = apply_move<K>(rules, position, m);
      checksum += child.slots[child.store_slot(Side::South)] + static_cast<uint64_t>(child.side_to_move) +
                  child.slots[0];
    }
    return moves.size();
  }
  uint64_t leaves = 0;
  for (Move m : moves)
    leaves += perft_recursive<K>(rules, apply_move<K>(rules, position, m), depth - 1, applied, checksum);
  return leaves;
}

}  // namespace

PerftCount perft(const Rules& rules, const Position& position, int depth) {
  PerftCount count;
  if (depth <= 0) {
    count.leaves = 1;
    return count;
  }
  uint64_t checksum = 0;
  switch (rules.kind) {
    case GameKind::Kalah:
      count.leaves = perft_recursive<GameKind::Kalah>(rules, position, depth, count.moves_applied, checksum);
      break;
    case GameKind::Oware:
      count.leaves = perft_recursive<GameKind::Oware>(rules, position, depth, count.moves_applied, checksum);
      break;
    case GameKind::Congkak:
      count.leaves = perft_recursive<GameKind::Congkak>(rules, position, depth, count.moves_applied, checksum);
      break;
  }
  volatile uint64_t sink = checksum;
  (void)sink;
  return count;
}

}  // namespace mancala
