// The pieces of a layer file (table_format.h) that every writer shares, so that the one-machine
// writer (write_table_file) and the distributed build (table_build_mpi.h), which compresses each
// process's blocks where they live, give the same bytes: the zigzag bytes of a block, which
// blocks the dictionary is trained on, the training, the compression of a block, and the header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "db/table_format.h"
#include "db/value_code.h"
#include "db/write_options.h"

namespace mancala::db {

// values[i] -> zigzag(values[i]) into out[0 .. count-1].
void zigzag_encode(const int8_t* values, size_t count, uint8_t* out);

// The blocks (of `block_count`) whose zigzag bytes, in this order, a layer's dictionary is
// trained on: a spread of at most 4000; none when the options want no dictionary or the layer
// has fewer than 32 blocks.
std::vector<uint64_t> dictionary_sample_blocks(uint64_t block_count, const WriteOptions& options);

// The dictionary trained on the sampled blocks (their bytes one after another, and each one's
// size). Empty when zstd finds too little variety to train on: the blocks do without.
std::vector<uint8_t> train_dictionary(const std::vector<uint8_t>& sample_bytes,
                                      const std::vector<size_t>& sample_sizes,
                                      const WriteOptions& options);

// Compresses blocks of zigzag bytes, each one zstd frame with its content checksum, against a
// dictionary (may be empty). One per thread; the dictionary must outlive it.
class BlockCompressor {
 public:
  // `prepared`: the dictionary prepared once for every thread (PreparedDictionary below).
  BlockCompressor(const void* prepared, const WriteOptions& options);
  ~BlockCompressor();
  BlockCompressor(const BlockCompressor&) = delete;
  BlockCompressor& operator=(const BlockCompressor&) = delete;
  // Replaces `out` with the frame of bytes[0 .. count-1], held in exactly its size; false if
  // zstd fails.
  bool compress(const uint8_t* bytes, size_t count, std::vector<uint8_t>& out);

 private:
  void* context_;               // ZSTD_CCtx*
  std::vector<uint8_t> frame_;  // room for the largest frame, reused
};

// A dictionary digested for compression at the options' level, shared by the threads.
class PreparedDictionary {
 public:
  PreparedDictionary(const std::vector<uint8_t>& dictionary, const WriteOptions& options);
  ~PreparedDictionary();
  PreparedDictionary(const PreparedDictionary&) = delete;
  PreparedDictionary& operator=(const PreparedDictionary&) = delete;
  const void* get() const { return dictionary_; }  // ZSTD_CDict*, nullptr when empty

 private:
  void* dictionary_;
};

// The zstd frames (BlockCompressor's) of values[0 .. count-1] cut into blocks of `block_size`
// from values[0], compressed by `threads` threads (the frames do not depend on their number):
// a layer's whole data section, or the blocks of a run a process of the distributed build holds.
struct CompressedBlocks {
  std::vector<std::vector<uint8_t>> frames;  // one per block, in order
  int threads = 0;                           // the threads that compressed them
  bool failed = false;                       // zstd failed on a block
};
CompressedBlocks compress_blocks(const int8_t* values, uint64_t count, uint64_t block_size,
                                 const PreparedDictionary& dictionary, const WriteOptions& options,
                                 int threads);

// A layer's data section made in pieces (a coded group, a compressed block), each held in
// exactly its size and written one after another: the section is never copied whole, which
// doubled the writer's memory for the largest layers (2.3 GB of Kalah's 32-seed layer).
struct DataPieces {
  std::vector<std::vector<uint8_t>> pieces;
  uint64_t size = 0;  // all the pieces' bytes
};
// The pieces in one block of memory, each freed once copied (for a writer that needs the bytes
// in one place, as the distributed build's writes at an offset do).
std::vector<uint8_t> join_pieces(DataPieces&& data);

// The groups of blocks of a coded layer (kCodedBlocks) for values[0 .. count-1], which start at
// a group's first position (a multiple of kGroupBlocks * block_size): each group's index entry,
// its offset counted from the first group's start, and the groups' bytes, a piece each.
// `threads` threads code the groups; the bytes do not depend on their number.
struct CodedGroups {
  std::vector<CodedGroup> index;
  DataPieces data;
};
CodedGroups encode_groups(const int8_t* values, uint64_t count, uint32_t block_size,
                          const ValueCode& code, int threads);

// The code of a coded layer: the code lengths for its values' contexts, counted by `threads`
// threads (the same lengths for any number of them).
std::vector<uint8_t> layer_code_lengths(const int8_t* values, uint64_t count, uint32_t block_size,
                                        int seeds, int threads);

// The index entries of a coded layer, as bytes.
inline uint64_t coded_group_count(uint64_t block_count) {
  return (block_count + kGroupBlocks - 1) / kGroupBlocks;
}

// What a layer file's header says beyond its table and layer: the sections' sizes and checksums.
struct LayerSections {
  uint32_t encoding = kZstdBlocks;
  uint32_t block_size = 0;   // kPlainBlockSize in a plain file
  uint64_t block_count = 0;  // zstd: block_count + 1 offsets in the index; plain: one checksum
                             // each; coded: one CodedGroup per kGroupBlocks
  uint64_t dictionary_size = 0;
  uint64_t data_size = 0;
  uint64_t index_checksum = 0;
  uint64_t dictionary_checksum = 0;
  uint64_t data_checksum = 0;
};

// The header of layer `seeds` of table `name`, its sections laid out one after another, its own
// checksum filled in. `name` must be shorter than kNameSize.
TableHeader layer_header(const std::string& name, int houses, int seeds, uint64_t position_count,
                         const LayerSections& sections);

}  // namespace mancala::db
