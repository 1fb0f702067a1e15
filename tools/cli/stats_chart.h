// The per-layer statistics of a table and their SVG chart (mancala db stats --plot).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mancala::cli {

// Won, drawn and lost positions of one layer for the side to move, and how many have each value.
struct LayerStats {
  int seeds = 0;
  uint64_t positions = 0, wins = 0, draws = 0, losses = 0;
  std::map<int, uint64_t> histogram;
  // What the layer costs and what it could: its file's bytes, and its values' entropy.
  uint64_t file_bytes = 0;
  double entropy_order0 = 0, entropy_given_previous = 0;
};

// A stacked bar per layer: the share of won (green), drawn (grey) and lost (red) positions.
std::string svg_chart(const std::string& title, const std::vector<LayerStats>& layers);

}  // namespace mancala::cli
