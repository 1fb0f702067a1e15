// Fuzz target: a table layer file, opened and read every way the readers do (header checks,
// probes, blocks, the whole layer, the data checksum, and the probe API over a directory holding
// it), in every encoding (zstd, plain, and format version 2's coded blocks). Built twice: as is,
// and with MANCALA_FUZZ_RECOMPUTE_CHECKSUMS, where the header, index, dictionary, data and block
// checksums are recomputed from the mutated bytes first, so that the fuzzer gets past them to the
// checks behind them.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "db/table_blocks.h"
#include "db/table_file.h"
#include "db/table_set.h"
#include "db/table_values.h"
#include "solver/tables/table_index.h"

namespace {

using namespace mancala;
using namespace mancala::db;

#ifdef MANCALA_FUZZ_RECOMPUTE_CHECKSUMS
// Recomputes every checksum whose section lies inside the file, as a careful forger would.
void recompute_checksums(std::vector<uint8_t>& bytes) {
  if (bytes.size() < kHeaderSize) return;
  TableHeader h;
  std::memcpy(&h, bytes.data(), sizeof h);
  const uint64_t size = bytes.size();
  auto inside = [&](uint64_t offset, uint64_t length) {
    return offset <= size && length <= size - offset;
  };
  const bool plain = h.value_encoding == kPlainBytes;
  if (h.value_encoding == kCodedBlocks) {
    // Coded (format version 2): each group's checksum over its bytes, as far as they lie inside.
    const uint64_t groups = coded_group_count(h.block_count);
    if (groups < (uint64_t{1} << 32) && inside(h.index_offset, groups * sizeof(CodedGroup))) {
      for (uint64_t g = 0; g < groups; ++g) {
        CodedGroup entry;
        uint8_t* at = bytes.data() + h.index_offset + g * sizeof entry;
        std::memcpy(&entry, at, sizeof entry);
        const uint64_t length = entry.block_end[kGroupBlocks - 1];
        if (!inside(h.data_offset, h.data_size) || entry.offset > h.data_size ||
            length > h.data_size - entry.offset)
          continue;
        entry.checksum = plain_block_checksum(bytes.data() + h.data_offset + entry.offset, length);
        std::memcpy(at, &entry, sizeof entry);
      }
      h.index_checksum = checksum64(bytes.data() + h.index_offset, groups * sizeof(CodedGroup));
    }
  }
  const uint64_t index_entries = h.block_count + (plain ? 0 : 1);
  if (h.value_encoding != kCodedBlocks && index_entries < (uint64_t{1} << 40) &&
      inside(h.index_offset, 8 * index_entries)) {
    if (plain && inside(h.data_offset, h.data_size) && h.block_size)
      for (uint64_t b = 0; b < h.block_count; ++b) {
        const uint64_t first = b * uint64_t{h.block_size};
        if (first >= h.data_size) break;
        const uint64_t sum =
            plain_block_checksum(bytes.data() + h.data_offset + first,
                                 std::min<uint64_t>(h.block_size, h.data_size - first));
        std::memcpy(bytes.data() + h.index_offset + 8 * b, &sum, 8);
      }
    h.index_checksum = checksum64(bytes.data() + h.index_offset, 8 * index_entries);
  }
  if (inside(h.dictionary_offset, h.dictionary_size))
    h.dictionary_checksum = checksum64(bytes.data() + h.dictionary_offset, h.dictionary_size);
  if (inside(h.data_offset, h.data_size))
    h.data_checksum = checksum64(bytes.data() + h.data_offset, h.data_size);
  h.header_checksum = header_checksum(h);
  std::memcpy(bytes.data(), &h, sizeof h);
}
#endif

// A private directory holding the file as layer `seeds` of kalah:6 and oware:abapa, removed when
// the fuzzer exits (it ends a timed run with exit()).
// (The name lives in a plain array: the removal runs after static strings are destroyed.)
char scratch_name[] = "/tmp/mancala_fuzz_XXXXXX";
const std::string& scratch() {
  static const std::string dir = [] {
    std::string made(::mkdtemp(scratch_name));
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(scratch_name, ignored);
    });
    return made;
  }();
  return dir;
}

bool write_file(const std::string& path, const std::vector<uint8_t>& bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  return std::fclose(f) == 0 && ok;
}

void read_every_way(const std::string& path) {
  Expected<std::shared_ptr<const TableFile>> opened = TableFile::open(path);
  if (!opened) return;
  const TableFile& file = **opened;
  const uint64_t count = file.size();
  const int seeds = file.seeds();
  for (uint64_t rank : {uint64_t{0}, count / 3, count / 2, count - 1, count}) {
    Expected<int> value = file.value(rank);
    if (value && (*value < -seeds || *value > seeds)) std::abort();
    int in_place = 0;
    if (file.is_plain() && file.plain_value(rank, in_place) &&
        (in_place < -seeds || in_place > seeds))
      std::abort();
    if (file.is_coded() && file.coded_value(rank, in_place) &&
        (in_place < -seeds || in_place > seeds || !value || *value != in_place))
      std::abort();
  }
  if (count <= (1u << 22)) {
    std::vector<int8_t> block(file.block_size());
    for (uint64_t b = 0; b < std::min<uint64_t>(file.block_count(), 4); ++b)
      (void)file.read_block(b, block.data());
    Expected<std::vector<int8_t>> all = file.read_all();
    if (all)
      for (int8_t v : *all)
        if (v < -seeds || v > seeds) std::abort();
  }
  (void)file.data_checksum_ok();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
#ifdef MANCALA_FUZZ_RECOMPUTE_CHECKSUMS
  recompute_checksums(bytes);
#endif
  const std::string path = scratch() + "/layer.mtb";
  if (!write_file(path, bytes)) return 0;
  read_every_way(path);
  // Through the probe API, as layer s of a table directory: the set reads the header's layer.
  TableHeader h{};
  if (size >= sizeof h) std::memcpy(&h, bytes.data(), sizeof h);
  const int seeds = static_cast<int>(std::min<uint32_t>(h.seeds, 8));
  for (const char* game : {"kalah", "oware"}) {
    const Rules rules = *parse_rules(game);
    const std::string dir = scratch() + "/" + table_directory_name(rules.table_name());
    ::mkdir(dir.c_str(), 0755);
    for (int s = 0; s <= 8; ++s) ::unlink((dir + "/" + layer_file_name(s)).c_str());
    // Layers below `seeds` are the file too (they fail their checks, which is the point).
    for (int s = 0; s <= seeds; ++s)
      (void)::link(path.c_str(), (dir + "/" + layer_file_name(s)).c_str());
    Expected<std::shared_ptr<const TableSet>> set = TableSet::open(scratch(), rules);
    if (!set) continue;
    const TableValues values(*set);
    const DecodedTableValues decoded(*set, 1u << 20);
    const TableIndex index(2 * rules.houses, seeds);
    for (uint64_t rank : {uint64_t{0}, index.layer_size(seeds) - 1}) {
      TableKey key;
      index.unrank(rank, seeds, key.counts.data());
      const Position p = position_from_key(key.counts.data(), rules.houses);
      const std::optional<int> a = values.value(p), b = decoded.value(p);
      if ((a && std::abs(*a) > seeds) || (b && std::abs(*b) > seeds)) std::abort();
    }
  }
  return 0;
}
