#include "solver/tables/built_tables.h"

#include <algorithm>
#include <chrono>

#include "solver/tables/table_rules.h"
#include "solver/util/stopwatch.h"

namespace mancala {

BuiltTables::BuiltTables(const Rules& rules, int max_seeds, int threads,
                         const LayerProgressFn& progress)
    : builder_(rules, max_seeds, LayerMethod::Fastest, threads) {
  const auto start = std::chrono::steady_clock::now();
  for (int seeds = 0; seeds <= max_seeds; ++seeds) {
    builder_.build_layer(seeds, progress);
    bytes_ += builder_.index().layer_size(seeds);
  }
  build_seconds_ = seconds_since(start);
}

std::optional<int> BuiltTables::value(const Position& position) const {
  if (position.seeds_on_board() > builder_.max_seeds()) return std::nullopt;
  return builder_.value_of(position);
}

// Measured on Kalah(6,4) from the start (docs/solving.md, "Solving from nothing"): building the
// layers costs about 1.55 times more for each seed added near 20 seeds, while the search they
// spare shrinks more slowly; the sum was lowest with the tables 30 seeds below the board's for
// the empty-capture rule and 29 for the standard one, whose search is three times larger
// (Kalah(6,4) without tables: 208 M nodes against 68 M), so one more layer pays for itself.
// Positions with fewer seeds solve in well under a second without tables. Deeper than 22 seeds
// the build alone takes minutes and gigabytes: a user who wants those builds them once, with
// `mancala db build`, and keeps them.
int seeds_worth_building(const Rules& rules, const Position& position) {
  const int seeds_above_tables = rules.empty_capture ? 30 : 29;
  constexpr int kDeepestBuilt = 22;
  if (!table_rules_for(rules) || rules.kind != GameKind::Kalah) return -1;
  const int seeds = position.seeds_on_board();
  if (seeds < seeds_above_tables + 12) return -1;
  return std::min(seeds - seeds_above_tables, kDeepestBuilt);
}

}  // namespace mancala
