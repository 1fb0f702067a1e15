// The searches' scores are final store differences in seeds, at most the game's seed total (288
// for Kalah(12,12)) either way.
#pragma once

namespace mancala {

// Beyond any score: the bound of a full window, and the start of a maximum.
inline constexpr int kInfiniteScore = 10000;

}  // namespace mancala
