// How a layer file is to be written: the encoding, its block size, the zstd level and
// dictionary, or plain. Its own header because both the writer (table_file.h) and the pieces
// every writer shares (table_blocks.h) take it, and the writer is built on those pieces.
#pragma once

#include <cstddef>
#include <cstdint>

#include "db/table_format.h"

namespace mancala::db {

struct WriteOptions {
  // How a compressed layer is coded: kCodedBlocks (format version 2, the default: smaller files
  // and probes several times faster, db/README.md "Version 2") or kZstdBlocks (version 1, zstd
  // blocks, still written on request and read as ever).
  uint32_t encoding = kCodedBlocks;
  // Positions per block: smaller probes faster, larger packs tighter. 0: the encoding's default
  // (kDefaultCodedBlockSize, or kDefaultZstdBlockSize); a coded block holds at most
  // kMaxCodedBlockSize.
  uint32_t block_size = 0;
  // zstd level. 12, not zstd's densest 19: on Kalah tables 19 made the build twice as slow (zstd
  // took 70% of it) for files 6% smaller; `db build --level 19` still gives the smallest files.
  int compression_level = 12;
  size_t dictionary_size = 16 * 1024;  // 0: no dictionary
  // kPlainBytes instead of compressed blocks: one byte per value, uncompressed (the fields
  // above are then unused).
  bool plain = false;
};

// Positions per zstd block when the options leave it to the encoding.
inline constexpr uint32_t kDefaultZstdBlockSize = 1024;
// The block size a write with these options uses.
inline uint32_t block_size_of(const WriteOptions& options) {
  if (options.block_size) return options.block_size;
  return options.encoding == kCodedBlocks ? kDefaultCodedBlockSize : kDefaultZstdBlockSize;
}

}  // namespace mancala::db
