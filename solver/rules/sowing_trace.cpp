#include "solver/rules/sowing_trace.h"

namespace mancala {

namespace {

// The board as plain counts, read and written one slot at a time.
struct TracedMove {
  const Rules& rules;
  Position board;
  Side mover;
  MoveTrace trace;

  int h() const { return rules.houses; }
  bool in_row(int slot, Side side) const {
    const int first = board.first_house(side);
    return slot >= first && slot < first + h();
  }
  bool row_empty(Side side) const { return board.seeds_in_houses(side) == 0; }

  // The slot after `slot` on the ring, skipping the stores that `skips` says to skip.
  template <class Skips>
  int next_slot(int slot, Skips&& skips) const {
    do slot = (slot + 1) % rules.ring_size();
    while (skips(slot));
    return slot;
  }

  // Empties `from` and drops its seeds one by one into the slots `skips` allows.
  template <class Skips>
  int sow(int from, Skips&& skips) {
    Sowing sowing;
    sowing.from = from;
    sowing.seeds = board.slots[from];
    board.slots[from] = 0;
    int slot = from;
    for (int k = 0; k < sowing.seeds; ++k) {
      slot = next_slot(slot, skips);
      ++board.slots[slot];
      sowing.slots.push_back(slot);
    }
    trace.sowings.push_back(std::move(sowing));
    trace.last_slot = slot;
    return slot;
  }

  void capture(int slot) {
    trace.captured += board.slots[slot];
    trace.captured_slots |= 1u << slot;
    board.slots[board.store_slot(mover)] += board.slots[slot];
    board.slots[slot] = 0;
  }

  // The end of the game: each row's seeds go to the row's owner.
  void sweep_rows() {
    for (Side side : {Side::South, Side::North})
      for (int i = 0; i < h(); ++i) {
        const int slot = board.house_slot(side, i);
        board.slots[board.store_slot(side)] += board.slots[slot];
        board.slots[slot] = 0;
      }
  }

  // Kalah rules 2-5.
  void kalah(int from) {
    const Side other = opponent(mover);
    const int last = sow(from, [&](int s) { return s == board.store_slot(other); });
    if (last == board.store_slot(mover)) {
      trace.extra_turn = true;
    } else if (in_row(last, mover) && board.slots[last] == 1) {
      // The last seed fell in an own house that was empty before it.
      const int opposite = board.opposite_slot(last);
      if (board.slots[opposite] > 0 || rules.empty_capture) {
        capture(opposite);
        capture(last);
      }
    }
    if (row_empty(Side::South) || row_empty(Side::North)) {
      trace.game_over = true;
      sweep_rows();
    }
  }

  bool oware_majority() const {
    const int total = rules.total_seeds();
    const int south = board.store(Side::South), north = board.store(Side::North);
    return 2 * south > total || 2 * north > total || (2 * south == total && 2 * north == total);
  }

  // Can `side` make a move that leaves seeds on the other row (Oware rule 5)?
  bool oware_can_feed(Side side) const {
    for (int i = 0; i < h(); ++i)
      if (board.house(side, i) >= h() - i) return true;
    return false;
  }

  // Oware rules 2-6, with the variant's grand slam and end of game.
  void oware(int from) {
    const Side other = opponent(mover);
    const int last =
        sow(from, [&](int s) { return s == from || s == h() || s == rules.ring_size() - 1; });
    // Rule 3: the opponent's houses holding 2 or 3, backwards from the last seed.
    std::vector<int> run;
    for (int s = last; in_row(s, other) && (board.slots[s] == 2 || board.slots[s] == 3); --s)
      run.push_back(s);
    int left_on_opponent_row = board.seeds_in_houses(other);
    for (int s : run) left_on_opponent_row -= board.slots[s];
    trace.grand_slam = !run.empty() && left_on_opponent_row == 0;
    if (!(trace.grand_slam && rules.oware_rules == OwareRuleSet::Abapa))
      for (int s : run) capture(s);
    board.side_to_move = other;
    // Rule 6 leaves the board as it is; an ended game otherwise gives each row to its owner.
    if (oware_majority()) {
      trace.game_over = true;
    } else if (row_empty(other) || (rules.oware_rules != OwareRuleSet::Awari && row_empty(mover) &&
                                    !oware_can_feed(other))) {
      trace.game_over = true;
      sweep_rows();
    }
  }

  // Congkak rules 2-5: relay sowing.
  void congkak(int from) {
    const Side other = opponent(mover);
    const int own_store = board.store_slot(mover);
    const auto skips = [&](int s) { return s == board.store_slot(other); };
    // Every lap drops a seed in the own store, so a relay ends after at most total_seeds + 1
    // laps; the guard stops a broken rule, never a real move.
    const long seed_limit = static_cast<long>(rules.total_seeds() + 1) * (2 * h() + 2);
    long seeds_sown = 0;
    bool passed_store = false;
    int s = from;
    while (true) {
      s = sow(s, skips);
      const Sowing& sowing = trace.sowings.back();
      for (int k = 0; k + 1 < sowing.seeds; ++k)
        if (sowing.slots[k] == own_store) passed_store = true;
      seeds_sown += sowing.seeds;
      if (s == own_store) {
        trace.extra_turn = true;
        break;
      }
      if (board.slots[s] > 1) {  // the house held seeds: sow them on
        if (seeds_sown > seed_limit) {
          trace.endless = true;
          break;
        }
        continue;
      }
      if (in_row(s, mover) && (passed_store || !rules.no_capture_first_lap)) {
        // The captured seed and the opposite house, even an empty one (solver/rules/README.md,
        // "Congkak captures").
        const int opposite = board.opposite_slot(s);
        capture(opposite);
        capture(s);
      }
      break;
    }
    if (!trace.extra_turn) board.side_to_move = other;
    if (row_empty(board.side_to_move)) {
      trace.game_over = true;
      sweep_rows();
    }
  }
};

}  // namespace

MoveTrace trace_move(const Rules& rules, const Position& before, Move move) {
  TracedMove traced{rules, before, before.side_to_move, {}};
  const int from = before.house_slot(before.side_to_move, move);
  switch (rules.kind) {
    case GameKind::Kalah:
      traced.kalah(from);
      if (!traced.trace.extra_turn) traced.board.side_to_move = opponent(traced.mover);
      break;
    case GameKind::Oware:
      traced.oware(from);
      break;
    case GameKind::Congkak:
      traced.congkak(from);
      break;
  }
  if (traced.trace.game_over) traced.trace.extra_turn = false;
  traced.trace.after = traced.board;
  return std::move(traced.trace);
}

}  // namespace mancala
