// The retrograde builder of the endgame tables (Kalah with h <= 6 houses, Oware).
//
// Values (solver/rules/README.md, "Values"): what the side to move will still gain minus
// what the opponent will still gain from the seeds on the board, with perfect play. Layer s
// holds every position with s seeds on the board, one signed byte per position, in TableIndex
// order, seen from the side to move.
//
// A move either leaves the layer (seeds reach a store: sowing, capture or the end of the game),
// whose value is known from the layers below, or keeps every seed on the board ("inner" moves:
// no gain, and the other side moves next; table_rules.h). So
//
//     v(p) = max(best exit, max over inner moves of -v(child)),
//
// where the best exit is the best value over the moves that leave the layer (or the value of the
// game's end when p has no move). Inner moves stay in the layer; how the layer copes with them
// depends on whether they can cycle.
//
// Kalah: one pass, phase "values" (retrograde_kalah.h). Kalah layers cannot cycle: an inner
// move sows only within the mover's own row (reaching the store would put a seed in it; sowing
// past it, into the other row, needs the store first), moving every seed it sows towards its
// owner's store, and takes nothing (a capture puts seeds in a store). So the potential, the sum
// over all seeds of their distance to their owner's store, falls strictly with every inner move:
// inner moves form a directed acyclic graph. The pass values the positions of the layer in order
// of rising potential, so that every inner child is valued before its parent and every other
// child lies in a layer below: each position and each move is looked at once, from values
// already known, and the layer needs one byte per position. Asked to (a hook before each pair,
// build_layer), the pass goes pair of sub-layers by pair instead (kalah_sub_layers.h: inner moves
// keep the seeds on each row, so only the positions with m and o seeds on the rows and those with
// o and m reach each other), each pair in order of rising potential and reading a known part of
// the layers below. Positions of one potential are
// independent of each other: the threads share them out, and the result does not depend on their
// number. (Measured against a memoised depth-first descent, which values a position's inner
// children first by recursion: the descent was 1.3 to 1.6 times slower, its reads waiting on
// each other down the recursion; see retrograde_kalah.cpp.)
//
// Oware: layers can cycle (a sowing round the board can come back to the same houses), so a
// layer is built in two named phases:
//
//   exits     for each position, the best exit and how many inner moves it has;
//   levels    solved level by level for t = s .. 1: the positions worth >= t and those worth
//             <= -t are least fixpoints grown backwards along inner moves (parents are found by
//             un-sowing and checked by playing the move forwards). Positions never reached are
//             worth 0: draws, and the endless cycles no side can force its way out of
//             (solver/rules/README.md, Oware 7). A level with nothing to start from costs no
//             scan of the layer: the positions that can start a level are counted as they
//             appear.
//
// Set membership at each level does not depend on the order of work, so the bytes do not
// depend on the number of threads either. The level algorithm is also correct for Kalah (the
// tests check that both ways give the same bytes); it is slower and needs three bytes per
// position.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "solver/rules/moves.h"
#include "solver/rules/rules.h"
#include "solver/tables/layer_progress.h"
#include "solver/tables/retrograde_kalah.h"
#include "solver/tables/table_index.h"
#include "solver/tables/table_rules.h"

namespace mancala {

// How the builder solves a layer.
enum class LayerMethod : uint8_t {
  Fastest,  // Kalah: one pass; Oware: exits and levels
  Levels,   // exits and levels for every game (Kalah too, to check the one pass against)
};

class RetrogradeBuilder {
 public:
  // `rules` are the game's rules (any seeds per house); tables cover up to `max_seeds` seeds.
  // Every phase runs on `threads` threads (thread_count.h); the bytes do not depend on their
  // number.
  RetrogradeBuilder(const Rules& rules, int max_seeds, LayerMethod method = LayerMethod::Fastest,
                    int threads = 1);

  const TableIndex& index() const { return index_; }
  const Rules& rules() const { return rules_; }
  int max_seeds() const { return max_seeds_; }
  // Whether layers are built in one pass (Kalah, unless LayerMethod::Levels was asked).
  bool uses_one_pass() const { return one_pass_; }
  // The threads every phase runs on (the count asked for, resolved).
  int threads() const { return threads_; }

  // Builds layer `seeds`; the layers below must be present (built, set or held elsewhere).
  // Returns the values, also kept for the layers above (and not moved while later layers are
  // built, so another thread may read them meanwhile, e.g. to write them). Built in one pass,
  // the layer is valued pair of sub-layers by pair, and `before_pair` is called before each
  // (value_kalah_layer), e.g. to read ahead the parts of the layers below that the pair reads.
  std::span<const int8_t> build_layer(int seeds, const LayerProgressFn& progress = {},
                                      const KalahPairHook& before_pair = {});
  // Builds layer `seeds` into `out` (layer_size(seeds) bytes, e.g. a mapped scratch file that
  // `keeper` keeps valid), laid out in `order`, and reads it from there from now on, as a layer
  // held elsewhere (hold_layer_elsewhere). One pass only (uses_one_pass()). Valued pair by pair
  // (with `before_pair`) in sub-layer order, a pair writes only its own two sub-layers, each one
  // range of `out`: a layer larger than the memory can be built in a file whose written pages
  // the kernel may write back and drop. Returns the values, laid out in `order`.
  std::span<const int8_t> build_layer_into(int seeds, std::span<int8_t> out,
                                           std::shared_ptr<const void> keeper, LayerOrder order,
                                           const LayerProgressFn& progress = {},
                                           const KalahPairHook& before_pair = {});
  // Installs a layer read back from a file (a resumed build).
  void set_layer(int seeds, std::vector<int8_t> values);
  // Frees the builder's copy of layer `seeds` and reads `values` (the same bytes, held elsewhere,
  // e.g. a file mapped by the caller) in its place from now on; `keeper` keeps them valid for as
  // long as the builder needs them. This bounds a deep build's memory: the layers below the one
  // being built are read at random, but a mapped file's pages are the kernel's to evict and read
  // back. Not while a layer is being built, nor while another thread reads layer `seeds`.
  // `order`: how `values` are laid out (kalah_sub_layers.h); sub-layer order only when layers are
  // built in one pass (uses_one_pass(): that pass reads either; the level algorithm reads ranks).
  void hold_layer_elsewhere(int seeds, std::span<const int8_t> values,
                            std::shared_ptr<const void> keeper,
                            LayerOrder order = LayerOrder::Ranks);
  // Layer `seeds`' values, laid out in layer_order(seeds).
  std::span<const int8_t> layer(int seeds) const { return views_[static_cast<size_t>(seeds)]; }
  LayerOrder layer_order(int seeds) const { return orders_[static_cast<size_t>(seeds)]; }
  // The value the layer of `position`'s seeds holds for it; that layer must be there.
  int value_of(const Position& position) const {
    const TableKey key = table_key(position);
    const int seeds = position.seeds_on_board();
    return layer(seeds)[layer_order(seeds) == LayerOrder::SubLayers
                            ? sub_layer_order_rank(index_, key.counts.data())
                            : index_.rank(key.counts.data())];
  }
  // Whether layer `seeds` is held elsewhere (hold_layer_elsewhere) rather than by the builder.
  bool held_elsewhere(int seeds) const { return keepers_[static_cast<size_t>(seeds)] != nullptr; }
  // The memory building layer `seeds` takes beside the layers below: its byte per position, and
  // for the level algorithm (Oware) two more (the exits and the inner moves left).
  uint64_t bytes_to_build(int seeds) const {
    return index_.layer_size(seeds) * (one_pass_ ? 1 : 3);
  }
  // Levels the last built layer went through (0 for a layer built in one pass), and how many of
  // them started
  // from a scan of the layer (the others had nothing to start from).
  int last_level_count() const { return last_levels_; }
  int last_level_scans() const { return last_level_scans_; }
  struct PhaseSeconds {
    double exits = 0;   // levels method: phase "exits"
    double levels = 0;  // levels method: phase "levels"
    double values = 0;  // one pass: phase "values"
  };
  PhaseSeconds last_phase_seconds() const { return last_timings_; }

 private:
  template <GameKind K>
  void build_by_levels(int seeds, const LayerProgressFn& progress);
  void build_in_one_pass(int seeds, const LayerProgressFn& progress,
                         const KalahPairHook& before_pair);

  Rules rules_;
  int max_seeds_;
  bool one_pass_;
  int threads_;
  TableIndex index_;
  // Layer s is read through views_[s]: the builder's own bytes (owned_[s]) or bytes held
  // elsewhere, kept valid by keepers_[s].
  std::vector<std::vector<int8_t>> owned_;
  std::vector<std::shared_ptr<const void>> keepers_;
  std::vector<std::span<const int8_t>> views_;
  std::vector<LayerOrder> orders_;
  int last_levels_ = 0;
  int last_level_scans_ = 0;
  PhaseSeconds last_timings_;
};

// Calls `visit(parent, move)` for every position with an inner move (one that keeps every seed
// on the board) leading to `child`. Stores must be empty, as in the tables.
void for_each_inner_parent(const Rules& rules, const Position& child,
                           const std::function<void(const Position&, Move)>& visit);

}  // namespace mancala
