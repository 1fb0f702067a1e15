#include "solver/tables/kalah_sub_layers.h"

#include <algorithm>
#include <set>

#include "solver/rules/moves.h"
#include "solver/tables/table_index.h"

namespace mancala {

namespace {

uint64_t rows_of(int houses, int seeds) {
  uint64_t r = 1;  // C(seeds + houses - 1, houses - 1), exact at every step
  for (int k = 1; k < houses; ++k)
    r = r * static_cast<uint64_t>(seeds + k) / static_cast<uint64_t>(k);
  return r;
}

// Calls visit(row) for every row of `houses` houses holding `seeds` seeds.
template <class Visit>
void for_each_row(int houses, int seeds, Visit&& visit) {
  std::vector<int> row(static_cast<size_t>(houses));
  const auto walk = [&](auto&& self, int house, int left) -> void {
    if (house == houses - 1) {
      row[static_cast<size_t>(house)] = left;
      visit(row);
      return;
    }
    for (int x = 0; x <= left; ++x) {
      row[static_cast<size_t>(house)] = x;
      self(self, house + 1, left - x);
    }
  };
  walk(walk, 0, seeds);
}

// Adds the sub-layers below that the moves of sub-layer (m, o) lead to.
//
// A move's child depends on the mover's row only through the house played, its seeds and whether
// the last seed's house was empty before it (a capture): the seeds that reach each row and the
// store follow from the first two, the row totals from m and o. So the rows played are those with
// the house's seeds and the rest of the row in any one other house: the rest in the last seed's
// house or elsewhere covers both a full and an empty house there, whenever the row can have it.
void add_reads(const Rules& rules, SubLayer sub, std::set<SubLayer>& reads) {
  const int h = rules.houses, m = sub.mover_seeds, o = sub.other_seeds;
  if (m == 0 || o == 0) return;  // a row is empty: the game is over, nothing is read
  const int ring = 2 * h + 1;    // the mover's houses, its store, the other's houses
  for (int i = 0; i < h; ++i)
    for (int sown = 1; sown <= m; ++sown)
      for (int rest_at = 0; rest_at < h; ++rest_at) {
        if ((rest_at == i) != (h == 1)) continue;  // with one house a side, it is the only one
        if (h == 1 && sown != m) continue;
        Position p;
        p.houses = static_cast<uint8_t>(h);
        p.slots[static_cast<size_t>(rest_at)] = static_cast<uint16_t>(m - sown);
        p.slots[static_cast<size_t>(i)] = static_cast<uint16_t>(sown);
        // The child depends on the other row only through its seeds and, when the last seed ends
        // in a house of the mover, those of the house facing it (a capture takes them): each
        // count 0..o is played there, the rest of the row in another house (with one house a
        // side, the facing house holds them all).
        const int last = (i + sown) % ring;
        const int facing = last < h ? h - 1 - last : 0;
        const int other_rest_at = facing == 0 ? 1 % h : 0;
        const int lowest = last < h && h > 1 ? 0 : o;
        for (int taken = lowest; taken <= o; ++taken) {
          for (int j = 0; j < h; ++j) p.slots[static_cast<size_t>(h + 1 + j)] = 0;
          p.slots[static_cast<size_t>(h + 1 + facing)] = static_cast<uint16_t>(taken);
          p.slots[static_cast<size_t>(h + 1 + other_rest_at)] += static_cast<uint16_t>(o - taken);
          const Position c = apply_move(rules, p, static_cast<Move>(i));
          const int mover_row = c.seeds_in_houses(c.side_to_move);
          const int other_row = c.seeds_in_houses(opponent(c.side_to_move));
          // Not read: the end of the game (the board swept) and an inner move (this layer).
          if (mover_row + other_row == 0 || mover_row + other_row == sub.seeds()) continue;
          reads.insert({mover_row, other_row});
        }
        if (sown == m) break;  // no rest: one row will do
      }
}

}  // namespace

uint64_t sub_layer_size(int houses, SubLayer sub) {
  return rows_of(houses, sub.mover_seeds) * rows_of(houses, sub.other_seeds);
}

void for_each_sub_layer_run(const TableIndex& index, SubLayer sub,
                            const std::function<void(uint64_t begin, uint64_t size)>& visit) {
  const int h = index.slots() / 2;
  // A run: one mover's row, every other row of o seeds. The key ranks the other row in its first
  // h digits, whose part of the rank runs over 0 .. C(o+h-1, h-1) - 1; it is 0 for the row with
  // every seed in the key's digit h-1 (the other row's first house).
  TableKey key;
  key.counts[static_cast<size_t>(h - 1)] = static_cast<uint8_t>(sub.other_seeds);
  std::vector<uint64_t> begins;
  for_each_row(h, sub.mover_seeds, [&](const std::vector<int>& row) {
    for (int i = 0; i < h; ++i)
      key.counts[static_cast<size_t>(h + i)] = static_cast<uint8_t>(row[static_cast<size_t>(i)]);
    begins.push_back(index.rank(key.counts.data()));
  });
  std::sort(begins.begin(), begins.end());
  const uint64_t size = rows_of(h, sub.other_seeds);
  for (const uint64_t begin : begins) visit(begin, size);
}

uint64_t sub_layer_offset(int houses, int seeds, int mover_seeds) {
  uint64_t offset = 0;
  for (int m = 0; m < mover_seeds; ++m) offset += sub_layer_size(houses, {m, seeds - m});
  return offset;
}

uint64_t row_rank(const TableIndex& index, const uint8_t* digits, int houses) {
  // The bars of the row's digits, as TableIndex::rank places them, of a key of h digits.
  uint64_t r = 0;
  int bar = -1;
  for (int j = 0; j + 1 < houses; ++j) {
    bar += digits[j] + 1;
    r += index.binomial(bar, j + 1);
  }
  return r;
}

uint64_t sub_layer_order_rank(const TableIndex& index, const uint8_t* counts) {
  const int h = index.slots() / 2;
  int mover = 0, other = 0;
  for (int i = 0; i < h; ++i) {
    other += counts[i];
    mover += counts[h + i];
  }
  return sub_layer_offset(h, mover + other, mover) +
         row_rank(index, counts + h, h) * rows_of(h, other) + row_rank(index, counts, h);
}

void for_each_run_in_sub_layer_order(
    const TableIndex& index, int seeds,
    const std::function<void(uint64_t begin, uint64_t size)>& visit) {
  for (int m = 0; m <= seeds; ++m) for_each_sub_layer_run(index, {m, seeds - m}, visit);
}

std::vector<SubLayer> kalah_pairs(int seeds) {
  std::vector<SubLayer> pairs;
  for (int m = seeds; 2 * m >= seeds; --m) pairs.push_back({m, seeds - m});
  return pairs;
}

std::vector<SubLayer> kalah_pair_reads(const Rules& rules, SubLayer pair) {
  std::set<SubLayer> reads;
  add_reads(rules, pair, reads);
  add_reads(rules, {pair.other_seeds, pair.mover_seeds}, reads);
  return {reads.begin(), reads.end()};
}

PairWorkingSet kalah_largest_pair_working_set(const Rules& rules, int seeds, int read_below) {
  PairWorkingSet largest;
  for (const SubLayer pair : kalah_pairs(seeds)) {
    PairWorkingSet w{pair, sub_layer_size(rules.houses, pair), 0};
    if (pair.mover_seeds != pair.other_seeds)
      w.pair_positions += sub_layer_size(rules.houses, {pair.other_seeds, pair.mover_seeds});
    for (const SubLayer read : kalah_pair_reads(rules, pair))
      if (read.seeds() < read_below) w.read_positions += sub_layer_size(rules.houses, read);
    if (w.bytes() > largest.bytes()) largest = w;
  }
  return largest;
}

}  // namespace mancala
