// The builder's pass for a Kalah layer (retrograde.h, "Kalah: one pass"): every position of the
// layer valued once, in order of rising potential, so that its inner children are valued first.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "solver/rules/rules.h"
#include "solver/tables/layer_progress.h"
#include "solver/tables/table_index.h"

namespace mancala {

// Values every position of layer `seeds` of the Kalah table with `rules.houses` houses a side
// (table rules: table_rules.h) into `values` (layer_size(seeds) bytes, in rank order), from the
// layers below, `layers[0 .. seeds-1]`, with `threads` threads (at least 1); the bytes do not
// depend on their number. `progress` reports phase `phase`.
void value_kalah_layer(const Rules& rules, const TableIndex& index,
                       const std::vector<std::span<const int8_t>>& layers, int seeds,
                       int8_t* values, int threads, const std::string& phase,
                       const LayerProgressFn& progress);

}  // namespace mancala
