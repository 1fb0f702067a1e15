// The retrograde builder of the endgame tables (Kalah with h <= 6 houses, Oware).
//
// Values (solver/rules/README.md, "Values"): what the side to move will still gain minus
// what the opponent will still gain from the seeds on the board, with perfect play. Layer s
// holds every position with s seeds on the board, one signed byte per position, in TableIndex
// order, seen from the side to move.
//
// A move either leaves the layer (seeds reach a store: sowing, capture or the end of the game),
// whose value is known from the layers below, or keeps every seed on the board ("inner" moves:
// no gain, and the other side moves next; table_rules.h). A layer is built in named phases:
//
//   exits     for each position, the best value over the moves that leave the layer, the value
//             of the game's end when it has no move, and whether it has inner moves;
//   levels    v(p) = max(best exit, max over inner moves of -v(child)), solved level by level
//             for t = s .. 1: the positions worth >= t and those worth <= -t are least
//             fixpoints grown backwards along inner moves (parents are found by un-sowing and
//             checked by playing the move forwards). Positions never reached are worth 0: draws,
//             and the endless cycles no side can force its way out of (solver/rules/README.md,
//             Oware 7).
//
// Set membership at each level does not depend on the order of work, so the bytes do not
// depend on the number of threads.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "solver/rules/moves.h"
#include "solver/rules/rules.h"
#include "solver/tables/layer_progress.h"
#include "solver/tables/table_index.h"
#include "solver/tables/table_rules.h"

namespace mancala {

class RetrogradeBuilder {
 public:
  // `rules` are the game's rules (any seeds per house); tables cover up to `max_seeds` seeds.
  RetrogradeBuilder(const Rules& rules, int max_seeds);

  const TableIndex& index() const { return index_; }
  const Rules& rules() const { return rules_; }
  int max_seeds() const { return max_seeds_; }

  // Builds layer `seeds`; the layers below must be present (built or set). Uses the OpenMP
  // threads in force. Returns the values, also kept for the layers above.
  const std::vector<int8_t>& build_layer(int seeds, const LayerProgressFn& progress = {});
  // Installs a layer read back from a file (a resumed build).
  void set_layer(int seeds, std::vector<int8_t> values);
  const std::vector<int8_t>& layer(int seeds) const { return layers_[seeds]; }
  // Levels the last built layer went through.
  int last_level_count() const { return last_levels_; }
  struct PhaseSeconds {
    double exits = 0;
    double levels = 0;
  };
  PhaseSeconds last_phase_seconds() const { return last_timings_; }

 private:
  template <GameKind K>
  void build_layer_for(int seeds, const LayerProgressFn& progress);

  Rules rules_;
  int max_seeds_;
  TableIndex index_;
  std::vector<std::vector<int8_t>> layers_;
  int last_levels_ = 0;
  PhaseSeconds last_timings_;
};

// Calls `visit(parent, move)` for every position with an inner move (one that keeps every seed
// on the board) leading to `child`. Stores must be empty, as in the tables.
void for_each_inner_parent(const Rules& rules, const Position& child,
                           const std::function<void(const Position&, Move)>& visit);

}  // namespace mancala
