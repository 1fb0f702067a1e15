// The endgame tables as the search's source of exact values.
#pragma once

#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "db/table_set.h"
#include "solver/tables/big_buffer.h"
#include "solver/tables/exact_values.h"

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

  int max_seeds() const override { return tables_->max_seeds(); }
  const TableSet& tables() const { return *tables_; }
  const std::shared_ptr<const TableSet>& shared_tables() const { return tables_; }
  uint64_t failures() const { return failures_.load(); }
  const std::string& first_failure() const { return first_failure_; }

 private:
  std::shared_ptr<const TableSet> tables_;
  mutable std::atomic<uint64_t> failures_{0};
  mutable std::string first_failure_;
};

// The tables decoded into memory block by block as probes first touch them, for the solver: a
// probe is then an index computation and an array read instead of a block decompression. Layers
// larger than what is left of `memory_budget` bytes are probed through the files as usual. A layer
// read from a plain file (`mancala db unpack`) is probed in place, from the mapped file: no copy,
// no decoding, and none of the budget. Thread-safe: a block is decoded by the first thread that
// needs it, and a thread that finds it being decoded reads that one value through the file instead
// of waiting.
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
      Expected<std::shared_ptr<const TableFile>> file = tables_->layer(s);
      if (!file) continue;  // the fallback reports the failure when probed
      if ((*file)->is_plain()) {
        layer.file = *file;
        layer.plain = layer.file->plain_values();
        plain_bytes_ += size;
        continue;
      }
      if (used + size > memory_budget) continue;
      used += size;
      layer.file = *file;
      layer.block_size = layer.file->block_size();
      layer.values = BigBuffer(size, false);
      layer.ready = std::make_unique<std::atomic<uint8_t>[]>(layer.file->block_count());
    }
    decoded_bytes_ = used;
  }

  std::optional<int> value(const Position& position) const override {
    const int seeds = position.seeds_on_board();
    if (seeds > tables_->max_seeds()) return std::nullopt;
    Layer& layer = layers_[static_cast<size_t>(seeds)];
    if (!layer.plain && !layer.values.data()) return fallback_.value(position);
    const TableKey key = table_key(position);
    const uint64_t rank = index_.rank(key.counts.data());
    if (layer.plain) return layer.plain[rank];
    const uint64_t block = rank / layer.block_size;
    int8_t* values = static_cast<int8_t*>(layer.values.data());
    std::atomic<uint8_t>& state = layer.ready[block];
    if (state.load(std::memory_order_acquire) != kReady) {
      uint8_t empty = kEmpty;
      if (!state.compare_exchange_strong(empty, kDecoding, std::memory_order_acq_rel))
        return fallback_.value(position);  // another thread is decoding it
      if (!layer.file->read_block(block, values + block * layer.block_size)) {
        state.store(kEmpty, std::memory_order_release);
        return fallback_.value(position);  // counts the failure and keeps its message
      }
      state.store(kReady, std::memory_order_release);
      blocks_decoded_.fetch_add(1, std::memory_order_relaxed);
    }
    return values[rank];
  }

  int max_seeds() const override { return tables_->max_seeds(); }
  const TableSet& tables() const { return *tables_; }
  uint64_t decoded_bytes() const { return decoded_bytes_; }
  // Positions of the layers probed in place from plain files (one byte each, outside the budget).
  uint64_t plain_bytes() const { return plain_bytes_; }
  // Blocks decompressed so far (each on its first probe).
  uint64_t blocks_decoded() const { return blocks_decoded_.load(); }
  uint64_t failures() const { return fallback_.failures(); }
  const std::string& first_failure() const { return fallback_.first_failure(); }

 private:
  struct Layer {
    std::shared_ptr<const TableFile> file;
    const int8_t* plain = nullptr;  // a plain file's values, in its mapping: probed in place
    uint64_t block_size = 0;
    BigBuffer values;                               // reserved up front, filled per block
    std::unique_ptr<std::atomic<uint8_t>[]> ready;  // per block: kEmpty, kDecoding or kReady
  };
  static constexpr uint8_t kEmpty = 0, kDecoding = 1, kReady = 2;
  std::shared_ptr<const TableSet> tables_;
  TableIndex index_;
  TableValues fallback_;
  mutable std::vector<Layer> layers_;
  uint64_t decoded_bytes_ = 0;
  uint64_t plain_bytes_ = 0;
  mutable std::atomic<uint64_t> blocks_decoded_{0};
};

}  // namespace mancala::db
