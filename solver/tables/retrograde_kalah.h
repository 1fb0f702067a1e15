// The builder's pass for a Kalah layer (retrograde.h, "Kalah: one pass"): every position of the
// layer valued once, pair of sub-layers by pair (kalah_sub_layers.h), each in order of rising
// potential, so that its inner children are valued first.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "solver/rules/rules.h"
#include "solver/tables/kalah_sub_layers.h"
#include "solver/tables/layer_progress.h"
#include "solver/tables/table_index.h"

namespace mancala {

// Values every position of layer `seeds` of the Kalah table with `rules.houses` houses a side
// (table rules: table_rules.h) into `values` (layer_size(seeds) bytes, in rank order), from the
// layers below, `layers[0 .. seeds-1]`, with `threads` threads (at least 1); the bytes do not
// depend on their number. `progress` reports phase `phase`.
//
// The pairs are valued one after another in the order of kalah_pairs(seeds), and `before_pair`,
// when given, is called with each before it is valued. While a pair is valued, the pass writes
// the values of the pair's positions only, and reads below the layer only the values of the
// sub-layers kalah_pair_reads(rules, pair) and of layer 0 (the end of the game): the rest of the
// layers below need not be there meanwhile.
using KalahPairHook = std::function<void(SubLayer pair)>;
void value_kalah_layer(const Rules& rules, const TableIndex& index,
                       const std::vector<std::span<const int8_t>>& layers, int seeds,
                       int8_t* values, int threads, const std::string& phase,
                       const LayerProgressFn& progress, const KalahPairHook& before_pair = {});

}  // namespace mancala
