#include "db/table_blocks.h"

#include <omp.h>
#include <zdict.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>

#include "solver/util/thread_count.h"

namespace mancala::db {

void zigzag_encode(const int8_t* values, size_t count, uint8_t* out) {
  for (size_t i = 0; i < count; ++i) out[i] = zigzag(values[i]);
}

std::vector<uint64_t> dictionary_sample_blocks(uint64_t block_count, const WriteOptions& options) {
  std::vector<uint64_t> blocks;
  if (options.dictionary_size == 0 || block_count < 32) return blocks;
  const uint64_t samples = std::min<uint64_t>(block_count, 4000);
  for (uint64_t k = 0; k < samples; ++k) blocks.push_back(k * block_count / samples);
  return blocks;
}

std::vector<uint8_t> train_dictionary(const std::vector<uint8_t>& sample_bytes,
                                      const std::vector<size_t>& sample_sizes,
                                      const WriteOptions& options) {
  std::vector<uint8_t> dictionary(options.dictionary_size);
  const size_t size =
      ZDICT_trainFromBuffer(dictionary.data(), dictionary.size(), sample_bytes.data(),
                            sample_sizes.data(), static_cast<unsigned>(sample_sizes.size()));
  if (ZDICT_isError(size)) return {};
  dictionary.resize(size);
  return dictionary;
}

PreparedDictionary::PreparedDictionary(const std::vector<uint8_t>& dictionary,
                                       const WriteOptions& options)
    : dictionary_(dictionary.empty() ? nullptr
                                     : ZSTD_createCDict(dictionary.data(), dictionary.size(),
                                                        options.compression_level)) {}

PreparedDictionary::~PreparedDictionary() {
  ZSTD_freeCDict(static_cast<ZSTD_CDict*>(dictionary_));
}

BlockCompressor::BlockCompressor(const void* prepared, const WriteOptions& options)
    : context_(ZSTD_createCCtx()) {
  auto* context = static_cast<ZSTD_CCtx*>(context_);
  ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, options.compression_level);
  ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1);
  ZSTD_CCtx_setParameter(context, ZSTD_c_dictIDFlag, 0);
  if (prepared) ZSTD_CCtx_refCDict(context, static_cast<const ZSTD_CDict*>(prepared));
}

BlockCompressor::~BlockCompressor() {
  ZSTD_freeCCtx(static_cast<ZSTD_CCtx*>(context_));
}

bool BlockCompressor::compress(const uint8_t* bytes, size_t count, std::vector<uint8_t>& out) {
  frame_.resize(std::max(frame_.size(), ZSTD_compressBound(count)));
  const size_t n =
      ZSTD_compress2(static_cast<ZSTD_CCtx*>(context_), frame_.data(), frame_.size(), bytes, count);
  if (ZSTD_isError(n)) return false;
  // A copy of exactly the frame's size: a vector cut down from the bound would keep its
  // capacity, as much memory as the layer itself.
  out.assign(frame_.begin(), frame_.begin() + static_cast<ptrdiff_t>(n));
  return true;
}

CompressedBlocks compress_blocks(const int8_t* values, uint64_t count, uint64_t block_size,
                                 const PreparedDictionary& dictionary, const WriteOptions& options,
                                 int threads) {
  const uint64_t blocks = (count + block_size - 1) / block_size;
  CompressedBlocks out;
  out.frames.resize(blocks);
  bool failed = false;
#pragma omp parallel num_threads(team_size(threads))
  {
#pragma omp single nowait
    out.threads = omp_get_num_threads();
    BlockCompressor compressor(dictionary.get(), options);
    std::vector<uint8_t> encoded(block_size);  // a block's zigzag bytes: no copy of the values
#pragma omp for schedule(dynamic, 16)
    for (uint64_t b = 0; b < blocks; ++b) {
      const uint64_t lo = b * block_size, hi = std::min(count, lo + block_size);
      zigzag_encode(values + lo, hi - lo, encoded.data());
      if (!compressor.compress(encoded.data(), hi - lo, out.frames[b])) {
#pragma omp atomic write
        failed = true;
      }
    }
  }
  out.failed = failed;
  return out;
}

std::vector<uint8_t> join_pieces(DataPieces&& data) {
  std::vector<uint8_t> bytes;
  bytes.reserve(data.size);
  for (std::vector<uint8_t>& piece : data.pieces) {
    bytes.insert(bytes.end(), piece.begin(), piece.end());
    std::vector<uint8_t>().swap(piece);
  }
  data = {};
  return bytes;
}

CodedGroups encode_groups(const int8_t* values, uint64_t count, uint32_t block_size,
                          const ValueCode& code, int threads) {
  const uint64_t group_positions = uint64_t{kGroupBlocks} * block_size;
  const uint64_t groups = (count + group_positions - 1) / group_positions;
  CodedGroups out;
  std::vector<std::vector<uint8_t>>& bytes = out.data.pieces;
  bytes.resize(groups);
  out.index.assign(groups, CodedGroup{});
#pragma omp parallel num_threads(team_size(threads))
  {
    // Coded into a buffer of the thread's, then copied at its size: a vector grown by push_back
    // keeps up to twice the room it needs.
    std::vector<uint8_t> group;
#pragma omp for schedule(dynamic, 4)
    for (uint64_t g = 0; g < groups; ++g) {
      CodedGroup& entry = out.index[g];
      group.clear();
      const uint64_t first = g * group_positions;
      for (uint32_t j = 0; j < kGroupBlocks; ++j) {
        const uint64_t lo = std::min(count, first + uint64_t{j} * block_size);
        const uint64_t hi = std::min(count, lo + block_size);
        if (hi > lo) code.encode_block(values + lo, hi - lo, group);
        entry.block_end[j] = static_cast<uint16_t>(group.size());
      }
      entry.checksum = plain_block_checksum(group.data(), group.size());
      bytes[g].assign(group.begin(), group.end());
    }
  }
  for (uint64_t g = 0; g < groups; ++g) {
    out.index[g].offset = out.data.size;
    out.data.size += bytes[g].size();
  }
  return out;
}

std::vector<uint8_t> layer_code_lengths(const int8_t* values, uint64_t count, uint32_t block_size,
                                        int seeds, int threads) {
  // Counted in spans of whole blocks, one count table per span, summed in span order: integer
  // sums, so any number of threads gives the same counts.
  const uint64_t span = uint64_t{block_size} * 4096;
  const uint64_t spans = (count + span - 1) / span;
  std::vector<std::vector<uint64_t>> partial(spans);
#pragma omp parallel for schedule(dynamic, 1) num_threads(team_size(threads))
  for (uint64_t k = 0; k < spans; ++k) {
    const uint64_t lo = k * span, hi = std::min(count, lo + span);
    count_contexts(values + lo, hi - lo, block_size, seeds, partial[k]);
  }
  std::vector<uint64_t> counts;
  count_contexts(values, 0, block_size, seeds, counts);
  for (const std::vector<uint64_t>& p : partial)
    for (size_t i = 0; i < counts.size(); ++i) counts[i] += p[i];
  return code_lengths(counts, seeds);
}

TableHeader layer_header(const std::string& name, int houses, int seeds, uint64_t position_count,
                         const LayerSections& sections) {
  const bool plain = sections.encoding == kPlainBytes;
  const bool coded = sections.encoding == kCodedBlocks;
  const uint64_t index_bytes =
      coded ? coded_group_count(sections.block_count) * sizeof(CodedGroup)
            : (plain ? sections.block_count : sections.block_count + 1) * sizeof(uint64_t);
  TableHeader header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.version = coded ? kCodedFormatVersion : kFormatVersion;
  header.header_size = kHeaderSize;
  std::memcpy(header.name, name.data(), std::min(name.size(), kNameSize - 1));
  header.houses = static_cast<uint32_t>(houses);
  header.seeds = static_cast<uint32_t>(seeds);
  header.position_count = position_count;
  header.value_encoding = sections.encoding;
  header.block_size = sections.block_size;
  header.block_count = sections.block_count;
  header.index_offset = kHeaderSize;
  header.dictionary_offset = header.index_offset + index_bytes;
  header.dictionary_size = sections.dictionary_size;
  header.data_offset = header.dictionary_offset + sections.dictionary_size;
  header.data_size = sections.data_size;
  header.file_size = header.data_offset + sections.data_size;
  header.index_checksum = sections.index_checksum;
  header.dictionary_checksum = sections.dictionary_checksum;
  header.data_checksum = sections.data_checksum;
  header.header_checksum = header_checksum(header);
  return header;
}

}  // namespace mancala::db
