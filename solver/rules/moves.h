// Legal moves, applying a move and the end of the game, for every game and variant. The hot
// functions are inline templates on the game kind so that perft and the searches dispatch on the
// kind once, not once per move; `generate_moves` and `apply_move` below dispatch at run time.
//
// Speed (perft runs at about 10^8 applies a second): the rules engines work on a `Board`, a
// 64-byte copy of the position padded to 32 sixteen-bit lanes (lanes.h), so that a whole board
// is one AVX-512 register or two AVX2 registers. A sowing that makes no full lap adds 1 to the
// slots of a contiguous stretch of the ring: one compare against a precomputed "rank" row (the
// order in which each slot receives a seed from a given house) and one masked add. Empty-row tests,
// Oware capture runs and the legal moves are bit masks of the lanes.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#include "solver/rules/lanes.h"
#include "solver/rules/position.h"
#include "solver/rules/rules.h"

namespace mancala {

struct MoveList {
  std::array<Move, kMaxHouses> moves{};
  uint8_t count = 0;

  void push(Move move) { moves[count++] = move; }
  int size() const { return count; }
  bool empty() const { return count == 0; }
  Move operator[](int i) const { return moves[static_cast<size_t>(i)]; }
  const Move* begin() const { return moves.data(); }
  const Move* end() const { return moves.data() + count; }
  bool contains(Move move) const {
    for (Move m : *this)
      if (m == move) return true;
    return false;
  }
};

// What a move did, for highlighting a board and for tests.
struct MoveEffect {
  int last_slot = -1;           // where the last seed fell (Congkak: of the last relay)
  int captured = 0;             // seeds that captures moved to the mover's store
  uint32_t captured_slots = 0;  // bit s set: slot s was emptied by a capture
  bool extra_turn = false;      // the mover moves again
  bool grand_slam = false;      // Oware: the move would have taken every opposing seed
  bool game_over = false;       // the game ended with this move (houses then swept to owners)
  bool endless = false;  // Congkak: the relay guard stopped a sowing (never, under these rules)
  int relays = 0;        // Congkak: how many times the sowing was picked up again
};

namespace detail {

// ---------------------------------------------------------------- Board: a position in lanes

inline constexpr int kLanes = lanes::kLaneCount;
inline constexpr int kInfoLane = kMaxSlots;  // lane 26: houses | side_to_move << 8
inline constexpr uint16_t kNever = 0xFFFF;   // a lane threshold that no count reaches

static_assert(kMaxSlots < kLanes, "the slots and the info lane must fit in 32 lanes");

// Lanes 0..25 are Position::slots, lane 26 holds the house count and the side to move, lanes
// 27..31 are 0:
//
//   lane:  0 .. 25            26                            27 .. 31
//          Position::slots    houses | side_to_move << 8    0
struct Board : lanes::Block {
  Board() = default;
  Board(const lanes::Block& block) : lanes::Block(block) {}  // NOLINT: lanes come back as Blocks

  int houses() const { return lane[kInfoLane] & 0xFF; }
  Side side_to_move() const { return static_cast<Side>(lane[kInfoLane] >> 8); }
  uint16_t operator[](int slot) const { return lane[static_cast<size_t>(slot)]; }
};

inline constexpr uint16_t info_lane(int houses, Side side) {
  return static_cast<uint16_t>(houses | index(side) << 8);
}

inline Board to_board(const Position& p) {
  Board b;
  std::memcpy(b.lane.data(), p.slots.data(), sizeof p.slots);
  b.lane[kInfoLane] = info_lane(p.houses, p.side_to_move);
  return b;
}

inline Position to_position(const Board& b) {
  Position p;
  std::memcpy(p.slots.data(), b.lane.data(), sizeof p.slots);
  p.houses = static_cast<uint8_t>(b.houses());
  p.side_to_move = b.side_to_move();
  return p;
}

// Lane masks of the rows and stores for h houses a side (layout in position.h).
inline uint32_t south_row(int h) {
  return (1u << h) - 1;
}
inline uint32_t north_row(int h) {
  return south_row(h) << (h + 1);
}
inline uint32_t row_mask(int h, Side side) {
  return side == Side::South ? south_row(h) : north_row(h);
}
inline constexpr int first_house(int h, Side side) {
  return side == Side::South ? 0 : h + 1;
}
inline constexpr int store_slot(int h, Side side) {
  return side == Side::South ? h : 2 * h + 1;
}

// The side to move of a board held in lanes.
inline Side side_to_move(const lanes::Vec& v) {
  return static_cast<Side>(lanes::lane_has_bits<kInfoLane>(v, 0x100));
}

// ---------------------------------------------------------------- sowing tables
//
// A sowing of r seeds, r at most one lap, drops one seed in each of the first r slots of the
// sowing order from its house. The tables hold, for every house and every r, the lane mask of
// those slots (bits 0..25) and the slot of the r-th seed (bits 27..31), so a sowing that makes
// no full lap is one table look-up and one masked add. The entry for r = one lap is the mask of
// every slot a lap reaches.

inline constexpr int kLastShift = 27;
inline constexpr uint32_t kSownMask = (1u << kMaxSlots) - 1;

struct SowStep {
  uint32_t entry;
  uint32_t sown() const { return entry & kSownMask; }                 // slots that receive a seed
  int last() const { return static_cast<int>(entry >> kLastShift); }  // slot of the last seed
};

// Kalah and Congkak ring: every slot but the opponent's store; the emptied house itself is sown
// last in each lap (a lap is 2h+1 seeds). Indexed by [h-1][mover][from slot][seeds].
struct RingSowTable {
  std::array<std::array<std::array<std::array<SowStep, kMaxSlots>, kMaxSlots>, 2>, kMaxHouses>
      steps{};
};

inline constexpr RingSowTable make_ring_sow_table() {
  RingSowTable t{};
  for (int h = 1; h <= kMaxHouses; ++h)
    for (int side = 0; side < 2; ++side) {
      const int ring = 2 * h + 2;
      const int skipped = side == 0 ? 2 * h + 1 : h;  // the mover's opponent's store
      for (int from = 0; from < ring; ++from) {
        if (from == skipped) continue;
        uint32_t sown = 0;
        int s = from;
        for (int r = 1; r < ring; ++r) {
          if (++s == ring) s = 0;
          if (s == skipped && ++s == ring) s = 0;
          sown |= 1u << s;
          t.steps[h - 1][side][from][r].entry = sown | static_cast<uint32_t>(s) << kLastShift;
        }
      }
    }
  return t;
}

inline constexpr RingSowTable kRingSow = make_ring_sow_table();

inline const std::array<SowStep, kMaxSlots>& ring_sow(int h, Side mover, int from) {
  return kRingSow.steps[h - 1][index(mover)][from];
}

// Oware: only houses are sown and the emptied house is skipped, so a lap is 2h-1 seeds.
// Indexed by [h-1][from slot][seeds].
struct OwareSowTable {
  std::array<std::array<std::array<SowStep, kMaxSlots>, kMaxSlots>, kMaxHouses> steps{};
};

inline constexpr int oware_slot(int houses, int k) {
  return k + (k >= houses);
}

inline constexpr OwareSowTable make_oware_sow_table() {
  OwareSowTable t{};
  for (int h = 1; h <= kMaxHouses; ++h)
    for (int origin = 0; origin < 2 * h; ++origin) {
      uint32_t sown = 0;
      int k = origin;
      for (int r = 1; r < 2 * h; ++r) {
        if (++k == 2 * h) k = 0;
        const int s = oware_slot(h, k);
        sown |= 1u << s;
        t.steps[h - 1][oware_slot(h, origin)][r].entry = sown | static_cast<uint32_t>(s)
                                                                    << kLastShift;
      }
    }
  return t;
}

inline constexpr OwareSowTable kOwareSow = make_oware_sow_table();

// Feeding thresholds (Oware rule 5): house m of a side feeds with at least h - m seeds.
// Indexed by [h-1][side]; lanes outside that side's row are kNever.
struct FeedThresholds {
  std::array<std::array<lanes::Block, 2>, kMaxHouses> rows{};
};

inline constexpr FeedThresholds make_feed_thresholds() {
  FeedThresholds t{};
  for (int h = 1; h <= kMaxHouses; ++h)
    for (int side = 0; side < 2; ++side) {
      lanes::Block& b = t.rows[h - 1][side];
      for (auto& x : b.lane) x = kNever;
      for (int m = 0; m < h; ++m)
        b.lane[(side == 0 ? 0 : h + 1) + m] = static_cast<uint16_t>(h - m);
    }
  return t;
}

inline constexpr FeedThresholds kFeedThresholds = make_feed_thresholds();

// The outcome of one sowing: the seeds of the last, partial lap (1..lap) went to the slots of
// `step`, and every slot a lap reaches got `laps` more.
struct Sown {
  lanes::Vec board;
  SowStep step;
  int laps;
};

// Empties slot `from` and sows its seeds along `steps` (a table row above), a lap being `lap`
// seeds. Most sowings make no full lap and are a single masked add; whole laps are added in one
// step so a huge house costs no more than a small one.
inline Sown sow(const lanes::Vec& in, int from, int seeds,
                const std::array<SowStep, kMaxSlots>& steps, int lap) {
  lanes::Vec v = lanes::clear_where(in, 1u << from);
  int laps = 0;
  if (seeds > lap) [[unlikely]] {
    laps = (seeds - 1) / lap;
    seeds -= laps * lap;
    v = lanes::add_where(v, steps[static_cast<size_t>(lap)].sown(), static_cast<uint16_t>(laps));
  }
  const SowStep step = steps[static_cast<size_t>(seeds)];
  return Sown{lanes::add_where(v, step.sown(), 1), step, laps};
}

// Settles an ended game: every seed still in a house goes to the store of the row's owner.
inline void sweep_houses_to_owners(Board& b) {
  const int h = b.houses();
  for (Side side : {Side::South, Side::North}) {
    const int base = first_house(h, side);
    int sum = 0;
    for (int i = 0; i < h; ++i) {
      sum += b.lane[base + i];
      b.lane[base + i] = 0;
    }
    uint16_t& store = b.lane[store_slot(h, side)];
    store = static_cast<uint16_t>(store + sum);
  }
}

// ---------------------------------------------------------------- Position helpers
// Used off the hot path (is_game_over, final_outcome).

inline void sweep_houses_to_owners(Position& p) {
  Board b = to_board(p);
  sweep_houses_to_owners(b);
  p = to_position(b);
}

inline bool houses_empty(const Position& p, Side side) {
  const int base = p.first_house(side);
  uint32_t any = 0;
  for (int i = 0; i < p.houses; ++i) any |= p.slots[base + i];
  return any == 0;
}

// The mover's houses as moves, in order, from a lane mask of legal house slots.
inline void push_moves(const Board& b, uint32_t legal_slots, MoveList& list) {
  const int base = first_house(b.houses(), b.side_to_move());
  for (; legal_slots; legal_slots &= legal_slots - 1)
    list.push(static_cast<Move>(std::countr_zero(legal_slots) - base));
}

// The hot functions below take h from the rules, not from the board (a position of a game has
// the game's house count): a constant is cheaper than a read of a board that was just written.

// ---------------------------------------------------------------- Kalah (rules/README.md, "Kalah")

// Rule 5: either row empty ends the game.
inline bool kalah_over(int h, uint32_t nonzero) {
  // `|` rather than `||`: both tests are cheap, and a branch here would be hard to predict.
  return static_cast<int>((nonzero & south_row(h)) == 0) |
         static_cast<int>((nonzero & north_row(h)) == 0);
}

inline bool kalah_game_over(const Position& p) {
  return houses_empty(p, Side::South) || houses_empty(p, Side::North);
}

// Legal moves as a lane mask of the mover's non-empty houses; none once the game is over.
inline uint32_t kalah_legal_slots(const Rules& rules, const Board& b) {
  const int h = rules.houses;
  const lanes::Vec v = lanes::load(b);
  const uint32_t nonzero = lanes::nonzero_mask(v);
  if (kalah_over(h, nonzero)) return 0;
  return nonzero & row_mask(h, side_to_move(v));
}

// Applies the move that empties house slot `from` of the side to move.
template <bool kReport>
inline Board kalah_apply(const Rules& rules, const Board& in, int from, MoveEffect* effect) {
  const int h = rules.houses;
  const Side mover = in.side_to_move();
  const int base = first_house(h, mover);
  const int own_store = base + h;
  const Sown sown = sow(lanes::load(in), from, in[from], ring_sow(h, mover, from), 2 * h + 1);
  const int last = sown.step.last();
  const bool extra_turn = last == own_store;
  // Rule 4: the last seed in a house of the mover that was empty before it. The counts after the
  // sowing follow from the input board (`in`), so no lane has to be read back: the last slot got
  // laps + 1 seeds, and the emptied house counts as empty. Whether a capture happens is close to
  // a coin toss, so it is computed without branches (bitwise & on the conditions) and applied as
  // a masked clear and add that do nothing when there is no capture.
  const bool in_own_row = static_cast<unsigned>(last - base) < static_cast<unsigned>(h);
  const int opposite = (2 * h - last) & (kLanes - 1);  // any lane will do when not in_own_row
  const int opposite_seeds =
      in[opposite] + sown.laps + static_cast<int>(sown.step.sown() >> opposite & 1);
  const bool capture = in_own_row & (sown.laps == 0) & ((last == from) | (in[last] == 0)) &
                       ((opposite_seeds != 0) | rules.empty_capture);
  const uint32_t if_capture = 0u - static_cast<uint32_t>(capture);  // all ones or 0
  const uint32_t captured_slots = ((1u << last) | (1u << opposite)) & if_capture;
  const int captured = static_cast<int>(static_cast<uint32_t>(opposite_seeds + 1) & if_capture);
  lanes::Vec v = lanes::clear_where(sown.board, captured_slots);
  v = lanes::add_where(v, 1u << own_store, static_cast<uint16_t>(captured));
  v = lanes::set_lane(v, kInfoLane, info_lane(h, extra_turn ? mover : opponent(mover)));
  // Rule 5. Seeds only leave a row by the mover's sowing or by a capture, so the nonzero lanes
  // are the sown board's minus the captured ones (the store that gains is in no row).
  const bool over = kalah_over(h, lanes::nonzero_mask(sown.board) & ~captured_slots);
  Board out = lanes::store(v);
  if (over) [[unlikely]]
    sweep_houses_to_owners(out);
  if constexpr (kReport) {
    effect->captured = captured;
    effect->captured_slots = captured_slots;
    effect->last_slot = last;
    effect->extra_turn = extra_turn && !over;
    effect->game_over = over;
  }
  return out;
}

// ---------------------------------------------------------------- Oware (solver/rules/README.md,
// "Oware") Oware sows only into houses. `k` below numbers the 2h houses round the ring (South's
// 0..h-1, North's h..2h-1); its slot is k, or k+1 past South's store.

// Rule 6: more than half of all seeds in one store, or exactly half in both.
inline bool oware_majority_reached(int total, int south_store, int north_store) {
  return 2 * south_store > total || 2 * north_store > total ||
         (2 * south_store == total && 2 * north_store == total);
}

inline bool oware_majority_reached(const Rules& rules, const Position& p) {
  return oware_majority_reached(rules.total_seeds(), p.store(Side::South), p.store(Side::North));
}

inline bool oware_majority_reached(const Rules& rules, const Board& b) {
  const int h = rules.houses;
  return oware_majority_reached(rules.total_seeds(), b[store_slot(h, Side::South)],
                                b[store_slot(h, Side::North)]);
}

// Rule 5: the mover's houses whose sowing reaches the opponent's row (h - m seeds or more).
inline uint32_t oware_feeding_slots(int h, Side mover, const lanes::Vec& v) {
  return lanes::at_least_mask(v, lanes::load(kFeedThresholds.rows[h - 1][index(mover)]));
}

struct OwareSowing {
  lanes::Vec board;  // after sowing and capture, side to move unchanged
  int last_slot;     // where the last seed fell
  int captured;      // seeds taken
  uint32_t captured_slots;
  uint32_t nonzero;  // lanes of the non-empty houses afterwards (stores excluded)
  bool grand_slam;
};

// Sowing (rule 2) and capture (rules 3 and 4, or their variant) from house slot `from`, without
// the turn change.
inline OwareSowing oware_sow_and_capture(const Rules& rules, const Board& in, int from) {
  const int h = rules.houses;
  const Side mover = in.side_to_move();
  const Sown sown = sow(lanes::load(in), from, in[from], kOwareSow.steps[h - 1][from], 2 * h - 1);
  const int last = sown.step.last();
  // Rule 3: the run of opponent's houses holding 2 or 3 that ends at the last seed. Its lanes are
  // the leading ones once bit `last` is shifted to the top; a store or the row's start ends it,
  // and a last seed outside the opponent's row gives an empty run. Captures are frequent and
  // hard to predict, so everything below is branch-free: an empty run clears and adds nothing.
  const uint32_t opponent_row = row_mask(h, opponent(mover));
  const uint32_t houses = south_row(h) | north_row(h);
  const uint32_t threes = lanes::equal_mask(sown.board, 3);
  const uint32_t twos_threes = (lanes::equal_mask(sown.board, 2) | threes) & opponent_row;
  const int run = std::countl_one(twos_threes << (31 - last));
  const uint32_t run_slots = ((1u << run) - 1) << (last + 1 - run);
  const uint32_t nonzero = lanes::nonzero_mask(sown.board) & houses;
  // Rule 4: would this capture take every seed on the opponent's side?
  const bool grand_slam = (run != 0) & ((nonzero & opponent_row & ~run_slots) == 0);
  const bool captures = !(grand_slam & (rules.oware_rules == OwareRuleSet::Abapa));
  const uint32_t taken_slots = run_slots & (0u - static_cast<uint32_t>(captures));
  const int taken = 2 * std::popcount(taken_slots) + std::popcount(taken_slots & threes);
  lanes::Vec v = lanes::clear_where(sown.board, taken_slots);
  v = lanes::add_where(v, 1u << store_slot(h, mover), static_cast<uint16_t>(taken));
  return OwareSowing{v, last, taken, taken_slots, nonzero & ~taken_slots, grand_slam};
}

// Is the game over for the side to move (rules 5 and 6, and the awari and grand-slam-captures
// endings), the majority rule aside? `nonzero` is the lane mask of non-empty houses.
inline bool oware_no_move(const Rules& rules, Side mover, const lanes::Vec& v, uint32_t nonzero) {
  const int h = rules.houses;
  if ((nonzero & row_mask(h, mover)) == 0) return true;
  if (rules.oware_rules == OwareRuleSet::Awari || (nonzero & row_mask(h, opponent(mover))) != 0)
    return false;
  return oware_feeding_slots(h, mover, v) == 0;  // rule 5: no move feeds
}

inline bool oware_game_over(const Rules& rules, const Position& p) {
  const Board b = to_board(p);
  const lanes::Vec v = lanes::load(b);
  return oware_majority_reached(rules, b) ||
         oware_no_move(rules, b.side_to_move(), v, lanes::nonzero_mask(v));
}

inline uint32_t oware_legal_slots(const Rules& rules, const Board& b) {
  const int h = rules.houses;
  const lanes::Vec v = lanes::load(b);
  const Side mover = side_to_move(v);
  if (oware_majority_reached(rules, b)) return 0;
  const uint32_t nonzero = lanes::nonzero_mask(v);
  const uint32_t own = nonzero & row_mask(h, mover);
  const uint32_t opponent_row = row_mask(h, opponent(mover));
  if (rules.oware_rules == OwareRuleSet::Awari) {
    // A move that leaves the opponent without seeds is legal only if every move does.
    uint32_t legal = 0;
    for (uint32_t rest = own; rest; rest &= rest - 1) {
      const int slot = std::countr_zero(rest);
      if (oware_sow_and_capture(rules, b, slot).nonzero & opponent_row) legal |= 1u << slot;
    }
    return legal ? legal : own;
  }
  if ((nonzero & opponent_row) == 0) return oware_feeding_slots(h, mover, v);  // rule 5: must feed
  return own;
}

template <bool kReport>
inline Board oware_apply(const Rules& rules, const Board& in, int from, MoveEffect* effect) {
  const int h = rules.houses;
  const Side mover = in.side_to_move();
  const OwareSowing sowing = oware_sow_and_capture(rules, in, from);
  const Side next = opponent(mover);
  const lanes::Vec v = lanes::set_lane(sowing.board, kInfoLane, info_lane(h, next));
  // Only the mover's store can have grown, by the seeds taken: rule 6 is a scalar test.
  const int own_store = in[store_slot(h, mover)] + sowing.captured;
  const int other_store = in[store_slot(h, next)];
  const bool majority = oware_majority_reached(rules.total_seeds(), own_store, other_store);
  // An ended game hands the seeds left to the owners of their rows: the mover who cannot feed
  // keeps its own (rule 5); under grand-slam-captures each side keeps its own; under awari the
  // side left without seeds loses the rest, all of which lie on the other row. Rule 6 instead
  // leaves the board as it is: the winner is already decided.
  const bool over = majority || oware_no_move(rules, next, v, sowing.nonzero);
  Board out = lanes::store(v);
  if (over && !majority) [[unlikely]]
    sweep_houses_to_owners(out);
  if constexpr (kReport) {
    effect->last_slot = sowing.last_slot;
    effect->captured = sowing.captured;
    effect->captured_slots = sowing.captured_slots;
    effect->grand_slam = sowing.grand_slam;
    effect->game_over = over;
  }
  return out;
}

// ---------------------------------------------------------------- Congkak (rules/README.md,
// "Congkak")

inline bool congkak_game_over(const Position& p) {
  return houses_empty(p, p.side_to_move);
}

// Rule 5: no legal move once the mover's row is empty.
inline uint32_t congkak_legal_slots(const Rules& rules, const Board& b) {
  const lanes::Vec v = lanes::load(b);
  return lanes::nonzero_mask(v) & row_mask(rules.houses, side_to_move(v));
}

template <bool kReport>
inline Board congkak_apply(const Rules& rules, const Board& in, int from, MoveEffect* effect) {
  const int h = rules.houses;
  const Side mover = in.side_to_move();
  const int base = first_house(h, mover);
  const int own_store = base + h;
  const int lap = 2 * h + 1;
  // Each lap round the ring drops a seed in the mover's store, so a relay ends after at most
  // total_seeds laps (rules/README.md, Congkak 4). The guard only protects against a broken
  // invariant.
  const long step_limit = static_cast<long>(rules.total_seeds() + 1) * (lap + 1);
  long steps = 0;
  bool passed_store = false;
  bool extra_turn = false;
  bool endless = false;
  int relays = 0;
  int s = from;
  // Each relay is one vector sowing; the board goes through memory between relays because the
  // next decision reads single slots.
  Board b = in;
  while (true) {
    const int seeds = b[s];
    const Sown sown = sow(lanes::load(b), s, seeds, ring_sow(h, mover, s), lap);
    b = lanes::store(sown.board);
    s = sown.step.last();
    // A seed fell in the own store without being the last one of this sowing.
    if (sown.laps > 0 || ((sown.step.sown() >> own_store & 1) != 0 && s != own_store))
      passed_store = true;
    steps += seeds;
    if (s == own_store) {
      extra_turn = true;
      break;
    }
    if (b[s] > 1) {  // the house held seeds before: pick them all up and sow on
      if (steps > step_limit) {
        endless = true;
        break;
      }
      ++relays;
      continue;
    }
    // The last seed fell in an empty house. In the mover's own row it captures.
    if (static_cast<unsigned>(s - base) < static_cast<unsigned>(h) &&
        (passed_store || !rules.no_capture_first_lap)) {
      const int opposite = 2 * h - s;
      const int captured = b[opposite] + 1;
      if constexpr (kReport) {
        effect->captured = captured;
        effect->captured_slots = (1u << s) | (1u << opposite);
      }
      b.lane[own_store] = static_cast<uint16_t>(b.lane[own_store] + captured);
      b.lane[s] = 0;
      b.lane[opposite] = 0;
    }
    break;
  }
  if (!extra_turn) b.lane[kInfoLane] = info_lane(h, opponent(mover));
  // Rule 5: the player to move has no seeds; the opponent takes those on its own row.
  const bool over = congkak_legal_slots(rules, b) == 0;
  if (over) sweep_houses_to_owners(b);
  if constexpr (kReport) {
    effect->last_slot = s;
    effect->extra_turn = extra_turn && !over;
    effect->game_over = over;
    effect->endless = endless;
    effect->relays = relays;
  }
  return b;
}

}  // namespace detail

// Compile-time dispatch for the hot paths on a Board (perft): the legal moves as a lane mask of
// the mover's house slots, and applying the move that empties house slot `from`.
template <GameKind K>
inline uint32_t legal_slots(const Rules& rules, const detail::Board& b) {
  if constexpr (K == GameKind::Kalah)
    return detail::kalah_legal_slots(rules, b);
  else if constexpr (K == GameKind::Oware)
    return detail::oware_legal_slots(rules, b);
  else
    return detail::congkak_legal_slots(rules, b);
}

template <GameKind K, bool kReport = false>
inline detail::Board apply_slot(const Rules& rules, const detail::Board& b, int from,
                                MoveEffect* effect = nullptr) {
  if constexpr (K == GameKind::Kalah)
    return detail::kalah_apply<kReport>(rules, b, from, effect);
  else if constexpr (K == GameKind::Oware)
    return detail::oware_apply<kReport>(rules, b, from, effect);
  else
    return detail::congkak_apply<kReport>(rules, b, from, effect);
}

// Compile-time dispatch on a Position (searches).
template <GameKind K>
inline void generate_moves(const Rules& rules, const Position& p, MoveList& list) {
  const detail::Board b = detail::to_board(p);
  detail::push_moves(b, legal_slots<K>(rules, b), list);
}

template <GameKind K, bool kReport = false>
inline Position apply_move(const Rules& rules, const Position& p, Move move,
                           MoveEffect* effect = nullptr) {
  const int from = detail::first_house(rules.houses, p.side_to_move) + move;
  return detail::to_position(apply_slot<K, kReport>(rules, detail::to_board(p), from, effect));
}

// Did the move that made `after` (holding `seeds_on_board` seeds in its houses) end the game? A
// cheaper test than generating the moves: in Kalah and Congkak an ended game is settled at once
// (every house swept to a store), so an empty board says it; the Oware majority rule leaves seeds
// on the board, so there the legal moves tell.
template <GameKind K>
inline bool ended_by_move(const Rules& rules, const detail::Board& after, int seeds_on_board) {
  if constexpr (K == GameKind::Oware)
    return legal_slots<K>(rules, after) == 0;
  else
    return seeds_on_board == 0;
}
template <GameKind K>
inline bool ended_by_move(const Rules& rules, const Position& after, int seeds_on_board) {
  if constexpr (K == GameKind::Oware)
    return ended_by_move<K>(rules, detail::to_board(after), seeds_on_board);
  else
    return seeds_on_board == 0;
}

// Run-time dispatch for everything else.
MoveList generate_moves(const Rules& rules, const Position& position);
// Applies a legal move. The result is settled: if the game ended, the houses are already swept.
Position apply_move(const Rules& rules, const Position& position, Move move,
                    MoveEffect* effect = nullptr);
bool is_game_over(const Rules& rules, const Position& position);

enum class Winner : uint8_t { South, North, Draw };

struct Outcome {
  int south_store = 0;
  int north_store = 0;
  Winner winner = Winner::Draw;
  int difference() const { return south_store - north_store; }  // South's minus North's
  // The final lead of `side`: its store minus the other's.
  int lead(Side side) const { return side == Side::South ? difference() : -difference(); }
  // The outcome of these final stores: the larger store wins, equal stores draw.
  static Outcome from_stores(int south, int north) {
    return {south, north,
            south > north   ? Winner::South
            : south < north ? Winner::North
                            : Winner::Draw};
  }
};

// The final stores of an ended game. A position that is over but not yet settled (one typed in
// with a row already empty) is settled first: each row's seeds go to its owner, except after
// the Oware majority rule, which leaves the seeds on the board to nobody.
Outcome final_outcome(const Rules& rules, const Position& position);

}  // namespace mancala
