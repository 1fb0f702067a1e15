// The endgame tables as the search's source of exact values.
#pragma once

#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "db/table_set.h"
#include "solver/search.h"

namespace mancala::db {

class TableValues : public ExactValues {
 public:
  explicit TableValues(std::shared_ptr<const TableSet> tables) : tables_(std::move(tables)) {}

  // The table value where the tables cover the position; nullopt otherwise. A probe that fails
  // (a corrupt or missing layer) also gives nullopt, so the search goes on without it; the
  // failure is counted and its message kept.
  std::optional<int> value(const Position& position) const override {
    const int seeds = position.seeds_on_board();
    if (seeds > tables_->max_seeds()) return std::nullopt;
    ProbeResult r = tables_->probe_key(seeds, table_key(position));
    if (r.ok()) return r.value;
    if (failures_.fetch_add(1) == 0) first_failure_ = r.message;
    return std::nullopt;
  }

  const TableSet& tables() const { return *tables_; }
  const std::shared_ptr<const TableSet>& shared_tables() const { return tables_; }
  uint64_t failures() const { return failures_.load(); }
  const std::string& first_failure() const { return first_failure_; }

 private:
  std::shared_ptr<const TableSet> tables_;
  mutable std::atomic<uint64_t> failures_{0};
  mutable std::string first_failure_;
};

// The tables decoded into memory block by block as probes first touch them, for one thread (the
// solver): a probe is then an index computation and an array read instead of a block
// decompression. Layers larger than what is left of `memory_budget` bytes are probed through
// the files as usual. Not thread-safe.
class DecodedTableValues : public ExactValues {
 public:
  DecodedTableValues(std::shared_ptr<const TableSet> tables, uint64_t memory_budget)
      : tables_(std::move(tables)),
        index_(2 * tables_->houses(), std::max(tables_->max_seeds(), 0)),
        fallback_(tables_) {
    uint64_t used = 0;
    for (int s = 0; s <= tables_->max_seeds(); ++s) {
      Layer& layer = layers_.emplace_back();
      const uint64_t size = index_.layer_size(s);
      if (used + size > memory_budget) continue;
      Expected<std::shared_ptr<const TableFile>> file = tables_->layer(s);
      if (!file) continue;  // the fallback reports the failure when probed
      used += size;
      layer.file = *file;
      layer.block_size = layer.file->header().block_size;
      layer.values.reset(new int8_t[size]);
      layer.ready.assign(layer.file->header().block_count, 0);
    }
    decoded_bytes_ = used;
  }

  std::optional<int> value(const Position& position) const override {
    const int seeds = position.seeds_on_board();
    if (seeds > tables_->max_seeds()) return std::nullopt;
    Layer& layer = layers_[static_cast<size_t>(seeds)];
    if (!layer.values) return fallback_.value(position);
    const TableKey key = table_key(position);
    const uint64_t rank = index_.rank(key.counts.data());
    const uint64_t block = rank / layer.block_size;
    if (!layer.ready[block]) {
      if (!layer.file->read_block(block, layer.values.get() + block * layer.block_size))
        return fallback_.value(position);  // counts the failure and keeps its message
      layer.ready[block] = 1;
    }
    return layer.values[rank];
  }

  const TableSet& tables() const { return *tables_; }
  uint64_t decoded_bytes() const { return decoded_bytes_; }
  uint64_t failures() const { return fallback_.failures(); }
  const std::string& first_failure() const { return fallback_.first_failure(); }

 private:
  struct Layer {
    std::shared_ptr<const TableFile> file;
    uint64_t block_size = 0;
    std::unique_ptr<int8_t[]> values;  // allocated up front, filled per block
    std::vector<uint8_t> ready;        // per block: decoded
  };
  std::shared_ptr<const TableSet> tables_;
  TableIndex index_;
  TableValues fallback_;
  mutable std::vector<Layer> layers_;
  uint64_t decoded_bytes_ = 0;
};

}  // namespace mancala::db
