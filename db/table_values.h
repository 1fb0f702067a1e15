// The endgame tables as the search's source of exact values.
#pragma once

#include <algorithm>
#include <atomic>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "db/probe_failures.h"
#include "db/table_set.h"
#include "solver/tables/big_buffer.h"
#include "solver/tables/exact_values.h"

namespace mancala::db {

class TableValues : public ExactValues {
 public:
  explicit TableValues(std::shared_ptr<const TableSet> tables,
                       ProbeFailureHandler on_first_failure = {})
      : tables_(std::move(tables)), failures_(std::move(on_first_failure)) {}

  // The table value where the tables cover the position; nullopt otherwise. A probe that fails
  // (a corrupt or missing layer) also gives nullopt, so the search goes on without it; the
  // failure is counted, its message kept, and the first one handed to the failure handler.
  std::optional<int> value(const Position& position) const override {
    const int seeds = position.seeds_on_board();
    if (seeds > tables_->max_seeds()) return std::nullopt;
    ProbeResult r = tables_->probe_key(seeds, table_key(position));
    if (r.ok()) return r.value;
    failures_.record(r.message);
    return std::nullopt;
  }

  int max_seeds() const override { return tables_->max_seeds(); }
  const TableSet& tables() const { return *tables_; }
  const std::shared_ptr<const TableSet>& shared_tables() const { return tables_; }
  uint64_t failures() const override { return failures_.count(); }
  std::string first_failure() const override { return failures_.first(); }

 private:
  std::shared_ptr<const TableSet> tables_;
  ProbeFailures failures_;
};

// The tables decoded into memory block by block as probes first touch them, for the solver: a
// probe is then an index computation and an array read instead of a block decompression. Which
// compressed layers are decoded is planned up front, lowest first, while they fit in
// `memory_budget` bytes; the others are probed through the files as usual. A layer read from a
// plain file (`mancala db unpack`) is probed in place, from the mapped file (its blocks checked
// against their checksums on first touch): no copy, no decoding, and none of the budget. Layers
// are opened on their first probe, not before. Thread-safe: a block is decoded by the first
// thread that needs it, and a thread that finds it being decoded reads that one value through the
// file instead of waiting. Failures are counted and reported as by TableValues.
class DecodedTableValues : public ExactValues {
 public:
  DecodedTableValues(std::shared_ptr<const TableSet> tables, uint64_t memory_budget,
                     ProbeFailureHandler on_first_failure = {})
      : tables_(std::move(tables)),
        index_(2 * tables_->houses(), std::max(tables_->max_seeds(), 0)),
        fallback_(tables_, std::move(on_first_failure)),
        layers_(std::make_unique<Layer[]>(static_cast<size_t>(tables_->max_seeds() + 1))) {
    uint64_t used = 0;
    for (int s = 0; s <= tables_->max_seeds(); ++s) {
      Layer& layer = layers_[static_cast<size_t>(s)];
      const uint64_t size = index_.layer_size(s);
      if (tables_->layer_is_plain(s)) {
        layer.plan = Plan::Plain;
        plain_bytes_ += size;
      } else if (used + size <= memory_budget) {
        layer.plan = Plan::Decoded;
        used += size;
      }
      if (layer.plan != Plan::Decoded) in_place_file_bytes_ += tables_->layer_file_bytes(s);
    }
    decoded_bytes_ = used;
  }

  std::optional<int> value(const Position& position) const override {
    const int seeds = position.seeds_on_board();
    if (seeds > tables_->max_seeds()) return std::nullopt;
    Layer& layer = layers_[static_cast<size_t>(seeds)];
    if (layer.state.load(std::memory_order_acquire) == kUnopened) open_layer(seeds, layer);
    if (layer.state.load(std::memory_order_acquire) != kOpen) return fallback_.value(position);
    const TableKey key = table_key(position);
    const uint64_t rank = index_.rank(key.counts.data());
    if (layer.plan == Plan::Plain) {
      int v;
      if (layer.file->plain_value(rank, v)) return v;
      return fallback_.value(position);  // counts the failure and keeps its message
    }
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
  // Bytes of memory planned for decoded layers (reserved when a layer is first probed, filled
  // per block).
  uint64_t decoded_bytes() const { return decoded_bytes_; }
  // Positions of the layers probed in place from plain files (one byte each, outside the budget).
  uint64_t plain_bytes() const { return plain_bytes_; }
  // Bytes of the files of the layers not decoded (plain ones and compressed ones beyond the
  // budget): probed in place, so their pages must stay in the page cache for the probes to keep
  // off the disk.
  uint64_t in_place_file_bytes() const { return in_place_file_bytes_; }
  // Blocks decompressed so far (each on its first probe).
  uint64_t blocks_decoded() const { return blocks_decoded_.load(); }
  uint64_t failures() const override { return fallback_.failures(); }
  std::string first_failure() const override { return fallback_.first_failure(); }

 private:
  enum class Plan : uint8_t { Files, Plain, Decoded };
  static constexpr uint8_t kUnopened = 0, kOpen = 1, kThroughFiles = 2;
  struct Layer {
    Plan plan = Plan::Files;
    std::once_flag once;
    std::atomic<uint8_t> state{kUnopened};  // kOpen: probed here; kThroughFiles: by fallback_
    std::shared_ptr<const TableFile> file;
    uint64_t block_size = 0;
    BigBuffer values;                               // reserved on open, filled per block
    std::unique_ptr<std::atomic<uint8_t>[]> ready;  // per block: kEmpty, kDecoding or kReady
  };
  static constexpr uint8_t kEmpty = 0, kDecoding = 1, kReady = 2;

  void open_layer(int seeds, Layer& layer) const {
    std::call_once(layer.once, [&] {
      uint8_t state = kThroughFiles;
      Expected<std::shared_ptr<const TableFile>> file = tables_->layer(seeds);
      // A layer that fails to open is probed through the fallback, which reports the failure.
      if (file && layer.plan == Plan::Plain && (*file)->is_plain()) {
        layer.file = *file;
        state = kOpen;
      } else if (file && layer.plan == Plan::Decoded && !(*file)->is_plain()) {
        try {
          layer.values = BigBuffer(index_.layer_size(seeds), false);
          layer.ready = std::make_unique<std::atomic<uint8_t>[]>((*file)->block_count());
          layer.file = *file;
          layer.block_size = layer.file->block_size();
          state = kOpen;
        } catch (const std::bad_alloc&) {  // no room to decode it: probed through the file
        }
      }
      layer.state.store(state, std::memory_order_release);
    });
  }

  std::shared_ptr<const TableSet> tables_;
  TableIndex index_;
  TableValues fallback_;
  std::unique_ptr<Layer[]> layers_;
  uint64_t decoded_bytes_ = 0;
  uint64_t plain_bytes_ = 0;
  uint64_t in_place_file_bytes_ = 0;
  mutable std::atomic<uint64_t> blocks_decoded_{0};
};

}  // namespace mancala::db
