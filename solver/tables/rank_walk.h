// Walking the positions of a layer in rank order, in parallel: the builder's phases and the
// verifier visit every position of a layer this way.
#pragma once

#include <algorithm>
#include <cstdint>

#include "solver/tables/table_index.h"

namespace mancala {

// Ranks are handed out in chunks of this many consecutive positions: a chunk unranks its first
// position once and walks the rest with next_key, which is much cheaper than unranking each.
inline constexpr uint64_t kRankChunk = uint64_t{1} << 14;

// Calls `body(rank, key)` for every rank in [begin, end) of layer `seeds`, chunks shared out
// between `threads` threads (dynamically: positions differ in cost). `body` must be safe to call
// from several threads at once; the order of calls is not defined.
template <class Body>
void for_each_rank(const TableIndex& index, int seeds, uint64_t begin, uint64_t end, int threads,
                   Body&& body) {
  const uint64_t chunks = (end - begin + kRankChunk - 1) / kRankChunk;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (uint64_t c = 0; c < chunks; ++c) {
    const uint64_t lo = begin + c * kRankChunk;
    const uint64_t hi = std::min(end, lo + kRankChunk);
    TableKey key;
    index.unrank(lo, seeds, key.counts.data());
    for (uint64_t r = lo; r < hi; ++r) {
      body(r, key);
      if (r + 1 < hi) next_key(key.counts.data(), index.slots());
    }
  }
}

}  // namespace mancala
