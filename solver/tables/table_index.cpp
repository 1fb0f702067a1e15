#include "solver/tables/table_index.h"

#include <algorithm>

namespace mancala {

TableIndex::TableIndex(int slots, int max_seeds) : slots_(slots) {
  const int rows = max_seeds + slots + 1;
  binomial_.assign(static_cast<size_t>(rows) * kColumns, 0);
  for (int n = 0; n < rows; ++n) {
    binomial_[static_cast<size_t>(n) * kColumns] = 1;
    for (int k = 1; k <= std::min(n, kMaxTableSlots); ++k)
      binomial_[static_cast<size_t>(n) * kColumns + k] =
          binomial_[static_cast<size_t>(n - 1) * kColumns + k - 1] +
          (k <= n - 1 ? binomial_[static_cast<size_t>(n - 1) * kColumns + k] : 0);
  }
}

void TableIndex::unrank(uint64_t rank, int seeds, uint8_t* counts) const {
  // Bars from the last (j = slots-2) down; each sits below the one above it.
  int top = seeds + slots_ - 1;  // the cell after the last bar's highest place
  for (int j = slots_ - 2; j >= 0; --j) {
    int bar = top - 1;
    while (binomial_[static_cast<size_t>(bar) * kColumns + static_cast<size_t>(j + 1)] > rank)
      --bar;
    rank -= binomial_[static_cast<size_t>(bar) * kColumns + static_cast<size_t>(j + 1)];
    counts[j + 1] = static_cast<uint8_t>(top - 1 - bar);
    top = bar;
  }
  counts[0] = static_cast<uint8_t>(top);
}

}  // namespace mancala
