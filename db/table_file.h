// Writing and reading one table layer file (table_format.h). Reading checks the header's every
// field, then maps the file read-only and checks the index and dictionary before any value is
// trusted; each probe then decompresses at most one block, into a small per-thread cache, or, in
// a plain file, reads its byte in place (its block's checksum checked on first touch).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "db/mapping_guard.h"
#include "db/table_format.h"
#include "db/value_code.h"
#include "db/write_options.h"
#include "solver/util/expected.h"

namespace mancala::db {

struct WriteReport {
  uint64_t file_size = 0;
  uint64_t block_count = 0;
  uint64_t dictionary_size = 0;
  int threads = 0;  // the threads that compressed the blocks (0: a plain file, none did)
};

// Writes `values` (layer `seeds` of table `name`) to `path`. The file is written under a
// temporary name (AtomicFile), synced, opened and checked as a reader would, and only then
// renamed into place, so an interrupted write or a full disk never leaves a truncated file that
// looks valid. Values outside -seeds..seeds are refused. `threads` threads compress the blocks;
// the bytes do not depend on their number.
Expected<WriteReport> write_table_file(const std::string& path, const std::string& name, int houses,
                                       int seeds, std::span<const int8_t> values,
                                       const WriteOptions& options = {}, int threads = 1);

// Whether a regular file at `path` starts as a table layer does (the format's magic), damaged
// or not: such a file is not to be overwritten by anything else. False when nothing readable is
// there.
bool is_table_file(const std::string& path);

class TableFile {
 public:
  // Opens and checks a file (db/README.md, "Trust"). `name`, `houses` and `seeds` (when not
  // empty / >= 0) must match the header. Only a regular file is opened (never waited on), its
  // header is read and bounded before anything else is trusted, and it is mapped read-only
  // through a GuardedMapping, so that a file truncated under the reader fails its probes instead
  // of killing the process.
  static Expected<std::shared_ptr<const TableFile>> open(const std::string& path,
                                                         const std::string& name = "",
                                                         int houses = -1, int seeds = -1);
  ~TableFile();
  TableFile(const TableFile&) = delete;
  TableFile& operator=(const TableFile&) = delete;

  // The header as read and checked at open (a copy: nothing later reads it from the mapping).
  const TableHeader& header() const { return header_; }
  const std::string& path() const { return path_; }
  std::string table_name() const;
  int seeds() const { return static_cast<int>(header_.seeds); }
  uint64_t size() const { return header_.position_count; }
  uint32_t encoding() const { return header_.value_encoding; }
  bool is_plain() const { return header_.value_encoding == kPlainBytes; }
  bool is_coded() const { return header_.value_encoding == kCodedBlocks; }
  // True once a read of the file's mapping faulted (the file was truncated or rewritten in place
  // under this reader): every read fails from then on.
  bool damaged() const { return mapping_.damaged(); }

  // The unit of read_block: the header's blocks, in both encodings.
  uint64_t block_size() const { return header_.block_size; }
  uint64_t block_count() const { return header_.block_count; }

  // The value at `rank`, thread-safe. Never a wrong value from a damaged file: a block that fails
  // to decompress or to match its checksum, a value outside -s..s, or a file changed under the
  // reader is an error.
  Expected<int> value(uint64_t rank) const;
  // The value at `rank` of a plain file, for the solver's hot path: the byte read in place, its
  // block checked against its checksum on first touch. False when value(rank) would be an error
  // (it says why).
  bool plain_value(uint64_t rank, int& out) const {
    if (rank >= header_.position_count) return false;
    const uint64_t block = rank / kPlainBlockSize;
    if (block_state_[block].load(std::memory_order_acquire) != kBlockGood &&
        !check_plain_block(block))
      return false;
    const int v = static_cast<int8_t>(data_[rank]);
    if (v < -max_value_ || v > max_value_ || mapping_.damaged()) return false;
    out = v;
    return true;
  }
  // A plain file's values in place, one byte a position in rank order (empty for another
  // encoding), without plain_value's checks: for a reader that checked the data against its
  // checksum first (data_checksum_ok) and may read every byte, the build resuming over the layer.
  // Valid while the TableFile lives; a file changed under it reads as zeros, and damaged() says so.
  std::span<const int8_t> plain_values() const {
    if (!is_plain()) return {};
    return {reinterpret_cast<const int8_t*>(data_), static_cast<size_t>(header_.position_count)};
  }
  // The value at `rank` of a coded file (kCodedBlocks), without the per-thread cache of zstd
  // blocks: its group checked against its checksum on first touch, then its block decoded up to
  // the rank. False when value(rank) would be an error (it says why).
  bool coded_value(uint64_t rank, int& out) const;
  // The values of one block (block_size() of them, fewer in the last), decoded into `out`.
  Expected<bool> read_block(uint64_t block, int8_t* out) const;
  // Every value, in rank order (used to resume builds and by verify, stats and unpack), each
  // block checked as by value(), compressed blocks decoded by `threads` threads.
  // `progress(done, total)` (positions; called on the calling thread only) follows the decoding.
  Expected<std::vector<int8_t>> read_all(
      const std::function<void(uint64_t, uint64_t)>& progress = {}, int threads = 1) const;
  // Whether the file holds exactly `values`, decoded a block at a time by `threads` threads and
  // compared in place: the writer's check of a file it wrote, without a second
  // copy of the layer in memory (3.2 GB for Kalah's 30-seed layer). An error when a block cannot
  // be read.
  Expected<bool> holds(std::span<const int8_t> values, int threads = 1) const;
  // read_all after data_checksum_ok: a mismatch is an error ("corrupt data"), not values.
  Expected<std::vector<int8_t>> read_all_checked(
      const std::function<void(uint64_t, uint64_t)>& progress = {}, int threads = 1) const;
  // Recomputes the data checksum over the whole file (open checks the header, index and
  // dictionary; blocks are checked by zstd, or by their checksums, when first read).
  bool data_checksum_ok() const;
  // data_checksum_ok as an error that says what failed: the data corrupt, or the file changed
  // under the reader.
  Expected<bool> check_data_checksum() const;

 private:
  static constexpr uint8_t kBlockUnchecked = 0, kBlockGood = 1, kBlockBad = 2;

  TableFile() = default;
  // The encoding's part of open's checks, on a header already known to be sound.
  Expected<bool> check_blocks();
  Expected<bool> check_plain();
  Expected<bool> check_coded();
  // Checks a coded group against its checksum and records the verdict; true when sound.
  bool check_coded_group(uint64_t group) const;
  // Decodes the first `count` values of coded block `block` (out may be null: `last` gets the
  // last one); false when its group or its bytes are unsound.
  bool decode_coded(uint64_t block, size_t count, int8_t* out, int& last) const;
  // Why a coded read of `rank` failed.
  Error coded_failure(uint64_t rank) const;
  Expected<bool> decode_block(uint64_t block, uint8_t* out, void* context) const;
  // Checks a plain block against its checksum and records the verdict; true when sound.
  bool check_plain_block(uint64_t block) const;
  // Why a plain read of `rank` failed.
  Error plain_failure(uint64_t rank) const;
  Error damaged_error() const;

  std::string path_;
  TableHeader header_{};
  GuardedMapping mapping_;
  int max_value_ = 0;               // values lie in -s..s
  const uint8_t* index_ = nullptr;  // block offsets (zstd), block checksums (plain) or groups
  const uint8_t* data_ = nullptr;   // the blocks, or a plain file's values
  void* dictionary_ = nullptr;      // ZSTD_DDict*
  uint64_t id_ = 0;                 // tells cached blocks of different files apart
  // Plain files: per block, kBlockUnchecked, kBlockGood or kBlockBad; coded files: per group.
  std::unique_ptr<std::atomic<uint8_t>[]> block_state_;
  std::shared_ptr<const ValueCode> code_;  // coded files: the layer's code
};

// The plain copy (`db unpack`) of layer `seeds` of table `name` in `directory` when one is there
// and sound: a plain file of that layer whose data matches its checksum. Null otherwise. A layer's
// values depend on the rules alone, so a sound copy may stand for the layer (a resumed build reads
// it in place of decoding the layer; unpack keeps it).
std::shared_ptr<const TableFile> open_sound_plain_copy(const std::string& directory,
                                                       const std::string& name, int houses,
                                                       int seeds);

}  // namespace mancala::db
