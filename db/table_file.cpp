#include "db/table_file.h"

#include <fcntl.h>
#include <omp.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>

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

std::string encoding_name(uint32_t value_encoding) {
  switch (value_encoding) {
    case kZigzagBytes:
      return "zstd";
    case kPlainBytes:
      return "plain";
    default:
      return "unknown (" + std::to_string(value_encoding) + ")";
  }
}

namespace {

uint64_t composition_count(int seeds, int slots) {
  // C(seeds + slots - 1, slots - 1), exact in 64 bits for every table size in use.
  uint64_t result = 1;
  for (int k = 1; k < slots; ++k)
    result = result * static_cast<uint64_t>(seeds + k) / static_cast<uint64_t>(k);
  return result;
}

Error file_error(const std::string& path, const std::string& what) {
  return Error{path + ": " + what};
}

bool write_all(int fd, const void* data, size_t size) {
  const auto* p = static_cast<const uint8_t*>(data);
  while (size) {
    const ssize_t n = ::write(fd, p, size);
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
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
  std::vector<uint8_t> data;
};

Expected<CompressedSections> compress_values(const std::string& path,
                                             const std::vector<int8_t>& values,
                                             const WriteOptions& options) {
  const uint64_t count = values.size();
  const uint64_t block_size = options.block_size;
  const uint64_t blocks = (count + block_size - 1) / block_size;

  std::vector<uint8_t> encoded(count);
  zigzag_encode(values.data(), count, encoded.data());

  // A dictionary trained on a spread of blocks lets small blocks compress like large ones.
  CompressedSections sections;
  const std::vector<uint64_t> sample_blocks = dictionary_sample_blocks(blocks, options);
  if (!sample_blocks.empty()) {
    std::vector<uint8_t> sample_bytes;
    std::vector<size_t> sample_sizes;
    for (const uint64_t b : sample_blocks) {
      const uint64_t lo = b * block_size, hi = std::min(count, lo + block_size);
      sample_bytes.insert(sample_bytes.end(), encoded.begin() + static_cast<ptrdiff_t>(lo),
                          encoded.begin() + static_cast<ptrdiff_t>(hi));
      sample_sizes.push_back(hi - lo);
    }
    sections.dictionary = train_dictionary(sample_bytes, sample_sizes, options);
  }

  const PreparedDictionary prepared(sections.dictionary, options);
  std::vector<std::vector<uint8_t>> compressed(blocks);
  bool failed = false;
#pragma omp parallel
  {
    BlockCompressor compressor(prepared.get(), options);
#pragma omp for schedule(dynamic, 16)
    for (uint64_t b = 0; b < blocks; ++b) {
      const uint64_t lo = b * block_size, hi = std::min(count, lo + block_size);
      if (!compressor.compress(encoded.data() + lo, hi - lo, compressed[b])) {
#pragma omp atomic write
        failed = true;
      }
    }
  }
  if (failed) return file_error(path, "compression failed");

  std::vector<uint64_t>& offsets = sections.index;
  offsets.assign(blocks + 1, 0);
  for (uint64_t b = 0; b < blocks; ++b) offsets[b + 1] = offsets[b] + compressed[b].size();
  sections.data.reserve(offsets[blocks]);
  for (const auto& block : compressed)
    sections.data.insert(sections.data.end(), block.begin(), block.end());
  return sections;
}

}  // namespace

Expected<WriteReport> write_table_file(const std::string& path, const std::string& name, int houses,
                                       int seeds, const std::vector<int8_t>& values,
                                       const WriteOptions& options) {
  if (name.size() >= kNameSize) return file_error(path, "table name too long");
  const uint64_t count = values.size();
  if (count != composition_count(seeds, 2 * houses))
    return file_error(path, "value count does not match the layer size");

  // A plain file is its values; a compressed one has a block index, a dictionary and blocks.
  CompressedSections sections;
  const uint8_t* data = reinterpret_cast<const uint8_t*>(values.data());
  uint64_t data_size = count;
  if (!options.plain) {
    Expected<CompressedSections> compressed = compress_values(path, values, options);
    if (!compressed) return Error{compressed.error()};
    sections = std::move(*compressed);
    data = sections.data.data();
    data_size = sections.data.size();
  }
  const std::vector<uint64_t>& offsets = sections.index;
  const std::vector<uint8_t>& dictionary = sections.dictionary;
  const uint64_t index_bytes = offsets.size() * sizeof(uint64_t);

  LayerSections layout;
  layout.encoding = options.plain ? kPlainBytes : kZigzagBytes;
  layout.block_size = options.block_size;
  layout.block_count = options.plain ? 0 : offsets.size() - 1;
  layout.dictionary_size = dictionary.size();
  layout.data_size = data_size;
  layout.index_checksum = checksum64(offsets.data(), index_bytes);
  layout.dictionary_checksum = checksum64(dictionary.data(), dictionary.size());
  layout.data_checksum = checksum64(data, data_size);
  const TableHeader header = layer_header(name, houses, seeds, count, layout);

  const std::string temporary = path + ".tmp";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return file_error(temporary, "cannot create");
  const bool written = write_all(fd, &header, sizeof header) &&
                       write_all(fd, offsets.data(), index_bytes) &&
                       write_all(fd, dictionary.data(), dictionary.size()) &&
                       write_all(fd, data, data_size) && ::fsync(fd) == 0;
  ::close(fd);
  if (!written) {
    std::filesystem::remove(temporary);
    return file_error(temporary, "write failed (disk full?)");
  }
  // Read it back before it takes the real name.
  Expected<std::shared_ptr<const TableFile>> check =
      TableFile::open(temporary, name, houses, seeds);
  if (!check || !(*check)->data_checksum_ok()) {
    std::filesystem::remove(temporary);
    return file_error(
        path, "written file failed its check: " + (check ? "data checksum" : check.error()));
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) return file_error(path, "cannot rename into place: " + ec.message());
  return WriteReport{header.file_size, header.block_count, dictionary.size()};
}

Expected<std::shared_ptr<const TableFile>> TableFile::open(const std::string& path,
                                                           const std::string& name, int houses,
                                                           int seeds) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return file_error(path, "missing or unreadable");
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return file_error(path, "cannot stat");
  }
  const size_t size = static_cast<size_t>(st.st_size);
  if (size < kHeaderSize) {
    ::close(fd);
    return file_error(path, "truncated: shorter than a header");
  }
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) return file_error(path, "cannot map");

  std::shared_ptr<TableFile> file(new TableFile());
  file->path_ = path;
  file->map_ = static_cast<const uint8_t*>(map);
  file->map_size_ = size;
  file->header_ = reinterpret_cast<const TableHeader*>(map);
  file->id_ = next_file_id.fetch_add(1);
  const TableHeader& h = *file->header_;

  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0)
    return file_error(path, "not a mancala table (bad magic)");
  if (h.version != kFormatVersion)
    return file_error(path, "format version " + std::to_string(h.version) + ", expected " +
                                std::to_string(kFormatVersion));
  if (h.header_size != kHeaderSize || header_checksum(h) != h.header_checksum)
    return file_error(path, "corrupt header (checksum mismatch)");
  const std::string file_name(h.name, strnlen(h.name, kNameSize));
  if (!name.empty() && file_name != name)
    return file_error(path, "holds table '" + file_name + "', expected '" + name + "'");
  if (houses >= 0 && h.houses != static_cast<uint32_t>(houses))
    return file_error(
        path, "holds " + std::to_string(h.houses) + " houses, expected " + std::to_string(houses));
  if (seeds >= 0 && h.seeds != static_cast<uint32_t>(seeds))
    return file_error(
        path, "holds layer " + std::to_string(h.seeds) + ", expected " + std::to_string(seeds));
  if (h.houses == 0 || h.houses > 6 ||
      h.position_count !=
          composition_count(static_cast<int>(h.seeds), 2 * static_cast<int>(h.houses)))
    return file_error(path, "corrupt header (position count)");
  if (h.value_encoding != kZigzagBytes && h.value_encoding != kPlainBytes)
    return file_error(path, "unknown value encoding " + std::to_string(h.value_encoding));
  if (h.file_size != size)
    return file_error(path, "truncated or padded: " + std::to_string(size) +
                                " bytes, header says " + std::to_string(h.file_size));
  Expected<bool> ok = h.value_encoding == kPlainBytes ? file->check_plain() : file->check_blocks();
  if (!ok) return Error{ok.error()};
  return std::shared_ptr<const TableFile>(std::move(file));
}

Expected<bool> TableFile::check_blocks() {
  const TableHeader& h = *header_;
  if (h.block_size == 0 || h.block_count != (h.position_count + h.block_size - 1) / h.block_size)
    return file_error(path_, "corrupt header (blocks)");
  const uint64_t index_bytes = (h.block_count + 1) * sizeof(uint64_t);
  if (h.index_offset != kHeaderSize || h.dictionary_offset != h.index_offset + index_bytes ||
      h.data_offset != h.dictionary_offset + h.dictionary_size ||
      h.data_offset + h.data_size != map_size_)
    return file_error(path_, "corrupt header (section offsets)");
  block_offsets_ = reinterpret_cast<const uint64_t*>(map_ + h.index_offset);
  if (checksum64(block_offsets_, index_bytes) != h.index_checksum)
    return file_error(path_, "corrupt block index (checksum mismatch)");
  for (uint64_t b = 0; b < h.block_count; ++b)
    if (block_offsets_[b] > block_offsets_[b + 1]) return file_error(path_, "corrupt block index");
  if (block_offsets_[0] != 0 || block_offsets_[h.block_count] != h.data_size)
    return file_error(path_, "corrupt block index");
  const uint8_t* dictionary = map_ + h.dictionary_offset;
  if (checksum64(dictionary, h.dictionary_size) != h.dictionary_checksum)
    return file_error(path_, "corrupt dictionary (checksum mismatch)");
  if (h.dictionary_size) {
    dictionary_ = ZSTD_createDDict(dictionary, h.dictionary_size);
    if (!dictionary_) return file_error(path_, "corrupt dictionary");
  }
  data_ = map_ + h.data_offset;
  return true;
}

Expected<bool> TableFile::check_plain() {
  const TableHeader& h = *header_;
  if (h.data_size != h.position_count)
    return file_error(path_, "corrupt header (plain encoding: data size " +
                                 std::to_string(h.data_size) + ", expected one byte for each of " +
                                 std::to_string(h.position_count) + " positions)");
  if (h.block_size != 0 || h.block_count != 0 || h.dictionary_size != 0)
    return file_error(path_, "corrupt header (plain encoding with blocks or a dictionary)");
  if (h.index_offset != kHeaderSize || h.dictionary_offset != kHeaderSize ||
      h.data_offset != kHeaderSize || h.data_offset + h.data_size != map_size_)
    return file_error(path_, "corrupt header (section offsets)");
  const uint64_t empty = checksum64(nullptr, 0);
  if (h.index_checksum != empty || h.dictionary_checksum != empty)
    return file_error(path_, "corrupt header (plain encoding: checksums of the empty sections)");
  data_ = map_ + h.data_offset;
  // Probes land anywhere in the layer: ask the kernel to read the whole file in now, in large
  // reads, rather than one page per probe's fault.
  ::madvise(const_cast<uint8_t*>(map_), map_size_, MADV_WILLNEED);
  return true;
}

TableFile::~TableFile() {
  ZSTD_freeDDict(static_cast<ZSTD_DDict*>(dictionary_));
  if (map_) ::munmap(const_cast<uint8_t*>(map_), map_size_);
}

Expected<bool> TableFile::decode_block(uint64_t block, uint8_t* out, void* context) const {
  const TableHeader& h = *header_;
  const uint64_t first = block * h.block_size;
  const size_t expected =
      static_cast<size_t>(std::min<uint64_t>(h.block_size, h.position_count - first));
  const uint8_t* src = data_ + block_offsets_[block];
  const size_t src_size = block_offsets_[block + 1] - block_offsets_[block];
  auto* dctx = static_cast<ZSTD_DCtx*>(context);
  const size_t n = dictionary_ ? ZSTD_decompress_usingDDict(dctx, out, expected, src, src_size,
                                                            static_cast<ZSTD_DDict*>(dictionary_))
                               : ZSTD_decompressDCtx(dctx, out, expected, src, src_size);
  if (ZSTD_isError(n) || n != expected)
    return file_error(path_, "corrupt block " + std::to_string(block) +
                                 (ZSTD_isError(n) ? std::string(": ") + ZSTD_getErrorName(n) : ""));
  return true;
}

Expected<int> TableFile::value(uint64_t rank) const {
  const TableHeader& h = *header_;
  if (rank >= h.position_count) return file_error(path_, "rank out of range");
  if (is_plain()) return static_cast<int>(reinterpret_cast<const int8_t*>(data_)[rank]);
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
  const TableHeader& h = *header_;
  if (block >= block_count()) return file_error(path_, "block out of range");
  if (is_plain()) {
    const uint64_t first = block * kPlainReadBlock;
    std::memcpy(out, data_ + first, std::min<uint64_t>(kPlainReadBlock, h.position_count - first));
    return true;
  }
  auto* bytes = reinterpret_cast<uint8_t*>(out);
  Expected<bool> ok = decode_block(block, bytes, thread_cache().context);
  if (!ok) return ok;
  const uint64_t n = std::min<uint64_t>(h.block_size, h.position_count - block * h.block_size);
  for (uint64_t i = 0; i < n; ++i) out[i] = static_cast<int8_t>(unzigzag(bytes[i]));
  return true;
}

Expected<std::vector<int8_t>> TableFile::read_all(
    const std::function<void(uint64_t, uint64_t)>& progress) const {
  const TableHeader& h = *header_;
  if (is_plain()) {
    std::vector<int8_t> values(h.position_count);
    std::memcpy(values.data(), data_, h.position_count);
    if (progress) progress(h.position_count, h.position_count);
    return values;
  }
  std::vector<int8_t> values(h.position_count);
  std::string error;
  std::atomic<uint64_t> blocks_done{0};
#pragma omp parallel
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
  if (progress) progress(h.position_count, h.position_count);
  return values;
}

Expected<std::vector<int8_t>> TableFile::read_all_checked(
    const std::function<void(uint64_t, uint64_t)>& progress) const {
  if (!data_checksum_ok()) return Error{path_ + ": corrupt data (checksum mismatch)"};
  return read_all(progress);
}

bool TableFile::data_checksum_ok() const {
  return checksum64(data_, header_->data_size) == header_->data_checksum;
}

}  // namespace mancala::db
