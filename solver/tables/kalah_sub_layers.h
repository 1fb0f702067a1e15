// Kalah layers cut into sub-layers by the seeds on each row, so that a layer can be valued a
// part at a time from a known, small part of the layers below (a build whose layers below do not
// fit in memory).
//
// Sub-layer (m, o) of layer s = m + o holds the positions with m seeds on the side to move's row
// and o on the other row. Where a move of such a position leads:
//
//   - an inner move (every seed stays on the board) sows only within the mover's row, and the
//     other side moves next: the child is in sub-layer (o, m) of the same layer. So the layer
//     falls into pairs {(m, o), (o, m)} that only each other's inner moves reach: a pair is
//     valued on its own, in order of rising potential (retrograde_kalah.cpp), and the pairs in
//     any order;
//   - every other move takes at least one seed off the board, and the mover's row never gains:
//     the seeds sown leave it, at most as many come back round, and a seed in the store or a
//     capture's last seed is one fewer. Its children lie in a few sub-layers below: sowing into
//     the store and up to h houses beyond it (h + 1 sub-layers of layer s - 1), a capture of c
//     seeds (one sub-layer of layer s - 1 - c for each c), the rarer laps round the board of a
//     house holding 2h + 1 seeds or more (a few more), and the end of the game (layer 0).
//
// In the index's rank order (table_index.h: the other row is ranked in the low digits), a
// sub-layer (m, o) is C(m+h-1, h-1) runs of C(o+h-1, h-1) consecutive ranks, one run per mover's
// row: a pair's positions and its reads are spread over their layers in runs, not ranges.
//
// A layer can also be laid out in sub-layer order (LayerOrder::SubLayers): sub-layer by sub-layer,
// m rising, each sub-layer its runs end to end in rank order. Each sub-layer is then one range,
// and a pair's reads a few ranges: a build that holds the layers below in scratch files writes
// them so, and a pair's reads are whole pages of its own (in rank order, a sub-layer whose other
// row holds few seeds is runs of a few bytes, spread over pages that other sub-layers share).
// Within a sub-layer, a run's place is the rank of its mover's row among the rows of its seeds
// (row_rank): the runs of a sub-layer come in that order in rank order, since both orders rank
// the same bars (table_index.h) in the same combinatorial number system. So a position's place in
// sub-layer order is
//
//     sub_layer_offset(s, m) + row_rank(mover's row) * C(o+h-1, h-1) + row_rank(other row).
//
// Measured for 6 houses and the standard rule (docs/endgame-tables.md, "Sub-layers"): the pair
// with the most to read in layer 34 reads 10.7 GB of the 28.8 GB of layers 0..33.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <vector>

#include "solver/rules/rules.h"
#include "solver/tables/table_index.h"

namespace mancala {

struct SubLayer {
  int mover_seeds = 0;  // on the side to move's row
  int other_seeds = 0;  // on the other row
  int seeds() const { return mover_seeds + other_seeds; }
  friend auto operator<=>(const SubLayer&, const SubLayer&) = default;
};

// Positions of sub-layer `sub` with `houses` houses a side: C(m+h-1, h-1) * C(o+h-1, h-1).
uint64_t sub_layer_size(int houses, SubLayer sub);

// Calls visit(begin, size) for each run of consecutive ranks [begin, begin + size) that sub-layer
// `sub` is made of in its layer (`index` ranks the layer: 2 * houses slots), one run per mover's
// row, in rising order of begin.
void for_each_sub_layer_run(const TableIndex& index, SubLayer sub,
                            const std::function<void(uint64_t begin, uint64_t size)>& visit);

// The order of a layer's values: rank order (TableIndex), or sub-layer order (above).
enum class LayerOrder : uint8_t { Ranks, SubLayers };

// Where sub-layer (m, seeds - m) begins in sub-layer order: the positions of the sub-layers
// (0, seeds) .. (m - 1, seeds - m + 1).
uint64_t sub_layer_offset(int houses, int seeds, int mover_seeds);

// The rank of a row among the rows of `houses` houses holding as many seeds, in the order the
// index ranks them: `digits` are its houses from its last (house h-1) to its first, as a key
// holds them (table_index.h).
uint64_t row_rank(const TableIndex& index, const uint8_t* digits, int houses);

// The place of the position of key `counts` (TableKey: the other row's digits, then the mover's)
// in its layer in sub-layer order.
uint64_t sub_layer_order_rank(const TableIndex& index, const uint8_t* counts);

// Calls visit(begin, size) for every run of layer `seeds` (ranks [begin, begin + size)) in
// sub-layer order: laid end to end, the runs' values are the layer in sub-layer order.
void for_each_run_in_sub_layer_order(
    const TableIndex& index, int seeds,
    const std::function<void(uint64_t begin, uint64_t size)>& visit);

// The pairs of layer `seeds`, each named by its sub-layer (m, o) with m >= o (the other being
// (o, m)), in the order a layer is valued: m falling, so that pairs valued one after the other
// read mostly the same sub-layers below (a pair (m, o) reads those whose other row holds m - 1
// seeds, or a few fewer).
std::vector<SubLayer> kalah_pairs(int seeds);

// The sub-layers of the layers below (1 .. s-1 seeds; layer 0, the empty board, is read by every
// move that ends the game) that the moves of the positions of pair `pair` lead to, sorted. Exact:
// each mover's row is played with every count the house a capture would take can hold (all a
// move's child depends on beyond the rows' seeds), with the rules engine. `rules` are table
// rules (table_rules.h) of Kalah.
std::vector<SubLayer> kalah_pair_reads(const Rules& rules, SubLayer pair);

// What valuing one pair of a layer needs in memory, one byte a position: the pair itself and the
// sub-layers it reads below.
struct PairWorkingSet {
  SubLayer pair;
  uint64_t pair_positions = 0;  // both sub-layers of the pair
  uint64_t read_positions = 0;  // the sub-layers below it reads
  uint64_t bytes() const { return pair_positions + read_positions; }
};

// The pair of layer `seeds` whose working set is the largest, and that working set; with
// `read_below`, only the reads of layers of fewer seeds count (those above are held anyway).
PairWorkingSet kalah_largest_pair_working_set(const Rules& rules, int seeds, int read_below);
inline PairWorkingSet kalah_largest_pair_working_set(const Rules& rules, int seeds) {
  return kalah_largest_pair_working_set(rules, seeds, seeds);
}

}  // namespace mancala
