// Legal moves, applying a move and the end of the game, for every game and variant. The hot
// functions are inline templates on the game kind so that perft and the searches dispatch on the
// kind once, not once per move; `generate_moves` and `apply_move` below dispatch at run time.
#pragma once

#include <array>
#include <cstdint>

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

inline void sweep_houses_to_owners(Position& p) {
  for (Side side : {Side::South, Side::North}) {
    const int base = p.first_house(side);
    int sum = 0;
    for (int i = 0; i < p.houses; ++i) {
      sum += p.slots[base + i];
      p.slots[base + i] = 0;
    }
    p.slots[p.store_slot(side)] = static_cast<uint16_t>(p.slots[p.store_slot(side)] + sum);
  }
}

inline bool houses_empty(const Position& p, Side side) {
  const int base = p.first_house(side);
  uint32_t any = 0;
  for (int i = 0; i < p.houses; ++i) any |= p.slots[base + i];
  return any == 0;
}

inline void generate_nonempty(const Position& p, MoveList& list) {
  const int base = p.first_house(p.side_to_move);
  for (int i = 0; i < p.houses; ++i)
    if (p.slots[base + i]) list.push(static_cast<Move>(i));
}

// ---------------------------------------------------------------- Kalah (rules.md, "Kalah")

inline bool kalah_game_over(const Position& p) {
  return houses_empty(p, Side::South) || houses_empty(p, Side::North);
}

inline void kalah_generate(const Position& p, MoveList& list) {
  if (kalah_game_over(p)) return;
  generate_nonempty(p, list);
}

// Sows the seeds of `from` one per slot round the ring, skipping `skipped` (the opponent's store).
// Whole laps are added in one pass so a huge house costs no more than a small one.
// Returns the slot of the last seed.
inline int sow_ring(Position& p, int from, int skipped) {
  const int ring = 2 * p.houses + 2;
  int seeds = p.slots[from];
  p.slots[from] = 0;
  const int lap = ring - 1;
  if (seeds > lap) {
    const int laps = (seeds - 1) / lap;
    for (int s = 0; s < ring; ++s) p.slots[s] = static_cast<uint16_t>(p.slots[s] + laps);
    p.slots[skipped] = static_cast<uint16_t>(p.slots[skipped] - laps);
    seeds -= laps * lap;
  }
  int s = from;
  while (seeds) {
    if (++s == ring) s = 0;
    if (s == skipped) continue;
    ++p.slots[s];
    --seeds;
  }
  return s;
}

template <bool kReport>
inline Position kalah_apply(const Rules& rules, const Position& position, Move move,
                            MoveEffect* effect) {
  Position p = position;
  const Side mover = p.side_to_move;
  const int base = p.first_house(mover);
  const int own_store = p.store_slot(mover);
  const int last = sow_ring(p, base + move, p.store_slot(opponent(mover)));
  const bool extra_turn = last == own_store;
  // Rule 4: the last seed in a house of the mover that was empty before it.
  if (!extra_turn && last >= base && last < base + p.houses && p.slots[last] == 1) {
    const int opposite = p.opposite_slot(last);
    if (p.slots[opposite] != 0 || rules.empty_capture) {
      const int captured = p.slots[opposite] + 1;
      if constexpr (kReport) {
        effect->captured = captured;
        effect->captured_slots = (1u << last) | (1u << opposite);
      }
      p.slots[own_store] = static_cast<uint16_t>(p.slots[own_store] + captured);
      p.slots[last] = 0;
      p.slots[opposite] = 0;
    }
  }
  if (!extra_turn) p.side_to_move = opponent(mover);
  // Rule 5: either row empty ends the game; the seeds left go to their owners.
  const bool over = kalah_game_over(p);
  if (over) sweep_houses_to_owners(p);
  if constexpr (kReport) {
    effect->last_slot = last;
    effect->extra_turn = extra_turn && !over;
    effect->game_over = over;
  }
  return p;
}

// ---------------------------------------------------------------- Oware (rules.md, "Oware")
// Oware sows only into houses. `k` below numbers the 2h houses round the ring (South's 0..h-1,
// North's h..2h-1); its slot is k, or k+1 past South's store.

inline int oware_slot(int houses, int k) { return k + (k >= houses); }

// Rule 6: more than half of all seeds in one store, or exactly half in both.
inline bool oware_majority_reached(const Rules& rules, const Position& p) {
  const int total = rules.total_seeds();
  const int south = p.store(Side::South), north = p.store(Side::North);
  return 2 * south > total || 2 * north > total || (2 * south == total && 2 * north == total);
}

// A move from house `move` of the mover reaches the opponent's row when its seeds cover the
// distance to the opponent's first house (h - move).
inline bool oware_feeds(const Position& p, Move move) {
  return p.house(p.side_to_move, move) >= p.houses - move;
}

struct OwareSowing {
  int last_house;  // k of the last seed
  int captured;    // seeds taken
  uint32_t captured_slots;
  bool grand_slam;
};

// Sowing (rule 2) and capture (rules 3 and 4, or their variant), without the turn change.
inline OwareSowing oware_sow_and_capture(const Rules& rules, Position& p, Move move) {
  const int h = p.houses;
  const int n2 = 2 * h;
  const Side mover = p.side_to_move;
  const int origin = (mover == Side::South ? 0 : h) + move;
  int seeds = p.slots[oware_slot(h, origin)];
  p.slots[oware_slot(h, origin)] = 0;
  // A lap drops one seed in each of the other 2h-1 houses: the emptied house is skipped.
  const int lap = n2 - 1;
  if (seeds > lap) {
    const int laps = (seeds - 1) / lap;
    for (int k = 0; k < n2; ++k)
      if (k != origin) p.slots[oware_slot(h, k)] = static_cast<uint16_t>(p.slots[oware_slot(h, k)] + laps);
    seeds -= laps * lap;
  }
  int k = origin;
  while (seeds) {
    if (++k == n2) k = 0;
    if (k == origin) continue;
    ++p.slots[oware_slot(h, k)];
    --seeds;
  }
  OwareSowing result{k, 0, 0, false};
  const int opp_lo = mover == Side::South ? h : 0;
  if (k < opp_lo || k >= opp_lo + h) return result;
  int taken = 0;
  int j = k;
  for (; j >= opp_lo; --j) {
    const int c = p.slots[oware_slot(h, j)];
    if (c != 2 && c != 3) break;
    taken += c;
  }
  if (taken == 0) return result;
  // Rule 4: would this capture take every seed on the opponent's side?
  result.grand_slam = taken == p.seeds_in_houses(opponent(mover));
  if (result.grand_slam && rules.oware_rules == OwareRuleSet::Abapa) return result;
  for (int i = j + 1; i <= k; ++i) {
    p.slots[oware_slot(h, i)] = 0;
    result.captured_slots |= 1u << oware_slot(h, i);
  }
  p.slots[p.store_slot(mover)] = static_cast<uint16_t>(p.slots[p.store_slot(mover)] + taken);
  result.captured = taken;
  return result;
}

// Does the side to move have no legal move, i.e. the game is over (rules 5 and 6, and the awari
// and grand-slam-captures endings)?
inline bool oware_game_over(const Rules& rules, const Position& p) {
  if (oware_majority_reached(rules, p)) return true;
  const Side mover = p.side_to_move;
  if (houses_empty(p, mover)) return true;
  if (rules.oware_rules == OwareRuleSet::Awari || !houses_empty(p, opponent(mover))) return false;
  for (Move m = 0; m < p.houses; ++m)
    if (oware_feeds(p, m)) return false;  // rule 5: a feeding move exists
  return true;
}

inline void oware_generate(const Rules& rules, const Position& p, MoveList& list) {
  if (oware_majority_reached(rules, p)) return;
  const Side mover = p.side_to_move;
  if (rules.oware_rules == OwareRuleSet::Awari) {
    // A move that leaves the opponent without seeds is legal only if every move does.
    MoveList all;
    generate_nonempty(p, all);
    for (Move m : all) {
      Position child = p;
      oware_sow_and_capture(rules, child, m);
      if (!houses_empty(child, opponent(mover))) list.push(m);
    }
    if (list.empty()) list = all;
    return;
  }
  if (houses_empty(p, opponent(mover))) {
    for (Move m = 0; m < p.houses; ++m)
      if (oware_feeds(p, m)) list.push(m);  // rule 5: must feed
    return;
  }
  generate_nonempty(p, list);
}

template <bool kReport>
inline Position oware_apply(const Rules& rules, const Position& position, Move move,
                            MoveEffect* effect) {
  Position p = position;
  const OwareSowing sowing = oware_sow_and_capture(rules, p, move);
  p.side_to_move = opponent(p.side_to_move);
  // An ended game hands the seeds left to the owners of their rows: the mover who cannot feed
  // keeps its own (rule 5); under grand-slam-captures each side keeps its own; under awari the
  // side left without seeds loses the rest, all of which lie on the other row. Rule 6 instead
  // leaves the board as it is: the winner is already decided.
  const bool majority = oware_majority_reached(rules, p);
  const bool over = majority || oware_game_over(rules, p);
  if (over && !majority) sweep_houses_to_owners(p);
  if constexpr (kReport) {
    effect->last_slot = oware_slot(p.houses, sowing.last_house);
    effect->captured = sowing.captured;
    effect->captured_slots = sowing.captured_slots;
    effect->grand_slam = sowing.grand_slam;
    effect->game_over = over;
  }
  return p;
}

// ---------------------------------------------------------------- Congkak (rules.md, "Congkak")

inline bool congkak_game_over(const Position& p) { return houses_empty(p, p.side_to_move); }

inline void congkak_generate(const Position& p, MoveList& list) { generate_nonempty(p, list); }

template <bool kReport>
inline Position congkak_apply(const Rules& rules, const Position& position, Move move,
                              MoveEffect* effect) {
  Position p = position;
  const Side mover = p.side_to_move;
  const int h = p.houses;
  const int ring = 2 * h + 2;
  const int base = p.first_house(mover);
  const int own_store = p.store_slot(mover);
  const int skipped = p.store_slot(opponent(mover));
  // Each lap round the ring drops a seed in the mover's store, so a relay ends after at most
  // total_seeds laps (rules.md, Congkak 4). The guard only protects against a broken invariant.
  const long step_limit = static_cast<long>(rules.total_seeds() + 1) * ring;
  long steps = 0;
  bool passed_store = false;
  bool extra_turn = false;
  bool endless = false;
  int relays = 0;
  int s = base + move;
  int seeds = p.slots[s];
  p.slots[s] = 0;
  while (true) {
    while (seeds) {
      if (++s == ring) s = 0;
      if (s == skipped) continue;
      ++p.slots[s];
      --seeds;
      if (s == own_store && seeds) passed_store = true;
      ++steps;
    }
    if (s == own_store) {
      extra_turn = true;
      break;
    }
    if (p.slots[s] > 1) {  // the house held seeds before: pick them all up and sow on
      if (steps > step_limit) {
        endless = true;
        break;
      }
      seeds = p.slots[s];
      p.slots[s] = 0;
      ++relays;
      continue;
    }
    // The last seed fell in an empty house. In the mover's own row it captures.
    if (s >= base && s < base + h && (passed_store || !rules.no_capture_first_lap)) {
      const int opposite = p.opposite_slot(s);
      const int captured = p.slots[opposite] + 1;
      if constexpr (kReport) {
        effect->captured = captured;
        effect->captured_slots = (1u << s) | (1u << opposite);
      }
      p.slots[own_store] = static_cast<uint16_t>(p.slots[own_store] + captured);
      p.slots[s] = 0;
      p.slots[opposite] = 0;
    }
    break;
  }
  if (!extra_turn) p.side_to_move = opponent(mover);
  // Rule 5: the player to move has no seeds; the opponent takes those on its own row.
  const bool over = congkak_game_over(p);
  if (over) sweep_houses_to_owners(p);
  if constexpr (kReport) {
    effect->last_slot = s;
    effect->extra_turn = extra_turn && !over;
    effect->game_over = over;
    effect->endless = endless;
    effect->relays = relays;
  }
  return p;
}

}  // namespace detail

// Compile-time dispatch for the hot paths (perft, search).
template <GameKind K>
inline void generate_moves(const Rules& rules, const Position& p, MoveList& list) {
  if constexpr (K == GameKind::Kalah) detail::kalah_generate(p, list);
  else if constexpr (K == GameKind::Oware) detail::oware_generate(rules, p, list);
  else detail::congkak_generate(p, list);
}

template <GameKind K, bool kReport = false>
inline Position apply_move(const Rules& rules, const Position& p, Move move,
                           MoveEffect* effect = nullptr) {
  if constexpr (K == GameKind::Kalah) return detail::kalah_apply<kReport>(rules, p, move, effect);
  else if constexpr (K == GameKind::Oware) return detail::oware_apply<kReport>(rules, p, move, effect);
  else return detail::congkak_apply<kReport>(rules, p, move, effect);
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
