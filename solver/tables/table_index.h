// The endgame tables' index: a bijection between the positions with exactly s seeds in the 2h
// houses, seen from the side to move, and 0 .. C(s+2h-1, 2h-1)-1.
//
// A position is a composition x_0 + ... + x_{2h-1} = s (the mover's houses first, then the
// opponent's). Written as stars and bars, it places 2h-1 bars among s+2h-1 cells; bar j sits at
// b_j = x_0 + ... + x_j + j. The rank is the combinatorial number system of that bar set:
//
//     rank = C(b_0, 1) + C(b_1, 2) + ... + C(b_{2h-2}, 2h-1)
//
// so rank is O(h) table look-ups, and does not even need s. Unrank finds the bars from the top
// down with one descending scan over the cells: O(s + h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "solver/rules/position.h"

namespace mancala {

inline constexpr int kMaxTableHouses = 6;  // 12 houses in all
inline constexpr int kMaxTableSlots = 2 * kMaxTableHouses;
inline constexpr int kMaxTableSeeds = 64;

// Seeds per house seen from the mover, in the order the index ranks them: the opponent's
// houses from its last to its first, then the mover's from its last to its first. (Ranking the
// reversed row puts positions that differ near the mover's first houses next to each other,
// which compresses about 5% better than the plain order.)
struct TableKey {
  std::array<uint8_t, kMaxTableSlots> counts{};
};

class TableIndex {
 public:
  // `slots` houses in all (2h), layers up to `max_seeds` seeds.
  TableIndex(int slots, int max_seeds);

  int slots() const { return slots_; }
  // Number of positions with exactly `seeds` seeds: C(seeds + slots - 1, slots - 1).
  uint64_t layer_size(int seeds) const { return binomial(seeds + slots_ - 1, slots_ - 1); }

  uint64_t rank(const uint8_t* counts) const {
    uint64_t r = 0;
    int bar = -1;
    for (int j = 0; j + 1 < slots_; ++j) {
      bar += counts[j] + 1;
      r += binomial_[static_cast<size_t>(bar) * kColumns + static_cast<size_t>(j + 1)];
    }
    return r;
  }
  void unrank(uint64_t rank, int seeds, uint8_t* counts) const;

  uint64_t binomial(int n, int k) const {
    if (n < 0 || k < 0 || k > n) return 0;
    return binomial_[static_cast<size_t>(n) * kColumns + static_cast<size_t>(k)];
  }

 private:
  static constexpr int kColumns = kMaxTableSlots + 1;
  int slots_;
  std::vector<uint64_t> binomial_;  // binomial_[n * kColumns + k] = C(n, k), 0 when k > n
};

// The key of a position: its houses from the side to move's point of view.
inline TableKey table_key(const Position& p) {
  TableKey key;
  const Side mover = p.side_to_move;
  const int h = std::min<int>(p.houses, kMaxTableHouses);  // tables exist for h <= 6 only
  for (int i = 0; i < h; ++i) {
    key.counts[2 * h - 1 - i] = static_cast<uint8_t>(p.house(mover, i));
    key.counts[h - 1 - i] = static_cast<uint8_t>(p.house(opponent(mover), i));
  }
  return key;
}

// The position with South to move, empty stores and the key's houses.
inline Position position_from_key(const uint8_t* counts, int houses) {
  Position p;
  p.houses = static_cast<uint8_t>(houses);
  for (int i = 0; i < houses; ++i) {
    p.slots[i] = counts[2 * houses - 1 - i];
    p.slots[houses + 1 + i] = counts[houses - 1 - i];
  }
  return p;
}

}  // namespace mancala

namespace mancala {

// The next key in rank order (rank + 1), for walking a range without unranking each position.
// In counts: find the first house i >= 1 holding seeds; move one of them, together with all
// seeds before it, into house i-1.
inline void next_key(uint8_t* counts, int slots) {
  int before = 0;
  int i = 1;
  while (i < slots && counts[i] == 0) {
    before += counts[i - 1];
    counts[i - 1] = 0;
    ++i;
  }
  // counts[i-1] still holds its own seeds; everything before it was gathered in `before`.
  before += counts[i - 1];
  counts[i - 1] = static_cast<uint8_t>(before + 1);
  --counts[i];
}

}  // namespace mancala
