// The builder's pass for a Kalah layer (retrograde.h, "Kalah: one pass"): every position of the
// layer valued once, in order of rising potential (the whole layer at once, or pair of sub-layers
// by pair: kalah_sub_layers.h), so that its inner children are valued first.
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
// With `before_pair`, the layer is valued pair of sub-layers by pair, in the order of
// kalah_pairs(seeds), and `before_pair` is called with each before it is valued. While a pair is
// valued, the pass writes the values of the pair's positions only, and reads below the layer
// only the values of the sub-layers kalah_pair_reads(rules, pair) and of layer 0 (the end of the
// game): the rest of the layers below need not be there meanwhile. Without it, the whole layer is
// valued at once, potential by potential (the same bytes).
//
// `orders[t]` says in which order layer t below is laid out (kalah_sub_layers.h; none given, or
// fewer than `seeds`: rank order); `values` is written in the order `values_order`. In sub-layer
// order, pair by pair, a pair's writes (and its reads of its own layer) fall in its own two
// sub-layers, each one range: a layer larger than the memory can be built in a mapped file.
using KalahPairHook = std::function<void(SubLayer pair)>;
void value_kalah_layer(const Rules& rules, const TableIndex& index,
                       const std::vector<std::span<const int8_t>>& layers, int seeds,
                       int8_t* values, int threads, const std::string& phase,
                       const LayerProgressFn& progress, const KalahPairHook& before_pair = {},
                       const std::vector<LayerOrder>& orders = {},
                       LayerOrder values_order = LayerOrder::Ranks);

}  // namespace mancala
