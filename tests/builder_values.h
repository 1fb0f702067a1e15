// Exact values straight from an in-memory builder, as the search and the players see tables.
#pragma once

#include "solver/tables/exact_values.h"
#include "solver/tables/retrograde.h"

namespace mancala {

class BuilderValues : public ExactValues {
 public:
  BuilderValues(const Rules& rules, int max_seeds) : builder_(rules, max_seeds) {
    for (int s = 0; s <= max_seeds; ++s) builder_.build_layer(s);
  }
  std::optional<int> value(const Position& p) const override {
    const int seeds = p.seeds_in_houses(Side::South) + p.seeds_in_houses(Side::North);
    if (seeds > builder_.max_seeds()) return std::nullopt;
    const TableKey key = table_key(p);
    return builder_.layer(seeds)[builder_.index().rank(key.counts.data())];
  }
  int max_seeds() const override { return builder_.max_seeds(); }

 private:
  RetrogradeBuilder builder_;
};

}  // namespace mancala
