// The retrograde builder of the endgame tables (Kalah with h <= 6 houses, Oware).
//
// Values (rules.md, "Values used by the databases"): what the side to move will still gain minus
// what the opponent will still gain from the seeds on the board, with perfect play. Layer s
// holds every position with s seeds on the board, one signed byte per position, in TableIndex
// order, seen from the side to move.
//
// A move either leaves the layer (seeds reach a store: sowing, capture or the end of the game),
// whose value is known from the layers below, or keeps every seed on the board ("inner" moves:
// no gain, and the other side moves next). A layer is built in named phases:
//
//   exits     for each position, the best value over the moves that leave the layer, the value
//             of the game's end when it has no move, and whether it has inner moves;
//   fixpoint  v(p) = max(best exit, max over inner moves of -v(child)), iterated from the value
//             of play cut off after one inner move (worth 0) until nothing changes. Iteration k
//             is the value of play cut off after k inner moves, so each side's forced exits are
//             found in order of length and positions from which no side can force its way out
//             keep the cut-off value 0: an endless cycle is worth 0 (rules.md, Oware 7).
//
// Each sweep reads the previous sweep's values only (Jacobi), so the bytes do not depend on the
// number of threads or on the order of work.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "solver/rules.h"
#include "solver/table_index.h"

namespace mancala {

struct BuildProgress {
  int seeds = 0;
  std::string phase;  // "exits", "fixpoint N" or another phase name
  uint64_t done = 0;
  uint64_t total = 0;
};
// Called from the calling thread only, between slices of work.
using BuildProgressFn = std::function<void(const BuildProgress&)>;

// Whether tables can be built for these rules, and why not.
Expected<Rules> table_rules_for(const Rules& game_rules);

class RetrogradeBuilder {
 public:
  // `rules` are the game's rules (any seeds per house); tables cover up to `max_seeds` seeds.
  RetrogradeBuilder(const Rules& rules, int max_seeds);

  const TableIndex& index() const { return index_; }
  const Rules& rules() const { return rules_; }
  int max_seeds() const { return max_seeds_; }

  // Builds layer `seeds`; the layers below must be present (built or set). Uses the OpenMP
  // threads in force. Returns the values, also kept for the layers above.
  const std::vector<int8_t>& build_layer(int seeds, const BuildProgressFn& progress = {});
  // Installs a layer read back from a file (a resumed build).
  void set_layer(int seeds, std::vector<int8_t> values);
  bool has_layer(int seeds) const;
  const std::vector<int8_t>& layer(int seeds) const { return layers_[seeds]; }
  // Sweeps the fixpoint of the last built layer needed.
  int last_fixpoint_sweeps() const { return last_sweeps_; }

 private:
  Rules rules_;
  int max_seeds_;
  TableIndex index_;
  std::vector<std::vector<int8_t>> layers_;
  int last_sweeps_ = 0;
};

// The value of one move from the mover's point of view, from a position whose stores are empty:
// the mover's store gain minus the opponent's, plus the value of the position reached (negated
// when the other side moves next). `child_value(position)` gives a table value.
template <class ChildValue>
int table_move_value(const Position& before, const Position& after, ChildValue&& child_value) {
  const Side mover = before.side_to_move;
  const int gain = (after.store(mover) - before.store(mover)) -
                   (after.store(opponent(mover)) - before.store(opponent(mover)));
  const int v = child_value(after);
  return gain + (after.side_to_move == mover ? v : -v);
}

}  // namespace mancala
