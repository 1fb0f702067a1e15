// Legal moves, applying a move and the end of the game, for every game and variant. The hot
// functions are inline templates on the game kind so that perft and the searches dispatch on the
// kind once, not once per move; `generate_moves` and `apply_move` below dispatch at run time.
//
// Speed (perft runs at about 10^8 applies a second): the rules engines work on a `Board`, a
// 64-byte copy of the position padded to 32 sixteen-bit lanes, so that a whole board is one
// AVX-512 register (lanes.h-style helpers in `detail::lanes`, with a portable fallback that
// loops over the lanes). A sowing that makes no full lap adds 1 to the slots of a contiguous
// stretch of the ring: one compare against a precomputed "rank" row (the order in which each
// slot receives a seed from a given house) and one masked add. Empty-row tests, Oware capture
// runs and the legal moves are bit masks of the lanes.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__AVX512BW__)
#include <immintrin.h>
#endif

#include "solver/position.h"
#include "solver/rules.h"

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
  bool endless = false;         // Congkak: the relay guard stopped a sowing (never, under rules.md)
  int relays = 0;               // Congkak: how many times the sowing was picked up again
};

namespace detail {

// ---------------------------------------------------------------- Board: a position in lanes

inline constexpr int kLanes = 32;
inline constexpr int kInfoLane = kMaxSlots;  // lane 26: houses | side_to_move << 8
inline constexpr uint16_t kNever = 0xFFFF;   // rank of a slot that a sowing never reaches

static_assert(kMaxSlots < kLanes, "the slots and the info lane must fit in 32 lanes");

// Lanes 0..25 are Position::slots, lane 26 holds the house count and the side to move, lanes
// 27..31 are 0. Every lane mask below is a uint32_t with bit i for lane i.
struct alignas(64) Board {
  std::array<uint16_t, kLanes> lane{};

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
inline uint32_t south_row(int h) { return (1u << h) - 1; }
inline uint32_t north_row(int h) { return south_row(h) << (h + 1); }
inline uint32_t row_mask(int h, Side side) { return side == Side::South ? south_row(h) : north_row(h); }
inline uint32_t store_lanes(int h) { return (1u << h) | (1u << (2 * h + 1)); }
inline int first_house(int h, Side side) { return side == Side::South ? 0 : h + 1; }
inline int store_slot(int h, Side side) { return side == Side::South ? h : 2 * h + 1; }

// ---------------------------------------------------------------- lane operations

namespace lanes {

#if defined(__AVX512BW__)

using Vec = __m512i;

inline Vec load(const Board& b) { return _mm512_load_si512(b.lane.data()); }
inline Board store(Vec v) {
  Board b;
  _mm512_store_si512(b.lane.data(), v);
  return b;
}
inline uint32_t nonzero_mask(Vec v) { return _mm512_test_epi16_mask(v, v); }
inline uint32_t equal_mask(Vec v, uint16_t x) { return _mm512_cmpeq_epi16_mask(v, _mm512_set1_epi16(static_cast<short>(x))); }
inline uint32_t above_mask(Vec v, uint16_t x) { return _mm512_cmpgt_epu16_mask(v, _mm512_set1_epi16(static_cast<short>(x))); }
inline uint32_t at_most_mask(Vec v, uint16_t x) { return _mm512_cmple_epu16_mask(v, _mm512_set1_epi16(static_cast<short>(x))); }
inline uint32_t at_least_mask(Vec v, Vec threshold) { return _mm512_cmpge_epu16_mask(v, threshold); }
inline Vec add_where(Vec v, uint32_t mask, uint16_t x) {
  return _mm512_mask_add_epi16(v, mask, v, _mm512_set1_epi16(static_cast<short>(x)));
}
inline Vec clear_where(Vec v, uint32_t mask) { return _mm512_maskz_mov_epi16(~mask, v); }
inline Vec set_lane(Vec v, int lane, uint16_t x) {
  return _mm512_mask_set1_epi16(v, 1u << lane, static_cast<short>(x));
}
inline Vec add(Vec a, Vec b) { return _mm512_add_epi16(a, b); }
inline Side side_to_move(Vec v) {
  return static_cast<Side>(_mm512_test_epi16_mask(v, _mm512_set1_epi16(0x100)) >> kInfoLane & 1);
}
inline Vec zero() { return _mm512_setzero_si512(); }

#else  // portable: plain loops over the lanes, which compilers vectorise where they can

struct Vec {
  std::array<uint16_t, kLanes> l;
};

inline Vec load(const Board& b) { return Vec{b.lane}; }
inline Board store(const Vec& v) {
  Board b;
  b.lane = v.l;
  return b;
}
template <typename Pred>
inline uint32_t mask_of(const Vec& v, Pred pred) {
  uint32_t m = 0;
  for (int i = 0; i < kLanes; ++i) m |= static_cast<uint32_t>(pred(v.l[i], i)) << i;
  return m;
}
inline uint32_t nonzero_mask(const Vec& v) { return mask_of(v, [](uint16_t a, int) { return a != 0; }); }
inline uint32_t equal_mask(const Vec& v, uint16_t x) { return mask_of(v, [x](uint16_t a, int) { return a == x; }); }
inline uint32_t above_mask(const Vec& v, uint16_t x) { return mask_of(v, [x](uint16_t a, int) { return a > x; }); }
inline uint32_t at_most_mask(const Vec& v, uint16_t x) { return mask_of(v, [x](uint16_t a, int) { return a <= x; }); }
inline uint32_t at_least_mask(const Vec& v, const Vec& t) {
  return mask_of(v, [&t](uint16_t a, int i) { return a >= t.l[i]; });
}
inline Vec add_where(Vec v, uint32_t mask, uint16_t x) {
  for (int i = 0; i < kLanes; ++i)
    if (mask >> i & 1) v.l[i] = static_cast<uint16_t>(v.l[i] + x);
  return v;
}
inline Vec clear_where(Vec v, uint32_t mask) {
  for (int i = 0; i < kLanes; ++i)
    if (mask >> i & 1) v.l[i] = 0;
  return v;
}
inline Vec set_lane(Vec v, int lane, uint16_t x) {
  v.l[lane] = x;
  return v;
}
inline Vec add(Vec a, const Vec& b) {
  for (int i = 0; i < kLanes; ++i) a.l[i] = static_cast<uint16_t>(a.l[i] + b.l[i]);
  return a;
}
inline Vec zero() { return Vec{}; }
inline Side side_to_move(const Vec& v) { return static_cast<Side>(v.l[kInfoLane] >> 8); }

#endif

}  // namespace lanes

// ---------------------------------------------------------------- sowing tables
//
// rank[s] is the 1-based position of slot s in the sowing order from a given house: a sowing of
// r < one lap seeds reaches exactly the slots with rank <= r. Slots that are never sown get
// kNever; a lap is the largest rank.

// Kalah and Congkak ring: every slot but the opponent's store. The emptied house itself is sown
// last in each lap (rank 2h+1). Indexed by [h-1][mover][from slot].
struct RingRanks {
  std::array<std::array<std::array<Board, kMaxSlots>, 2>, kMaxHouses> rows{};
};

inline constexpr RingRanks make_ring_ranks() {
  RingRanks t{};
  for (int h = 1; h <= kMaxHouses; ++h)
    for (int side = 0; side < 2; ++side) {
      const int ring = 2 * h + 2;
      const int skipped = side == 0 ? 2 * h + 1 : h;  // the mover's opponent's store
      for (int from = 0; from < ring; ++from) {
        Board& b = t.rows[h - 1][side][from];
        for (auto& x : b.lane) x = kNever;
        if (from == skipped) continue;
        int s = from;
        for (int rank = 1; rank < ring; ++rank) {
          if (++s == ring) s = 0;
          if (s == skipped && ++s == ring) s = 0;
          b.lane[s] = static_cast<uint16_t>(rank);
        }
      }
    }
  return t;
}

inline constexpr RingRanks kRingRanks = make_ring_ranks();

inline const Board& ring_ranks(int h, Side mover, int from) {
  return kRingRanks.rows[h - 1][index(mover)][from];
}

// The slot that the rem-th seed (1 <= rem <= 2h+1) sown from `from` lands in, skipping the
// opponent's store: the same as the slot of rank rem, without a table look-up.
inline int ring_slot_at(int h, Side mover, int from, int rem) {
  const int ring = 2 * h + 2;
  const int skipped = store_slot(h, opponent(mover));
  const int skipped_ahead = skipped > from ? skipped : skipped + ring;  // reached after `from`
  int s = from + rem;
  if (s >= skipped_ahead) ++s;
  if (s >= ring) s -= ring;
  return s;
}

// Oware: only houses are sown and the emptied house is skipped, so a lap is 2h-1 seeds.
// Indexed by [h-1][k], k the house number round the ring (South's 0..h-1, North's h..2h-1).
struct OwareRanks {
  std::array<std::array<Board, 2 * kMaxHouses>, kMaxHouses> rows{};
};

inline constexpr int oware_slot(int houses, int k) { return k + (k >= houses); }

inline constexpr OwareRanks make_oware_ranks() {
  OwareRanks t{};
  for (int h = 1; h <= kMaxHouses; ++h)
    for (int origin = 0; origin < 2 * h; ++origin) {
      Board& b = t.rows[h - 1][origin];
      for (auto& x : b.lane) x = kNever;
      int k = origin;
      for (int rank = 1; rank < 2 * h; ++rank) {
        if (++k == 2 * h) k = 0;
        b.lane[oware_slot(h, k)] = static_cast<uint16_t>(rank);
      }
    }
  return t;
}

inline constexpr OwareRanks kOwareRanks = make_oware_ranks();

// Feeding thresholds (Oware rule 5): house m of a side feeds with at least h - m seeds.
// Indexed by [h-1][side]; lanes outside that side's row are kNever.
struct FeedThresholds {
  std::array<std::array<Board, 2>, kMaxHouses> rows{};
};

inline constexpr FeedThresholds make_feed_thresholds() {
  FeedThresholds t{};
  for (int h = 1; h <= kMaxHouses; ++h)
    for (int side = 0; side < 2; ++side) {
      Board& b = t.rows[h - 1][side];
      for (auto& x : b.lane) x = kNever;
      for (int m = 0; m < h; ++m) b.lane[(side == 0 ? 0 : h + 1) + m] = static_cast<uint16_t>(h - m);
    }
  return t;
}

inline constexpr FeedThresholds kFeedThresholds = make_feed_thresholds();

// Sows `seeds` from slot `from` (already emptied in v) along a rank row whose lap is `lap`
// seeds. Most sowings make no full lap and are a single masked add; whole laps are added in one
// step so a huge house costs no more than a small one. Returns the seeds of the last, partial
// lap (1..lap) through `rem` and the number of whole laps through `laps`.
inline lanes::Vec sow_by_rank(lanes::Vec v, const Board& rank_row, int seeds, int lap, int& laps,
                              int& rem) {
  const lanes::Vec rank = lanes::load(rank_row);
  laps = 0;
  rem = seeds;
  if (seeds > lap) [[unlikely]] {
    laps = (seeds - 1) / lap;
    rem = seeds - laps * lap;
    v = lanes::add_where(v, lanes::at_most_mask(rank, static_cast<uint16_t>(lap)),
                         static_cast<uint16_t>(laps));
  }
  return lanes::add_where(v, lanes::at_most_mask(rank, static_cast<uint16_t>(rem)), 1);
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

// ---------------------------------------------------------------- Kalah (rules.md, "Kalah")

// Rule 5: either row empty ends the game.
inline bool kalah_over(int h, uint32_t nonzero) {
  return ((nonzero & south_row(h)) == 0) | ((nonzero & north_row(h)) == 0);
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
  return nonzero & row_mask(h, lanes::side_to_move(v));
}

template <bool kReport>
inline Board kalah_apply(const Rules& rules, const Board& in, Move move, MoveEffect* effect) {
  const int h = rules.houses;
  const Side mover = in.side_to_move();
  const int base = first_house(h, mover);
  const int own_store = base + h;
  const int from = base + move;
  const Board& rank = ring_ranks(h, mover, from);
  int laps, rem;
  lanes::Vec v = lanes::clear_where(lanes::load(in), 1u << from);
  v = sow_by_rank(v, rank, in[from], 2 * h + 1, laps, rem);
  const int last = ring_slot_at(h, mover, from, rem);
  const bool extra_turn = last == own_store;
  // Rule 4: the last seed in a house of the mover that was empty before it. The counts after the
  // sowing follow from the input board (`in`), so no lane has to be read back from v: the last
  // slot got laps + 1 seeds, and the emptied house counts as empty. Whether a capture happens is
  // close to a coin toss, so it is computed without branches (bitwise & on the conditions) and
  // applied as a masked clear and add that do nothing when `capture` is false.
  const bool in_own_row = static_cast<unsigned>(last - base) < static_cast<unsigned>(h);
  const int opposite = (2 * h - last) & (kLanes - 1);  // any lane will do when not in_own_row
  const int opposite_seeds = in[opposite] + laps + (rank[opposite] <= rem);
  const bool capture = in_own_row & (laps == 0) & ((last == from) | (in[last] == 0)) &
                       ((opposite_seeds != 0) | rules.empty_capture);
  const uint32_t if_capture = 0u - static_cast<uint32_t>(capture);  // all ones or 0: no branch
  const uint32_t captured_slots = ((1u << last) | (1u << opposite)) & if_capture;
  const int captured = static_cast<int>(static_cast<uint32_t>(opposite_seeds + 1) & if_capture);
  v = lanes::clear_where(v, captured_slots);
  v = lanes::add_where(v, 1u << own_store, static_cast<uint16_t>(captured));
  if constexpr (kReport) {
    effect->captured = captured;
    effect->captured_slots = captured_slots;
  }
  v = lanes::set_lane(v, kInfoLane, info_lane(h, extra_turn ? mover : opponent(mover)));
  const bool over = kalah_over(h, lanes::nonzero_mask(v));
  Board out = lanes::store(v);
  if (over) [[unlikely]] sweep_houses_to_owners(out);
  if constexpr (kReport) {
    effect->last_slot = last;
    effect->extra_turn = extra_turn && !over;
    effect->game_over = over;
  }
  return out;
}

// ---------------------------------------------------------------- Oware (rules.md, "Oware")
// Oware sows only into houses. `k` below numbers the 2h houses round the ring (South's 0..h-1,
// North's h..2h-1); its slot is k, or k+1 past South's store.

// Rule 6: more than half of all seeds in one store, or exactly half in both.
inline bool oware_majority_reached(const Rules& rules, const Position& p) {
  const int total = rules.total_seeds();
  const int south = p.store(Side::South), north = p.store(Side::North);
  return 2 * south > total || 2 * north > total || (2 * south == total && 2 * north == total);
}

inline bool oware_majority_reached(const Rules& rules, int h, const lanes::Vec& v) {
  const int total = rules.total_seeds();
  const uint32_t stores = store_lanes(h);
  const uint16_t half = static_cast<uint16_t>(total / 2);
  if (lanes::above_mask(v, half) & stores) return true;  // 2 * store > total
  return total % 2 == 0 && (lanes::equal_mask(v, half) & stores) == stores;
}

// Rule 5: the mover's houses whose sowing reaches the opponent's row (h - m seeds or more).
inline uint32_t oware_feeding_slots(int h, Side mover, const lanes::Vec& v) {
  return lanes::at_least_mask(v, lanes::load(kFeedThresholds.rows[h - 1][index(mover)]));
}

struct OwareSowing {
  lanes::Vec board;  // after sowing and capture, side to move unchanged
  int last_house;    // k of the last seed
  int captured;      // seeds taken
  uint32_t captured_slots;
  bool grand_slam;
};

// Sowing (rule 2) and capture (rules 3 and 4, or their variant), without the turn change.
inline OwareSowing oware_sow_and_capture(const Rules& rules, const Board& in, Move move) {
  const int h = rules.houses;
  const Side mover = in.side_to_move();
  const int origin = (mover == Side::South ? 0 : h) + move;
  const int from = oware_slot(h, origin);
  int laps, rem;
  lanes::Vec v = lanes::clear_where(lanes::load(in), 1u << from);
  v = sow_by_rank(v, kOwareRanks.rows[h - 1][origin], in[from], 2 * h - 1, laps, rem);
  int k = origin + rem;  // rem < 2h: the partial lap never comes back to the origin
  if (k >= 2 * h) k -= 2 * h;
  const int last = oware_slot(h, k);
  // Rule 3: the run of opponent's houses holding 2 or 3 that ends at the last seed. Its lanes are
  // the leading ones once bit `last` is shifted to the top; a store or the row's start ends it,
  // and a last seed outside the opponent's row gives an empty run. Captures are frequent and
  // hard to predict, so everything below is branch-free: an empty run clears and adds nothing.
  const uint32_t opponent_row = row_mask(h, opponent(mover));
  const uint32_t threes = lanes::equal_mask(v, 3);
  const uint32_t twos_threes = (lanes::equal_mask(v, 2) | threes) & opponent_row;
  const int run = std::countl_one(twos_threes << (31 - last));
  const uint32_t run_slots = ((1u << run) - 1) << (last + 1 - run);
  // Rule 4: would this capture take every seed on the opponent's side?
  const bool grand_slam = (run != 0) & ((lanes::nonzero_mask(v) & opponent_row & ~run_slots) == 0);
  const bool captures = !(grand_slam & (rules.oware_rules == OwareRuleSet::Abapa));
  const uint32_t taken_slots = run_slots & (0u - static_cast<uint32_t>(captures));
  const int taken = 2 * std::popcount(taken_slots) + std::popcount(taken_slots & threes);
  v = lanes::clear_where(v, taken_slots);
  v = lanes::add_where(v, 1u << store_slot(h, mover), static_cast<uint16_t>(taken));
  return OwareSowing{v, k, taken, taken_slots, grand_slam};
}

// Is the game over for the side to move (rules 5 and 6, and the awari and grand-slam-captures
// endings), the majority rule aside? `nonzero` is the lane mask of non-empty slots.
inline bool oware_no_move(const Rules& rules, int h, Side mover, const lanes::Vec& v, uint32_t nonzero) {
  if ((nonzero & row_mask(h, mover)) == 0) return true;
  if (rules.oware_rules == OwareRuleSet::Awari || (nonzero & row_mask(h, opponent(mover))) != 0)
    return false;
  return oware_feeding_slots(h, mover, v) == 0;  // rule 5: no move feeds
}

inline bool oware_game_over(const Rules& rules, const Position& p) {
  const Board b = to_board(p);
  const lanes::Vec v = lanes::load(b);
  return oware_majority_reached(rules, b.houses(), v) ||
         oware_no_move(rules, b.houses(), b.side_to_move(), v, lanes::nonzero_mask(v));
}

inline uint32_t oware_legal_slots(const Rules& rules, const Board& b) {
  const int h = rules.houses;
  const lanes::Vec v = lanes::load(b);
  const Side mover = lanes::side_to_move(v);
  if (oware_majority_reached(rules, h, v)) return 0;
  const uint32_t nonzero = lanes::nonzero_mask(v);
  const uint32_t own = nonzero & row_mask(h, mover);
  const uint32_t opponent_row = row_mask(h, opponent(mover));
  if (rules.oware_rules == OwareRuleSet::Awari) {
    // A move that leaves the opponent without seeds is legal only if every move does.
    uint32_t legal = 0;
    for (uint32_t rest = own; rest; rest &= rest - 1) {
      const int slot = std::countr_zero(rest);
      const OwareSowing s = oware_sow_and_capture(rules, b, static_cast<Move>(slot - first_house(h, mover)));
      if (lanes::nonzero_mask(s.board) & opponent_row) legal |= 1u << slot;
    }
    return legal ? legal : own;
  }
  if ((nonzero & opponent_row) == 0) return oware_feeding_slots(h, mover, v);  // rule 5: must feed
  return own;
}

template <bool kReport>
inline Board oware_apply(const Rules& rules, const Board& in, Move move, MoveEffect* effect) {
  const int h = rules.houses;
  const OwareSowing sowing = oware_sow_and_capture(rules, in, move);
  const Side next = opponent(in.side_to_move());
  const lanes::Vec v = lanes::set_lane(sowing.board, kInfoLane, info_lane(h, next));
  // An ended game hands the seeds left to the owners of their rows: the mover who cannot feed
  // keeps its own (rule 5); under grand-slam-captures each side keeps its own; under awari the
  // side left without seeds loses the rest, all of which lie on the other row. Rule 6 instead
  // leaves the board as it is: the winner is already decided.
  const bool majority = oware_majority_reached(rules, h, v);
  const bool over = majority || oware_no_move(rules, h, next, v, lanes::nonzero_mask(v));
  Board out = lanes::store(v);
  if (over && !majority) [[unlikely]] sweep_houses_to_owners(out);
  if constexpr (kReport) {
    effect->last_slot = oware_slot(h, sowing.last_house);
    effect->captured = sowing.captured;
    effect->captured_slots = sowing.captured_slots;
    effect->grand_slam = sowing.grand_slam;
    effect->game_over = over;
  }
  return out;
}

// ---------------------------------------------------------------- Congkak (rules.md, "Congkak")

inline bool congkak_game_over(const Position& p) { return houses_empty(p, p.side_to_move); }

// Rule 5: no legal move once the mover's row is empty.
inline uint32_t congkak_legal_slots(const Rules& rules, const Board& b) {
  const lanes::Vec v = lanes::load(b);
  return lanes::nonzero_mask(v) & row_mask(rules.houses, lanes::side_to_move(v));
}

template <bool kReport>
inline Board congkak_apply(const Rules& rules, const Board& in, Move move, MoveEffect* effect) {
  const int h = rules.houses;
  const Side mover = in.side_to_move();
  const int base = first_house(h, mover);
  const int own_store = base + h;
  const int lap = 2 * h + 1;
  // Each lap round the ring drops a seed in the mover's store, so a relay ends after at most
  // total_seeds laps (rules.md, Congkak 4). The guard only protects against a broken invariant.
  const long step_limit = static_cast<long>(rules.total_seeds() + 1) * (lap + 1);
  long steps = 0;
  bool passed_store = false;
  bool extra_turn = false;
  bool endless = false;
  int relays = 0;
  int s = base + move;
  // Each relay is one vector sowing; the board goes through memory between relays because the
  // next decision reads single slots.
  Board b = in;
  while (true) {
    const int seeds = b[s];
    const Board& rank = ring_ranks(h, mover, s);
    int laps, rem;
    lanes::Vec v = lanes::clear_where(lanes::load(b), 1u << s);
    b = lanes::store(sow_by_rank(v, rank, seeds, lap, laps, rem));
    // A seed that fell in the own store without being the last one of this sowing.
    if (laps > 0 || rank[own_store] < rem) passed_store = true;
    steps += seeds;
    s = ring_slot_at(h, mover, s, rem);
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
// the mover's house slots, and applying one move.
template <GameKind K>
inline uint32_t legal_slots(const Rules& rules, const detail::Board& b) {
  if constexpr (K == GameKind::Kalah) return detail::kalah_legal_slots(rules, b);
  else if constexpr (K == GameKind::Oware) return detail::oware_legal_slots(rules, b);
  else return detail::congkak_legal_slots(rules, b);
}

template <GameKind K, bool kReport = false>
inline detail::Board apply_move(const Rules& rules, const detail::Board& b, Move move,
                                MoveEffect* effect = nullptr) {
  if constexpr (K == GameKind::Kalah) return detail::kalah_apply<kReport>(rules, b, move, effect);
  else if constexpr (K == GameKind::Oware) return detail::oware_apply<kReport>(rules, b, move, effect);
  else return detail::congkak_apply<kReport>(rules, b, move, effect);
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
  return detail::to_position(apply_move<K, kReport>(rules, detail::to_board(p), move, effect));
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
};

// The final stores of an ended game. A position that is over but not yet settled (one typed in
// with a row already empty) is settled first: each row's seeds go to its owner, except after
// the Oware majority rule, which leaves the seeds on the board to nobody.
Outcome final_outcome(const Rules& rules, const Position& position);

}  // namespace mancala
