// The rules of the retrograde build's phases (retrograde.h describes them), shared by the builder
// on one machine (RetrogradeBuilder) and the distributed build (db/table_build_mpi.h): a
// position's moves out of its layer and what they are worth, un-moving along inner moves, and
// the predicates of the "levels" phase. The two builds differ only in where the values live (one
// array, or a part on each process) and in how the work is shared out; the rules are here, once.
//
// Part of the builder: only solver/tables/, db/table_build* and tools/ or tests/ include it
// (tests/check_layers.sh).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

#include "solver/rules/moves.h"
#include "solver/rules/rules.h"
#include "solver/tables/table_index.h"
#include "solver/tables/table_rules.h"
#include "solver/util/atomic_ref.h"

namespace mancala::retrograde {

// Marks "no move leaves the layer" in an exits value; a real value is never below -64.
inline constexpr int8_t kNoExit = INT8_MIN;

// A move that leaves the layer: its value for the mover is gain + sign * (the child's value),
// the child being position `rank` of layer `layer` (below the mover's layer).
struct ExitMove {
  int gain = 0;  // the mover's store gain minus the opponent's
  int sign = 0;  // +1 when the mover moves again in the child, -1 when the opponent does
  int layer = 0;
  uint64_t rank = 0;
};

inline int exit_move_value(const ExitMove& move, int child_value) {
  return move.gain + move.sign * child_value;
}

// What phase "exits" needs of one position: its moves out of the layer, how many inner moves it
// has, and the value known before any child is looked up (the game's end value when it has no
// move, kNoExit otherwise). Its exits value is the max of `known` and every exit move's value.
struct PositionExits {
  int8_t known = kNoExit;
  int inner = 0;
  int count = 0;  // exit moves in `moves`
  std::array<ExitMove, kMaxHouses> moves{};
};

template <GameKind K>
PositionExits position_exits(const Rules& rules, const TableIndex& index, int seeds,
                             const Position& p) {
  PositionExits exits;
  MoveList moves;
  generate_moves<K>(rules, p, moves);
  if (moves.empty()) {  // the game is over: each row to its owner
    exits.known = static_cast<int8_t>(final_outcome(rules, p).difference());
    return exits;
  }
  for (Move m : moves) {
    const Position child = apply_move<K>(rules, p, m);
    if (is_inner_move(seeds, child)) {
      ++exits.inner;
      continue;
    }
    // The move's store gain, then the child's value, negated when the other side moves next
    // (table_move_value, with the child's value looked up below).
    ExitMove& move = exits.moves[exits.count++];
    move.gain = store_gain(p, child);
    move.sign = child.side_to_move == p.side_to_move ? 1 : -1;
    move.layer = child.seeds_on_board();
    const TableKey key = table_key(child);
    move.rank = index.rank(key.counts.data());
  }
  return exits;
}

// The next slot of a sowing by `mover` after `slot`: Kalah skips the opponent's store; Oware
// skips both stores and the emptied house `origin`.
inline int next_sown_slot(const Rules& rules, int h, Side mover, int origin, int slot) {
  const int ring = 2 * h + 2;
  while (true) {
    if (++slot == ring) slot = 0;
    const bool store = slot == h || slot == 2 * h + 1;
    if (rules.kind == GameKind::Oware) {
      if (!store && slot != origin) return slot;
    } else if (slot != (mover == Side::South ? 2 * h + 1 : h)) {
      return slot;
    }
  }
}

// Calls `visit(parent, move)` for every position with an inner move leading to `child` (stores
// empty, as in the tables): un-sows each of the mover's emptied houses, then checks each
// candidate by playing the move forwards.
template <GameKind K, class Visit>
void visit_inner_parents(const Rules& rules, const Position& child, Visit&& visit) {
  const int h = child.houses;
  const Side mover = opponent(child.side_to_move);  // who made the inner move
  const int seeds = child.seeds_on_board();
  for (int house = 0; house < h; ++house) {
    const int origin = child.house_slot(mover, house);
    if (child.slots[origin] != 0) continue;  // an inner move leaves its house empty
    // Take back one seed after another along the sowing; once a slot has none to give, no
    // longer sowing can have reached past it either.
    Position parent = child;
    parent.side_to_move = mover;
    int slot = origin;
    for (int n = 1; n <= seeds; ++n) {
      slot = next_sown_slot(rules, h, mover, origin, slot);
      if (slot == origin || parent.slots[slot] == 0) break;
      --parent.slots[slot];
      Position candidate = parent;
      candidate.slots[origin] = static_cast<uint16_t>(n);
      // The candidate is a parent only if the move is legal there and gives exactly `child`.
      MoveList moves;
      generate_moves<K>(rules, candidate, moves);
      if (moves.contains(static_cast<Move>(house)) &&
          apply_move<K>(rules, candidate, static_cast<Move>(house)) == child)
        visit(candidate, static_cast<Move>(house));
    }
  }
}

// Phase "levels", level t (t = s .. 1): the positions worth at least t (won at level t) and at
// most -t (lost at level t). A position is won at level t if a move leaving the layer is worth t,
// or an inner move reaches a position lost at level t; it is lost at level t if no move leaving
// the layer is worth more than -t and every inner move reaches a position won at level t. Each
// set is a least fixpoint, grown from the level above by following inner moves backwards, so the
// result does not depend on the order of work. What is never won or lost is worth 0: a draw, or
// a cycle no side can force its way out of.
//
// Per position the phase keeps its exits value, its inner moves whose child is not (yet) won
// (`inner_left`), and its value: 0 until it is found won (> 0) or lost (< 0).

// Is a position not yet settled settled at the start of level t by its own moves, before any
// inner move is followed? Yes when a move out of the layer is worth exactly t, or when every
// inner move already reaches a won position and the best move out is worth exactly -t. Its value
// is then its exits value.
inline bool settled_at_level_start(int8_t exits, uint8_t inner_left, int t) {
  return exits == t || (inner_left == 0 && exits == -t);
}

// Is a position whose inner moves all reach won positions lost at level t?
inline bool lost_when_inner_moves_are_won(int8_t exits, int t) {
  return exits == kNoExit || exits <= -t;
}

// What telling a parent about a settled child did to it (settle_parent).
enum class ParentChange : uint8_t {
  none,  // nothing the caller needs to know: not settled, or settled already
  won,   // settled now: won at level t
  lost,  // settled now: lost at level t
  // Not settled, but its last inner move not (yet) reaching a won position just did, and its
  // best move out of the layer is worth more than -t: if that is below 0 (-t < exits <= -1),
  // the position is settled, lost, at the start of level -exits (settled_at_level_start).
  cornered,
};

// Does the parent join the next frontier?
inline bool settled(ParentChange change) {
  return change == ParentChange::won || change == ParentChange::lost;
}

// Tells parent q (its value, inner_left and exits) that one of its inner moves reaches a
// position just settled at level t, won or lost, and reports what that did to q (settled: q
// joins the next frontier; the other changes let a build count which positions start a later
// level, and may be ignored). Safe to call from several threads on the same q.
inline ParentChange settle_parent(int8_t& value, uint8_t& inner_left, int8_t exits, bool child_won,
                                  int t) {
  AtomicRef<int8_t> parent_value(value);
  if (child_won) {
    // One more inner move of q reaches a won position.
    AtomicRef<uint8_t> left(inner_left);
    if (left.fetch_sub(1, std::memory_order_relaxed) != 1) return ParentChange::none;
    if (lost_when_inner_moves_are_won(exits, t)) {
      int8_t expected = 0;
      return parent_value.compare_exchange_strong(expected, static_cast<int8_t>(-t))
                 ? ParentChange::lost
                 : ParentChange::none;
    }
    return parent_value.load(std::memory_order_relaxed) == 0 ? ParentChange::cornered
                                                             : ParentChange::none;
  }
  if (parent_value.load(std::memory_order_relaxed) != 0) return ParentChange::none;
  int8_t expected = 0;
  return parent_value.compare_exchange_strong(expected, static_cast<int8_t>(t))
             ? ParentChange::won
             : ParentChange::none;
}

}  // namespace mancala::retrograde
