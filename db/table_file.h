// Writing and reading one table layer file (table_format.h). Reading maps the file read-only
// and checks magic, version, sizes and checksums before any value is trusted; each probe then
// decompresses at most one block, into a small per-thread cache, or, in a plain file, reads its
// byte in place.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "db/table_format.h"
#include "solver/rules/expected.h"

namespace mancala::db {

struct WriteOptions {
  uint32_t block_size = 1024;  // positions per block: smaller probes faster, larger packs tighter
  int compression_level = 19;  // zstd level
  size_t dictionary_size = 16 * 1024;  // 0: no dictionary
  // kPlainBytes instead of zstd blocks: one byte per value, uncompressed (the three fields
  // above are then unused).
  bool plain = false;
};

struct WriteReport {
  uint64_t file_size = 0;
  uint64_t block_count = 0;
  uint64_t dictionary_size = 0;
};

// Writes `values` (layer `seeds` of table `name`) to `path`. The file is written under a
// temporary name, read back and checked, and only then renamed into place, so an interrupted
// write never leaves a truncated file that looks valid.
Expected<WriteReport> write_table_file(const std::string& path, const std::string& name, int houses,
                                       int seeds, const std::vector<int8_t>& values,
                                       const WriteOptions& options = {});

class TableFile {
 public:
  // Maps and checks a file. `name`, `houses` and `seeds` (when not empty / >= 0) must match.
  static Expected<std::shared_ptr<const TableFile>> open(const std::string& path,
                                                         const std::string& name = "",
                                                         int houses = -1, int seeds = -1);
  ~TableFile();
  TableFile(const TableFile&) = delete;
  TableFile& operator=(const TableFile&) = delete;

  const TableHeader& header() const { return *header_; }
  const std::string& path() const { return path_; }
  uint64_t size() const { return header_->position_count; }
  uint32_t encoding() const { return header_->value_encoding; }
  bool is_plain() const { return header_->value_encoding == kPlainBytes; }
  // A plain file's values, in rank order, read in place from the mapping (valid while the file
  // lives); nullptr for a compressed file.
  const int8_t* plain_values() const {
    return is_plain() ? reinterpret_cast<const int8_t*>(data_) : nullptr;
  }

  // The unit of read_block: the header's blocks in a compressed file; in a plain file, which has
  // none, runs of kPlainReadBlock positions, so that block-wise readers work on both.
  static constexpr uint32_t kPlainReadBlock = 1024;
  uint64_t block_size() const { return is_plain() ? kPlainReadBlock : header_->block_size; }
  uint64_t block_count() const { return (size() + block_size() - 1) / block_size(); }

  // The value at `rank`, thread-safe. A block that fails to decompress or to match its checksum
  // is an error, never a value. (A plain file's bytes have no per-read check: data_checksum_ok
  // covers them.)
  Expected<int> value(uint64_t rank) const;
  // The values of one block (block_size() of them, fewer in the last), decoded into `out`.
  Expected<bool> read_block(uint64_t block, int8_t* out) const;
  // Every value, in rank order (used to resume builds and by verify, stats and unpack).
  // `progress(done, total)` (positions; called on the calling thread only) follows the decoding.
  Expected<std::vector<int8_t>> read_all(
      const std::function<void(uint64_t, uint64_t)>& progress = {}) const;
  // read_all after data_checksum_ok: a mismatch is an error ("corrupt data"), not values.
  Expected<std::vector<int8_t>> read_all_checked(
      const std::function<void(uint64_t, uint64_t)>& progress = {}) const;
  // Recomputes the data checksum over the whole file (open checks the header, index and
  // dictionary; blocks are checked by zstd when decompressed).
  bool data_checksum_ok() const;

 private:
  TableFile() = default;
  // The encoding's part of open's checks, on a header already known to be sound.
  Expected<bool> check_blocks();
  Expected<bool> check_plain();
  Expected<bool> decode_block(uint64_t block, uint8_t* out, void* context) const;

  std::string path_;
  const uint8_t* map_ = nullptr;
  size_t map_size_ = 0;
  const TableHeader* header_ = nullptr;
  const uint64_t* block_offsets_ = nullptr;
  const uint8_t* data_ = nullptr;  // the blocks, or a plain file's values
  void* dictionary_ = nullptr;     // ZSTD_DDict*
  uint64_t id_ = 0;                // tells cached blocks of different files apart
};

}  // namespace mancala::db
