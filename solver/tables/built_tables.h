// Endgame tables built in memory for one run: what a solve with no tables on disk builds first,
// because building the low layers costs less than searching the positions they answer
// (docs/solving.md, "Solving from nothing").
//
// Contract: after construction, value() reads the builder's layers in place (one byte a
// position, no decoding, no failure: every covered position is answered); it allocates nothing
// and may be called from any number of threads at once, during a search too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "solver/rules/position.h"
#include "solver/rules/rules.h"
#include "solver/tables/exact_values.h"
#include "solver/tables/layer_progress.h"
#include "solver/tables/retrograde.h"

namespace mancala {

class BuiltTables : public ExactValues {
 public:
  // Builds layers 0..max_seeds of the tables of `rules`'s game (table_rules_for must accept it)
  // on `threads` threads, calling `progress` as the builder goes.
  BuiltTables(const Rules& rules, int max_seeds, int threads = 1,
              const LayerProgressFn& progress = {});

  std::optional<int> value(const Position& position) const override;
  int max_seeds() const override { return builder_.max_seeds(); }
  // The memory the layers take: one byte a position.
  uint64_t bytes() const { return bytes_; }
  double build_seconds() const { return build_seconds_; }

 private:
  RetrogradeBuilder builder_;
  uint64_t bytes_ = 0;
  double build_seconds_ = 0;
};

// The deepest layers worth building before solving `position` from nothing: where building the
// layers 0..S costs less than the search they spare (measured on Kalah with 6 houses,
// docs/solving.md). -1 when building none pays: small games and positions with few seeds, which
// the search answers faster than any build, and Oware, whose solves above the tables are
// exponential whatever is built (solve.h).
int seeds_worth_building(const Rules& rules, const Position& position);

// The transposition table for a solve over tables built in memory (the route from nothing):
// there the search is a few tens of millions of nodes, and a larger table costs more in page
// faults than it saves. Kalah(6,4) from nothing, one thread, took 0.91 of the CPU time with
// 64 MB as with 256 MB (standard rule, 3 pairs: 2.5 s less system time, 2.6% more user time;
// empty-capture 0.82).
inline constexpr size_t kTranspositionMegabytesOverBuiltTables = 64;

}  // namespace mancala
