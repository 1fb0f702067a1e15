#include "db/table_file.h"

#include <fcntl.h>
#include <omp.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>

// xxHash inlined, so that it is compiled for this machine's vector unit (AVX2 or AVX-512). GCC 12
// warns about the AVX-512 intrinsics' deliberately undefined inputs (a known false positive), so
// the warning is off for xxHash's code.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "db/file_io.h"
#include "solver/rules/rules.h"
#include "solver/tables/table_index.h"
#include "solver/util/thread_count.h"

#include "db/checksum_stream.h"
#include "db/table_blocks.h"

namespace mancala::db {

uint64_t checksum64(const void* data, size_t size) {
  Checksum64Stream stream(size);
  stream.update(data, size);
  return stream.finish();
}

std::string table_directory_name(const std::string& table_name) {
  std::string out = table_name;
  std::replace(out.begin(), out.end(), ':', '-');
  return out;
}

std::string layer_file_name(int seeds) {
  char name[32];
  std::snprintf(name, sizeof name, "seeds-%02d.mtb", seeds);
  return name;
}

std::string plain_layer_file_name(int seeds) {
  char name[32];
  std::snprintf(name, sizeof name, "seeds-%02d.plain.mtb", seeds);
  return name;
}

int layer_of_file_name(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  for (int seeds = 0; seeds <= kMaxTableSeeds; ++seeds)
    if (name == layer_file_name(seeds) || name == plain_layer_file_name(seeds)) return seeds;
  return -1;
}

std::string encoding_name(uint32_t value_encoding) {
  switch (value_encoding) {
    case kZstdBlocks:
      return "zstd";
    case kPlainBytes:
      return "plain";
    case kCodedBlocks:
      return "coded";
    case kUncheckedPlainBytes:
      return "plain (old layout)";
    default:
      return "unknown (" + std::to_string(value_encoding) + ")";
  }
}

uint64_t plain_block_checksum(const void* data, size_t size) {
  return XXH3_64bits(data, size);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace {

uint64_t composition_count(int seeds, int slot_count) {
  // C(seeds + slot_count - 1, slot_count - 1), exact in 64 bits for every table size in use.
  uint64_t result = 1;
  for (int k = 1; k < slot_count; ++k)
    result = result * static_cast<uint64_t>(seeds + k) / static_cast<uint64_t>(k);
  return result;
}

Error file_error(const std::string& path, const std::string& what) {
  return Error{shown_path(path) + ": " + what};
}

std::atomic<uint64_t> next_file_id{1};

// Per-thread decompression state: a context and a small direct-mapped cache of decoded blocks.
struct ThreadCache {
  static constexpr size_t kEntries = 64;
  struct Entry {
    uint64_t file_id = 0;
    uint64_t block = 0;
    std::vector<uint8_t> bytes;
  };
  ZSTD_DCtx* context = ZSTD_createDCtx();
  Entry entries[kEntries];
  // Coded blocks, decoded as far as a probe needed them: probes along a game (a search, an Oware
  // cycle) come back to the same blocks, and a decoded prefix answers them at once; a probe past
  // the prefix decodes the block again up to its rank (a block's code is read from its start).
  struct CodedEntry {
    uint64_t file_id = 0;
    uint64_t block = 0;
    uint32_t decoded = 0;  // values[0 .. decoded-1] hold the block's first values
    int8_t values[kMaxCodedBlockSize];
  };
  CodedEntry coded[kEntries];
  ~ThreadCache() { ZSTD_freeDCtx(context); }
};

ThreadCache& thread_cache() {
  thread_local ThreadCache cache;
  return cache;
}

// The sections of a compressed file: the block index, the shared dictionary and the blocks.
struct CompressedSections {
  std::vector<uint64_t> index;
  std::vector<uint8_t> dictionary;
  DataPieces data;
  int threads = 0;  // the threads that compressed the blocks
};

Expected<CompressedSections> compress_values(const std::string& path,
                                             std::span<const int8_t> values,
                                             const WriteOptions& options, int threads) {
  const uint64_t count = values.size();
  const uint64_t block_size = block_size_of(options);
  const uint64_t blocks = (count + block_size - 1) / block_size;

  // A dictionary trained on a spread of blocks lets small blocks compress like large ones.
  CompressedSections sections;
  const std::vector<uint64_t> sample_blocks = dictionary_sample_blocks(blocks, options);
  if (!sample_blocks.empty()) {
    std::vector<uint8_t> sample_bytes;
    std::vector<size_t> sample_sizes;
    for (const uint64_t b : sample_blocks) {
      const uint64_t lo = b * block_size, hi = std::min(count, lo + block_size);
      const size_t at = sample_bytes.size();
      sample_bytes.resize(at + (hi - lo));
      zigzag_encode(values.data() + lo, hi - lo, sample_bytes.data() + at);
      sample_sizes.push_back(hi - lo);
    }
    sections.dictionary = train_dictionary(sample_bytes, sample_sizes, options);
  }

  CompressedBlocks compressed =
      compress_blocks(values.data(), count, block_size,
                      PreparedDictionary(sections.dictionary, options), options, threads);
  sections.threads = compressed.threads;
  if (compressed.failed) return file_error(path, "compression failed");
  sections.data.pieces = std::move(compressed.frames);

  std::vector<uint64_t>& offsets = sections.index;
  offsets.assign(blocks + 1, 0);
  for (uint64_t b = 0; b < blocks; ++b)
    offsets[b + 1] = offsets[b] + sections.data.pieces[b].size();
  sections.data.size = offsets[blocks];
  return sections;
}

// The pieces one after another, gathered into writes of a few megabytes (a piece is a block or
// a group of blocks: a few hundred bytes to a few kilobytes).
Expected<bool> write_pieces(AtomicFile& out, const DataPieces& data) {
  constexpr size_t kWriteSize = size_t{4} << 20;
  std::vector<uint8_t> buffer;
  buffer.reserve(kWriteSize);
  for (const std::vector<uint8_t>& piece : data.pieces) {
    if (buffer.size() + piece.size() > kWriteSize) {
      if (Expected<bool> written = out.write(buffer.data(), buffer.size()); !written)
        return written;
      buffer.clear();
    }
    buffer.insert(buffer.end(), piece.begin(), piece.end());
  }
  return out.write(buffer.data(), buffer.size());
}

}  // namespace

bool is_table_file(const std::string& path) {
  Expected<OpenedFile> file = open_regular_file(path);
  if (!file) return false;
  char magic[sizeof kMagic];
  const ssize_t n = ::pread(file->fd.get(), magic, sizeof magic, 0);
  return n == static_cast<ssize_t>(sizeof magic) && std::memcmp(magic, kMagic, sizeof magic) == 0;
}

Expected<WriteReport> write_table_file(const std::string& path, const std::string& name, int houses,
                                       int seeds, std::span<const int8_t> values,
                                       const WriteOptions& options, int threads) {
  if (name.size() >= kNameSize) return file_error(path, "table name too long");
  if (houses < 1 || houses > static_cast<int>(kMaxTableHouses) || seeds < 0 ||
      seeds > kMaxTableSeeds)
    return file_error(path, "no table layer has " + std::to_string(houses) + " houses and " +
                                std::to_string(seeds) + " seeds");
  const uint64_t count = values.size();
  if (count != composition_count(seeds, 2 * houses))
    return file_error(path, "value count does not match the layer size");
  for (uint64_t rank = 0; rank < count; ++rank)
    if (values[rank] < -seeds || values[rank] > seeds)
      return file_error(path, "value " + std::to_string(values[rank]) + " at rank " +
                                  std::to_string(rank) + " is outside -" + std::to_string(seeds) +
                                  ".." + std::to_string(seeds));
  const bool coded = !options.plain && options.encoding == kCodedBlocks;
  if (!options.plain && options.encoding != kCodedBlocks && options.encoding != kZstdBlocks)
    return file_error(path, "unknown value encoding " + std::to_string(options.encoding));
  const uint32_t largest_block = coded ? kMaxCodedBlockSize : kMaxBlockSize;
  if (!options.plain && block_size_of(options) > largest_block)
    return file_error(path, "block size must be from 1 to " + std::to_string(largest_block));
  if (!options.plain && options.dictionary_size > kMaxDictionarySize)
    return file_error(path,
                      "dictionary size must be at most " + std::to_string(kMaxDictionarySize));
  // A table file replaces only a file (or nothing): never a FIFO or a directory of that name.
  Expected<PathKind> kind = path_kind(path);
  if (!kind) return Error{kind.error()};
  if (*kind == PathKind::Directory || *kind == PathKind::Other)
    return file_error(path, "is not a regular file; remove it first");

  // A plain file is its values and a checksum per block; a compressed one has a block index,
  // a dictionary (a coded one: its code) and blocks.
  CompressedSections sections;
  std::vector<uint8_t> coded_index;
  // A plain file's data is the values; a compressed one's, sections.data in pieces.
  const bool in_pieces = !options.plain;
  uint64_t data_size = count;
  uint64_t block_size = kPlainBlockSize;
  uint64_t block_count = (count + kPlainBlockSize - 1) / kPlainBlockSize;
  if (options.plain) {
    const auto* data = reinterpret_cast<const uint8_t*>(values.data());
    sections.index.resize(block_count);
    for (uint64_t b = 0; b < block_count; ++b) {
      const uint64_t first = b * kPlainBlockSize;
      sections.index[b] =
          plain_block_checksum(data + first, std::min<uint64_t>(kPlainBlockSize, count - first));
    }
  } else if (coded) {
    block_size = block_size_of(options);
    block_count = (count + block_size - 1) / block_size;
    sections.threads = team_size(threads);
    sections.dictionary =
        layer_code_lengths(values.data(), count, static_cast<uint32_t>(block_size), seeds, threads);
    Expected<std::shared_ptr<const ValueCode>> code =
        ValueCode::from_lengths(sections.dictionary.data(), sections.dictionary.size(), seeds);
    if (!code) return file_error(path, code.error());
    CodedGroups groups =
        encode_groups(values.data(), count, static_cast<uint32_t>(block_size), **code, threads);
    coded_index.resize(groups.index.size() * sizeof(CodedGroup));
    std::memcpy(coded_index.data(), groups.index.data(), coded_index.size());
    sections.data = std::move(groups.data);
    data_size = sections.data.size;
  } else {
    Expected<CompressedSections> compressed = compress_values(path, values, options, threads);
    if (!compressed) return Error{compressed.error()};
    sections = std::move(compressed.value());
    data_size = sections.data.size;
    block_size = block_size_of(options);
    block_count = sections.index.size() - 1;
  }
  const void* index = coded ? static_cast<const void*>(coded_index.data()) : sections.index.data();
  const std::vector<uint8_t>& dictionary = sections.dictionary;
  const uint64_t index_bytes =
      coded ? coded_index.size() : sections.index.size() * sizeof(uint64_t);

  LayerSections layout;
  layout.encoding = options.plain ? kPlainBytes : coded ? kCodedBlocks : kZstdBlocks;
  layout.block_size = static_cast<uint32_t>(block_size);
  layout.block_count = block_count;
  layout.dictionary_size = dictionary.size();
  layout.data_size = data_size;
  layout.index_checksum = checksum64(index, index_bytes);
  layout.dictionary_checksum = checksum64(dictionary.data(), dictionary.size());
  if (in_pieces) {
    Checksum64Stream data_checksum(data_size);
    for (const std::vector<uint8_t>& piece : sections.data.pieces)
      data_checksum.update(piece.data(), piece.size());
    layout.data_checksum = data_checksum.finish();
  } else {
    layout.data_checksum = checksum64(values.data(), data_size);
  }
  const TableHeader header = layer_header(name, houses, seeds, count, layout);

  Expected<AtomicFile> created = AtomicFile::create(path);
  if (!created) return Error{created.error()};
  AtomicFile out = std::move(created.value());
  for (const auto& [bytes, size] : {std::pair<const void*, uint64_t>{&header, sizeof header},
                                    {index, index_bytes},
                                    {dictionary.data(), dictionary.size()}}) {
    Expected<bool> written = out.write(bytes, size);
    if (!written) return Error{written.error()};
  }
  if (Expected<bool> written =
          in_pieces ? write_pieces(out, sections.data) : out.write(values.data(), data_size);
      !written)
    return Error{written.error()};
  Expected<bool> synced = out.sync();
  if (!synced) return Error{synced.error()};
  // Read it back before it takes the real name: its header and sections, its data checksum, and
  // for a plain or coded file every block against its checksum (what readers check on first
  // touch) and every value (a coded one: decoded with the code read from the file).
  Expected<std::shared_ptr<const TableFile>> check =
      TableFile::open(out.temporary_path(), name, houses, seeds);
  if (!check || !(*check)->data_checksum_ok())
    return file_error(
        path, "written file failed its check: " + (check ? "data checksum" : check.error()));
  if (options.plain || coded) {
    Expected<bool> same = (*check)->holds(values, threads);
    if (!same || !*same)
      return file_error(
          path, "written file failed its check: " + (same ? "values differ" : same.error()));
  }
  Expected<bool> committed = out.commit();
  if (!committed) return Error{committed.error()};
  return WriteReport{header.file_size, header.block_count, dictionary.size(), sections.threads};
}

namespace {

// Every field of a header bounded by what the format allows, before any of it is trusted: a
// forged header with a recomputed checksum must not make a reader allocate or read without
// bound.
Expected<bool> check_header(const TableHeader& h, const std::string& path, uint64_t file_size) {
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0)
    return file_error(path, "not a mancala table (bad magic)");
  if (h.version != kFormatVersion && h.version != kCodedFormatVersion)
    return file_error(path, "format version " + std::to_string(h.version) + ", expected " +
                                std::to_string(kFormatVersion) + " or " +
                                std::to_string(kCodedFormatVersion));
  if (h.header_size != kHeaderSize || header_checksum(h) != h.header_checksum)
    return file_error(path, "corrupt header (checksum mismatch)");
  // The name: printable, NUL-terminated and NUL-padded, the name of a table of these houses.
  const size_t length = strnlen(h.name, kNameSize);
  if (length == 0 || length == kNameSize) return file_error(path, "corrupt header (name)");
  for (size_t i = 0; i < kNameSize; ++i) {
    const auto c = static_cast<unsigned char>(h.name[i]);
    if (i < length ? (c < 0x21 || c > 0x7e) : c != 0)
      return file_error(path, "corrupt header (name)");
  }
  const std::string name(h.name, length);
  if (h.houses < 1 || h.houses > kMaxTableHouses)
    return file_error(path, "corrupt header (" + std::to_string(h.houses) + " houses)");
  Expected<Rules> rules = parse_table_name(name);
  if (!rules || rules->houses != static_cast<int>(h.houses))
    return file_error(path, "corrupt header (table name '" + name + "' with " +
                                std::to_string(h.houses) + " houses)");
  if (h.seeds > static_cast<uint32_t>(kMaxTableSeeds))
    return file_error(path, "corrupt header (layer " + std::to_string(h.seeds) + ")");
  if (h.position_count !=
      composition_count(static_cast<int>(h.seeds), 2 * static_cast<int>(h.houses)))
    return file_error(path, "corrupt header (position count)");
  for (uint8_t byte : h.reserved)
    if (byte) return file_error(path, "corrupt header (reserved bytes)");
  const bool plain = h.value_encoding == kPlainBytes;
  const bool coded = h.value_encoding == kCodedBlocks;
  if (h.value_encoding == kUncheckedPlainBytes)
    return file_error(path,
                      "a plain copy in an older layout, without block checksums, which is no "
                      "longer read (unpacking the tables again rewrites it)");
  if (h.value_encoding != kZstdBlocks && !plain && !coded)
    return file_error(path, "unknown value encoding " + std::to_string(h.value_encoding));
  // Version 2 is the coded encoding's, version 1 the others'.
  if (coded != (h.version == kCodedFormatVersion))
    return file_error(path, "value encoding " + std::to_string(h.value_encoding) +
                                " in a file of format version " + std::to_string(h.version));
  if (h.block_size < 1 || h.block_size > kMaxBlockSize ||
      (plain && h.block_size != kPlainBlockSize) || (coded && h.block_size > kMaxCodedBlockSize) ||
      h.block_count != (h.position_count + h.block_size - 1) / h.block_size)
    return file_error(path, "corrupt header (blocks: " + std::to_string(h.block_count) + " of " +
                                std::to_string(h.block_size) + " positions)");
  const uint64_t code_size = uint64_t{code_symbol_count(static_cast<int>(h.seeds))} *
                             code_context_count(static_cast<int>(h.seeds));
  if (h.dictionary_size > kMaxDictionarySize || (plain && h.dictionary_size != 0) ||
      (coded && h.dictionary_size != code_size))
    return file_error(path,
                      "corrupt header (dictionary size " + std::to_string(h.dictionary_size) + ")");
  if (h.file_size != file_size)
    return file_error(path, "truncated or padded: " + std::to_string(file_size) +
                                " bytes, header says " + std::to_string(h.file_size));
  // The sections tile the file: header, index, dictionary, data. (Each sum is of bounded
  // numbers: block_count <= position count < 2^41, dictionary size <= 2^20.)
  const uint64_t index_bytes = coded ? coded_group_count(h.block_count) * sizeof(CodedGroup)
                                     : (h.block_count + (plain ? 0 : 1)) * sizeof(uint64_t);
  if (h.index_offset != kHeaderSize || h.dictionary_offset != h.index_offset + index_bytes ||
      h.data_offset != h.dictionary_offset + h.dictionary_size || h.data_offset > file_size ||
      h.data_size != file_size - h.data_offset || (plain && h.data_size != h.position_count))
    return file_error(path, "corrupt header (section offsets)");
  if (plain && h.dictionary_checksum != checksum64(nullptr, 0))
    return file_error(path, "corrupt header (plain encoding: checksum of the empty dictionary)");
  return true;
}

}  // namespace

Expected<std::shared_ptr<const TableFile>> TableFile::open(const std::string& path,
                                                           const std::string& name, int houses,
                                                           int seeds) {
  Expected<OpenedFile> opened = open_regular_file(path);
  if (!opened) return Error{opened.error()};
  if (opened->size < kHeaderSize) return file_error(path, "truncated: shorter than a header");
  TableHeader h;
  Expected<bool> read = read_exactly(opened->fd.get(), path, &h, sizeof h, 0);
  if (!read) return Error{read.error()};
  Expected<bool> sound = check_header(h, path, opened->size);
  if (!sound) return Error{sound.error()};
  const std::string file_name(h.name, strnlen(h.name, kNameSize));
  if (!name.empty() && file_name != name)
    return file_error(path, "holds table '" + file_name + "', expected '" + name + "'");
  if (houses >= 0 && h.houses != static_cast<uint32_t>(houses))
    return file_error(
        path, "holds " + std::to_string(h.houses) + " houses, expected " + std::to_string(houses));
  if (seeds >= 0 && h.seeds != static_cast<uint32_t>(seeds))
    return file_error(
        path, "holds layer " + std::to_string(h.seeds) + ", expected " + std::to_string(seeds));

  Expected<GuardedMapping> mapping =
      GuardedMapping::map(opened->fd.get(), static_cast<size_t>(opened->size), path);
  if (!mapping) return Error{mapping.error()};
  std::shared_ptr<TableFile> file(new TableFile());
  file->path_ = path;
  file->header_ = h;
  file->mapping_ = std::move(mapping.value());
  file->max_value_ = static_cast<int>(h.seeds);
  file->id_ = next_file_id.fetch_add(1);
  file->index_ = file->mapping_.data() + h.index_offset;
  file->data_ = file->mapping_.data() + h.data_offset;
  Expected<bool> ok = h.value_encoding == kPlainBytes    ? file->check_plain()
                      : h.value_encoding == kCodedBlocks ? file->check_coded()
                                                         : file->check_blocks();
  if (!ok) return Error{ok.error()};
  if (file->damaged()) return file->damaged_error();
  return std::shared_ptr<const TableFile>(std::move(file));
}

std::string TableFile::table_name() const {
  return std::string(header_.name, strnlen(header_.name, kNameSize));
}

Error TableFile::damaged_error() const {
  return file_error(path_,
                    "the file changed under this reader (truncated or rewritten in place: a read "
                    "of it faulted); none of its values are used");
}

Expected<bool> TableFile::check_blocks() {
  const TableHeader& h = header_;
  const uint64_t index_bytes = (h.block_count + 1) * sizeof(uint64_t);
  if (checksum64(index_, index_bytes) != h.index_checksum)
    return file_error(path_, "corrupt block index (checksum mismatch)");
  uint64_t previous = 0;
  for (uint64_t b = 0; b <= h.block_count; ++b) {
    uint64_t offset;
    std::memcpy(&offset, index_ + b * sizeof offset, sizeof offset);
    if ((b == 0 && offset != 0) || offset < previous || offset > h.data_size)
      return file_error(path_, "corrupt block index");
    previous = offset;
  }
  if (previous != h.data_size) return file_error(path_, "corrupt block index");
  const uint8_t* dictionary = mapping_.data() + h.dictionary_offset;
  if (checksum64(dictionary, h.dictionary_size) != h.dictionary_checksum)
    return file_error(path_, "corrupt dictionary (checksum mismatch)");
  if (h.dictionary_size) {
    dictionary_ = ZSTD_createDDict(dictionary, h.dictionary_size);
    if (!dictionary_) return file_error(path_, "corrupt dictionary");
  }
  return true;
}

Expected<bool> TableFile::check_plain() {
  const TableHeader& h = header_;
  if (checksum64(index_, h.block_count * sizeof(uint64_t)) != h.index_checksum)
    return file_error(path_, "corrupt block checksums (checksum mismatch)");
  block_state_ = std::make_unique<std::atomic<uint8_t>[]>(h.block_count);
  // Probes land anywhere in the layer: ask the kernel to read the whole file in now, in large
  // reads, rather than one page per probe's fault.
  ::madvise(const_cast<uint8_t*>(mapping_.data()), mapping_.size(), MADV_WILLNEED);
  return true;
}

Expected<bool> TableFile::check_coded() {
  const TableHeader& h = header_;
  const uint64_t groups = coded_group_count(h.block_count);
  if (checksum64(index_, groups * sizeof(CodedGroup)) != h.index_checksum)
    return file_error(path_, "corrupt block index (checksum mismatch)");
  const uint8_t* code = mapping_.data() + h.dictionary_offset;
  if (checksum64(code, h.dictionary_size) != h.dictionary_checksum)
    return file_error(path_, "corrupt code (checksum mismatch)");
  Expected<std::shared_ptr<const ValueCode>> parsed =
      ValueCode::from_lengths(code, h.dictionary_size, static_cast<int>(h.seeds));
  if (!parsed) return file_error(path_, "corrupt code (" + parsed.error() + ")");
  code_ = *parsed;
  // The groups tile the data section in order, and each block lies inside its group: checked
  // here once, so that a probe needs only its own entry (which it bounds again, cheaply).
  uint64_t expected_offset = 0;
  for (uint64_t g = 0; g < groups; ++g) {
    CodedGroup entry;
    std::memcpy(&entry, index_ + g * sizeof entry, sizeof entry);
    if (entry.offset != expected_offset) return file_error(path_, "corrupt block index");
    const uint64_t blocks_here = std::min<uint64_t>(kGroupBlocks, h.block_count - g * kGroupBlocks);
    uint32_t previous = 0;
    for (uint32_t j = 0; j < kGroupBlocks; ++j) {
      const uint32_t end = entry.block_end[j];
      const uint64_t positions =
          j < blocks_here
              ? std::min<uint64_t>(h.block_size,
                                   h.position_count - (g * kGroupBlocks + j) * h.block_size)
              : 0;
      if (end < previous || end - previous > ValueCode::max_block_bytes(positions))
        return file_error(path_, "corrupt block index");
      previous = end;
    }
    expected_offset += previous;
    if (expected_offset > h.data_size) return file_error(path_, "corrupt block index");
  }
  if (expected_offset != h.data_size) return file_error(path_, "corrupt block index");
  block_state_ = std::make_unique<std::atomic<uint8_t>[]>(groups);
  return true;
}

bool TableFile::check_coded_group(uint64_t group) const {
  std::atomic<uint8_t>& state = block_state_[group];
  const uint8_t known = state.load(std::memory_order_acquire);
  if (known != kBlockUnchecked) return known == kBlockGood && !damaged();
  CodedGroup entry;
  std::memcpy(&entry, index_ + group * sizeof entry, sizeof entry);
  const uint64_t size = entry.block_end[kGroupBlocks - 1];
  const bool good = entry.offset <= header_.data_size && size <= header_.data_size - entry.offset &&
                    plain_block_checksum(data_ + entry.offset, size) == entry.checksum &&
                    !damaged();
  // Several threads may check the same group at once: they reach the same verdict.
  state.store(good ? kBlockGood : kBlockBad, std::memory_order_release);
  return good;
}

bool TableFile::decode_coded(uint64_t block, size_t count, int8_t* out, int& last) const {
  const uint64_t group = block / kGroupBlocks;
  const uint32_t j = static_cast<uint32_t>(block % kGroupBlocks);
  if (block_state_[group].load(std::memory_order_acquire) != kBlockGood &&
      !check_coded_group(group))
    return false;
  // The entry was checked at open; read again, it is bounded again, so that a file rewritten in
  // place cannot send the decoder outside the data.
  const uint8_t* entry = index_ + group * sizeof(CodedGroup);
  uint64_t offset;
  uint16_t lo = 0, hi;
  std::memcpy(&offset, entry + offsetof(CodedGroup, offset), sizeof offset);
  if (j) std::memcpy(&lo, entry + offsetof(CodedGroup, block_end) + 2 * (j - 1), sizeof lo);
  std::memcpy(&hi, entry + offsetof(CodedGroup, block_end) + 2 * j, sizeof hi);
  if (lo > hi || offset > header_.data_size || hi > header_.data_size - offset) return false;
  const bool ok = code_->decode(data_ + offset + lo, hi - lo, count, out, last);
  return ok && !damaged();
}

bool TableFile::coded_value(uint64_t rank, int& out) const {
  if (rank >= header_.position_count) return false;
  const uint64_t block = rank / header_.block_size;
  int last = 0;
  if (!decode_coded(block, static_cast<size_t>(rank - block * header_.block_size) + 1, nullptr,
                    last))
    return false;
  out = last;  // the code has symbols for -s..s only
  return true;
}

Error TableFile::coded_failure(uint64_t rank) const {
  if (rank >= header_.position_count) return file_error(path_, "rank out of range");
  if (damaged()) return damaged_error();
  const uint64_t block = rank / header_.block_size;
  const uint64_t group = block / kGroupBlocks;
  if (block_state_[group].load(std::memory_order_acquire) != kBlockGood)
    return file_error(
        path_, "corrupt data in block group " + std::to_string(group) + " (checksum mismatch)");
  return file_error(path_, "corrupt block " + std::to_string(block) + " (no valid code)");
}

TableFile::~TableFile() {
  ZSTD_freeDDict(static_cast<ZSTD_DDict*>(dictionary_));
}

Expected<bool> TableFile::decode_block(uint64_t block, uint8_t* out, void* context) const {
  const TableHeader& h = header_;
  if (block >= h.block_count) return file_error(path_, "block out of range");
  const uint64_t first = block * h.block_size;
  const size_t expected =
      static_cast<size_t>(std::min<uint64_t>(h.block_size, h.position_count - first));
  // The offsets were checked at open; read again, they are checked again (cheaply), so that a
  // file rewritten in place cannot send the decoder outside the data.
  uint64_t lo, hi;
  std::memcpy(&lo, index_ + block * sizeof lo, sizeof lo);
  std::memcpy(&hi, index_ + (block + 1) * sizeof hi, sizeof hi);
  if (lo > hi || hi > h.data_size)
    return file_error(path_, "corrupt block index at block " + std::to_string(block));
  auto* dctx = static_cast<ZSTD_DCtx*>(context);
  const size_t n = dictionary_
                       ? ZSTD_decompress_usingDDict(dctx, out, expected, data_ + lo, hi - lo,
                                                    static_cast<ZSTD_DDict*>(dictionary_))
                       : ZSTD_decompressDCtx(dctx, out, expected, data_ + lo, hi - lo);
  if (damaged()) return damaged_error();
  if (ZSTD_isError(n) || n != expected)
    return file_error(path_, "corrupt block " + std::to_string(block) +
                                 (ZSTD_isError(n) ? std::string(": ") + ZSTD_getErrorName(n) : ""));
  // Values lie in -s..s: zigzag codes 0..2s.
  const auto largest = static_cast<uint8_t>(std::min(2 * max_value_, 255));
  for (size_t i = 0; i < n; ++i)
    if (out[i] > largest)
      return file_error(path_, "corrupt block " + std::to_string(block) + ": value " +
                                   std::to_string(unzigzag(out[i])) + " outside -" +
                                   std::to_string(max_value_) + ".." + std::to_string(max_value_));
  return true;
}

bool TableFile::check_plain_block(uint64_t block) const {
  std::atomic<uint8_t>& state = block_state_[block];
  const uint8_t known = state.load(std::memory_order_acquire);
  if (known != kBlockUnchecked) return known == kBlockGood && !damaged();
  const uint64_t first = block * kPlainBlockSize;
  const uint64_t n = std::min<uint64_t>(kPlainBlockSize, header_.position_count - first);
  uint64_t expected;
  std::memcpy(&expected, index_ + block * sizeof expected, sizeof expected);
  const bool good = plain_block_checksum(data_ + first, n) == expected && !damaged();
  // Several threads may check the same block at once: they reach the same verdict.
  state.store(good ? kBlockGood : kBlockBad, std::memory_order_release);
  return good;
}

Error TableFile::plain_failure(uint64_t rank) const {
  if (rank >= header_.position_count) return file_error(path_, "rank out of range");
  if (damaged()) return damaged_error();
  const uint64_t block = rank / kPlainBlockSize;
  if (block_state_[block].load(std::memory_order_acquire) != kBlockGood)
    return file_error(path_, "corrupt data in block " + std::to_string(block) +
                                 " (checksum mismatch: the plain copy is damaged; unpacking the "
                                 "tables again rewrites it)");
  return file_error(path_, "value " + std::to_string(static_cast<int8_t>(data_[rank])) +
                               " at rank " + std::to_string(rank) + " is outside -" +
                               std::to_string(max_value_) + ".." + std::to_string(max_value_));
}

Expected<int> TableFile::value(uint64_t rank) const {
  const TableHeader& h = header_;
  if (rank >= h.position_count) return file_error(path_, "rank out of range");
  if (is_plain()) {
    int v = 0;
    if (plain_value(rank, v)) return v;
    return plain_failure(rank);
  }
  if (is_coded()) {
    const uint64_t block = rank / h.block_size;
    const uint32_t at = static_cast<uint32_t>(rank - block * h.block_size);
    ThreadCache::CodedEntry& entry =
        thread_cache().coded[(id_ * 0x9E3779B1u + block) % ThreadCache::kEntries];
    if (entry.file_id != id_ || entry.block != block || entry.decoded <= at) {
      entry.file_id = 0;
      int last = 0;
      if (!decode_coded(block, at + 1, entry.values, last)) return coded_failure(rank);
      entry.file_id = id_;
      entry.block = block;
      entry.decoded = at + 1;
    }
    return entry.values[at];
  }
  const uint64_t block = rank / h.block_size;
  ThreadCache& cache = thread_cache();
  ThreadCache::Entry& entry = cache.entries[(id_ * 0x9E3779B1u + block) % ThreadCache::kEntries];
  if (entry.file_id != id_ || entry.block != block) {
    entry.file_id = 0;
    entry.bytes.resize(h.block_size);
    Expected<bool> ok = decode_block(block, entry.bytes.data(), cache.context);
    if (!ok) return Error{ok.error()};
    entry.file_id = id_;
    entry.block = block;
  }
  return unzigzag(entry.bytes[rank - block * h.block_size]);
}

Expected<bool> TableFile::read_block(uint64_t block, int8_t* out) const {
  const TableHeader& h = header_;
  if (block >= h.block_count) return file_error(path_, "block out of range");
  const uint64_t first = block * h.block_size;
  const uint64_t n = std::min<uint64_t>(h.block_size, h.position_count - first);
  if (is_plain()) {
    if (!check_plain_block(block)) return plain_failure(first);
    std::memcpy(out, data_ + first, n);
    for (uint64_t i = 0; i < n; ++i)
      if (out[i] < -max_value_ || out[i] > max_value_) return plain_failure(first + i);
    if (damaged()) return damaged_error();
    return true;
  }
  if (is_coded()) {
    int last = 0;
    if (!decode_coded(block, static_cast<size_t>(n), out, last)) return coded_failure(first);
    return true;
  }
  auto* bytes = reinterpret_cast<uint8_t*>(out);
  Expected<bool> ok = decode_block(block, bytes, thread_cache().context);
  if (!ok) return ok;
  for (uint64_t i = 0; i < n; ++i) out[i] = static_cast<int8_t>(unzigzag(bytes[i]));
  return true;
}

Expected<std::vector<int8_t>> TableFile::read_all(
    const std::function<void(uint64_t, uint64_t)>& progress, int threads) const {
  const TableHeader& h = header_;
  // A header may claim up to ~10^12 positions (64 seeds), which a small file of well-compressed
  // blocks can back: refuse to decode into more memory than the machine has.
  struct sysinfo info {};
  if (::sysinfo(&info) == 0 && info.totalram &&
      h.position_count > static_cast<uint64_t>(info.totalram) * std::max(info.mem_unit, 1u))
    return file_error(path_, "layer of " + std::to_string(h.position_count) +
                                 " positions: more than this machine's memory can hold");
  std::vector<int8_t> values(h.position_count);
  if (is_plain()) {
    for (uint64_t b = 0; b < h.block_count; ++b) {
      Expected<bool> ok = read_block(b, values.data() + b * h.block_size);
      if (!ok) return Error{ok.error()};
      if (progress && b % 1024 == 1023)
        progress(std::min(h.position_count, (b + 1) * h.block_size), h.position_count);
    }
    if (progress) progress(h.position_count, h.position_count);
    return values;
  }
  if (is_coded()) {
    std::string error;
    std::atomic<uint64_t> blocks_done{0};
#pragma omp parallel for schedule(dynamic, 64) num_threads(team_size(threads))
    for (uint64_t b = 0; b < h.block_count; ++b) {
      Expected<bool> ok = read_block(b, values.data() + b * h.block_size);
      if (!ok) {
#pragma omp critical
        error = ok.error();
        continue;
      }
      const uint64_t done = blocks_done.fetch_add(1, std::memory_order_relaxed) + 1;
      if (progress && omp_get_thread_num() == 0 && done % 4096 == 0)
        progress(std::min(h.position_count, done * h.block_size), h.position_count);
    }
    if (!error.empty()) return Error{error};
    if (damaged()) return damaged_error();
    if (progress) progress(h.position_count, h.position_count);
    return values;
  }
  std::string error;
  std::atomic<uint64_t> blocks_done{0};
#pragma omp parallel num_threads(team_size(threads))
  {
    ZSTD_DCtx* context = ZSTD_createDCtx();
    std::vector<uint8_t> bytes(h.block_size);
#pragma omp for schedule(dynamic, 16)
    for (uint64_t b = 0; b < h.block_count; ++b) {
      Expected<bool> ok = decode_block(b, bytes.data(), context);
      if (!ok) {
#pragma omp critical
        error = ok.error();
        continue;
      }
      const uint64_t first = b * h.block_size;
      const uint64_t n = std::min<uint64_t>(h.block_size, h.position_count - first);
      for (uint64_t i = 0; i < n; ++i) values[first + i] = static_cast<int8_t>(unzigzag(bytes[i]));
      const uint64_t done = blocks_done.fetch_add(1, std::memory_order_relaxed) + 1;
      if (progress && omp_get_thread_num() == 0 && done % 64 == 0)
        progress(std::min(h.position_count, done * h.block_size), h.position_count);
    }
    ZSTD_freeDCtx(context);
  }
  if (!error.empty()) return Error{error};
  if (damaged()) return damaged_error();
  if (progress) progress(h.position_count, h.position_count);
  return values;
}

Expected<bool> TableFile::holds(std::span<const int8_t> values, int threads) const {
  const TableHeader& h = header_;
  if (values.size() != h.position_count) return false;
  std::string error;
  std::atomic<bool> differ{false};
#pragma omp parallel num_threads(team_size(threads))
  {
    std::vector<int8_t> block(h.block_size);
#pragma omp for schedule(dynamic, 64)
    for (uint64_t b = 0; b < h.block_count; ++b) {
      if (differ.load(std::memory_order_relaxed)) continue;
      Expected<bool> ok = read_block(b, block.data());
      if (!ok) {
#pragma omp critical
        error = ok.error();
        differ.store(true, std::memory_order_relaxed);  // nothing more to learn
        continue;
      }
      const uint64_t first = b * h.block_size;
      const uint64_t n = std::min<uint64_t>(h.block_size, h.position_count - first);
      if (std::memcmp(block.data(), values.data() + first, n) != 0)
        differ.store(true, std::memory_order_relaxed);
    }
  }
  if (!error.empty()) return Error{error};
  if (damaged()) return damaged_error();
  return !differ.load();
}

Expected<std::vector<int8_t>> TableFile::read_all_checked(
    const std::function<void(uint64_t, uint64_t)>& progress, int threads) const {
  if (Expected<bool> sound = check_data_checksum(); !sound) return Error{sound.error()};
  return read_all(progress, threads);
}

Expected<bool> TableFile::check_data_checksum() const {
  if (data_checksum_ok()) return true;
  if (damaged()) return damaged_error();
  return Error{shown_path(path_) + ": corrupt data (checksum mismatch)"};
}

bool TableFile::data_checksum_ok() const {
  return checksum64(data_, header_.data_size) == header_.data_checksum && !damaged();
}

std::shared_ptr<const TableFile> open_sound_plain_copy(const std::string& directory,
                                                       const std::string& name, int houses,
                                                       int seeds) {
  Expected<std::shared_ptr<const TableFile>> copy =
      TableFile::open(directory + "/" + plain_layer_file_name(seeds), name, houses, seeds);
  if (!copy || !(*copy)->is_plain() || !(*copy)->data_checksum_ok()) return nullptr;
  return std::move(copy).value();
}

}  // namespace mancala::db
