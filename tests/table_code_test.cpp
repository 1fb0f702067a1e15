// Format version 2: the coded value encoding (db/value_code.h, kCodedBlocks), its files, how a
// damaged one fails, and the conversion between it and version 1.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "db/table_blocks.h"
#include "db/table_build.h"
#include "db/table_set.h"
#include "db/table_unpack.h"
#include "db/table_values.h"
#include "db/table_verify.h"
#include "db/value_code.h"
#include "tests/scratch_directory.h"
#include "tests/table_directory_test.h"

// A namespace per file: the suite is compiled in unity batches.
namespace mancala::db::table_code_test {
namespace {

namespace fs = std::filesystem;

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// Values of a layer of `seeds` that look like a table's: mostly small, runs of equal values.
std::vector<int8_t> table_like_values(uint64_t count, int seeds, uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<int8_t> values(count);
  int v = 0;
  for (int8_t& x : values) {
    if (random() % 4 == 0) v = static_cast<int>(random() % (2 * seeds + 1)) - seeds;
    if (random() % 97 == 0) v = random() % 2 ? seeds : -seeds;  // the rare extremes
    x = static_cast<int8_t>(v);
  }
  return values;
}

class CodedTables : public testing_tables::TableDirectoryTest {
 protected:
  CodedTables() : TableDirectoryTest("mancala_coded") {}
  // A coded file of kalah:6 layer `seeds` holding `values`, written at dir_/name.
  std::string write_coded(const std::vector<int8_t>& values, int seeds, uint32_t block_size = 0) {
    const std::string path = (dir_ / ("layer-" + std::to_string(seeds) + ".mtb")).string();
    WriteOptions options;
    options.block_size = block_size;
    Expected<WriteReport> written = write_table_file(path, "kalah:6", 6, seeds, values, options, 2);
    EXPECT_TRUE(written.ok()) << written.error();
    return path;
  }
};

TEST(ValueCode, LengthsAreTheSameForTheSameCountsAndFormAPrefixCode) {
  const int seeds = 9;
  const std::vector<int8_t> values = table_like_values(50000, seeds, 7);
  std::vector<uint64_t> counts;
  count_contexts(values.data(), values.size(), 256, seeds, counts);
  const std::vector<uint8_t> lengths = code_lengths(counts, seeds);
  EXPECT_EQ(lengths, code_lengths(counts, seeds));
  ASSERT_EQ(lengths.size(), size_t{code_symbol_count(seeds)} * code_context_count(seeds));
  Expected<std::shared_ptr<const ValueCode>> code =
      ValueCode::from_lengths(lengths.data(), lengths.size(), seeds);
  ASSERT_TRUE(code.ok()) << code.error();
  for (uint8_t length : lengths) EXPECT_LE(length, kMaxCodeLength);
}

TEST(ValueCode, EveryBlockDecodesToItsValuesAndAnyPrefixToItsLastValue) {
  const int seeds = 12;
  const uint32_t block = 128;
  const std::vector<int8_t> values = table_like_values(20 * block + 17, seeds, 3);
  const std::vector<uint8_t> lengths =
      layer_code_lengths(values.data(), values.size(), block, seeds, 1);
  const std::shared_ptr<const ValueCode> code =
      *ValueCode::from_lengths(lengths.data(), lengths.size(), seeds);
  for (uint64_t first = 0; first < values.size(); first += block) {
    const size_t n = std::min<uint64_t>(block, values.size() - first);
    std::vector<uint8_t> bytes;
    code->encode_block(values.data() + first, n, bytes);
    EXPECT_LE(bytes.size(), ValueCode::max_block_bytes(n));
    std::vector<int8_t> decoded(n);
    int last = 99;
    ASSERT_TRUE(code->decode(bytes.data(), bytes.size(), n, decoded.data(), last));
    EXPECT_TRUE(std::equal(decoded.begin(), decoded.end(), values.begin() + first));
    for (size_t k = 1; k <= n; k += 13) {
      ASSERT_TRUE(code->decode(bytes.data(), bytes.size(), k, nullptr, last));
      EXPECT_EQ(last, values[first + k - 1]);
    }
  }
}

// The writer never joins a layer's groups (a second copy of the layer's bytes): each group is a
// piece of its own, the pieces one after another are the data section, and joined (as the
// distributed build writes them) they are the same bytes, whatever the threads.
TEST(ValueCode, GroupsArePiecesThatFollowEachOtherAsTheIndexSays) {
  const int seeds = 12;
  const uint32_t block = 128;
  const std::vector<int8_t> values = table_like_values(3 * kGroupBlocks * block + 5, seeds, 7);
  const std::vector<uint8_t> lengths =
      layer_code_lengths(values.data(), values.size(), block, seeds, 1);
  const std::shared_ptr<const ValueCode> code =
      *ValueCode::from_lengths(lengths.data(), lengths.size(), seeds);
  CodedGroups one = encode_groups(values.data(), values.size(), block, *code, 1);
  CodedGroups two = encode_groups(values.data(), values.size(), block, *code, 2);
  ASSERT_EQ(one.index.size(), 4u);
  ASSERT_EQ(one.data.pieces.size(), one.index.size());
  uint64_t offset = 0;
  for (size_t g = 0; g < one.index.size(); ++g) {
    EXPECT_EQ(one.index[g].offset, offset) << g;
    EXPECT_EQ(one.index[g].block_end[kGroupBlocks - 1], one.data.pieces[g].size()) << g;
    offset += one.data.pieces[g].size();
  }
  EXPECT_EQ(one.data.size, offset);
  const std::vector<uint8_t> joined = join_pieces(std::move(one.data));
  EXPECT_EQ(joined.size(), offset);
  EXPECT_EQ(join_pieces(std::move(two.data)), joined);
  // Each group decodes, from its place in the joined bytes, to its values.
  for (size_t g = 0; g < one.index.size(); ++g) {
    const uint64_t first = g * kGroupBlocks * block;
    uint32_t start = 0;
    for (uint32_t j = 0; j < kGroupBlocks && first + j * block < values.size(); ++j) {
      const size_t n = std::min<uint64_t>(block, values.size() - (first + j * block));
      const uint32_t end = one.index[g].block_end[j];
      std::vector<int8_t> decoded(n);
      int last = 0;
      ASSERT_TRUE(code->decode(joined.data() + one.index[g].offset + start, end - start, n,
                               decoded.data(), last));
      EXPECT_TRUE(std::equal(decoded.begin(), decoded.end(), values.begin() + first + j * block));
      start = end;
    }
  }
}

TEST(ValueCode, RareSymbolsGetCodesNoLongerThanTheFormatAllows) {
  // Counts growing like Fibonacci numbers make a Huffman tree as deep as there are symbols.
  const int seeds = 20;
  std::vector<uint64_t> counts(size_t{code_symbol_count(seeds)} * code_context_count(seeds), 0);
  uint64_t a = 1, b = 1;
  for (uint32_t s = 0; s < code_symbol_count(seeds); ++s) {
    counts[s] = a;
    const uint64_t next = a + b;
    a = b;
    b = next;
  }
  const std::vector<uint8_t> lengths = code_lengths(counts, seeds);
  for (uint32_t s = 0; s < code_symbol_count(seeds); ++s) {
    EXPECT_GE(lengths[s], 1) << s;
    EXPECT_LE(lengths[s], kMaxCodeLength) << s;
  }
  EXPECT_TRUE(ValueCode::from_lengths(lengths.data(), lengths.size(), seeds).ok());
}

TEST(ValueCode, OversubscribedOrOverlongLengthsAreRefused) {
  const int seeds = 2;
  std::vector<uint8_t> lengths(size_t{code_symbol_count(seeds)} * code_context_count(seeds), 0);
  lengths[0] = lengths[1] = lengths[2] = 1;  // three one-bit codes: no prefix code
  EXPECT_FALSE(ValueCode::from_lengths(lengths.data(), lengths.size(), seeds).ok());
  lengths[0] = lengths[1] = lengths[2] = 0;
  lengths[0] = kMaxCodeLength + 1;
  EXPECT_FALSE(ValueCode::from_lengths(lengths.data(), lengths.size(), seeds).ok());
  EXPECT_FALSE(ValueCode::from_lengths(lengths.data(), lengths.size() - 1, seeds).ok());
}

TEST(ValueEntropy, AlternatingValuesCostOneBitAloneAndNothingGivenThePrevious) {
  // Layer 2: values 0, 2, 0, 2, ... in blocks of 4, so every block starts with 0.
  std::vector<int8_t> values(4096);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int8_t>(i % 2 ? 2 : 0);
  const ValueEntropy entropy = value_entropy(values.data(), values.size(), 4, 2);
  EXPECT_NEAR(entropy.order0, 1.0, 1e-9);
  EXPECT_NEAR(entropy.given_previous, 0.0, 1e-9);
  // Blocks of 3 start with 0 or 2 in turn: the first values' context then holds one bit each.
  const ValueEntropy odd = value_entropy(values.data(), 4095, 3, 2);
  EXPECT_NEAR(odd.given_previous, 1.0 / 3, 1e-5);  // 683 blocks start with 0, 682 with 2
  EXPECT_EQ(value_entropy(values.data(), 0, 4, 2).order0, 0.0);
}

TEST(ValueCode, BitsNoCodeStartsWithAreNoValue) {
  // One symbol in the first context: its code is one bit, the other bit pattern is no code.
  const int seeds = 1;
  std::vector<uint8_t> lengths(size_t{code_symbol_count(seeds)} * code_context_count(seeds), 0);
  const size_t first_context = size_t{code_context_count(seeds) - 1} * code_symbol_count(seeds);
  lengths[first_context + 0] = 1;
  const std::shared_ptr<const ValueCode> code =
      *ValueCode::from_lengths(lengths.data(), lengths.size(), seeds);
  int last = 0;
  const uint8_t zero = 0x00, one = 0x01;
  EXPECT_TRUE(code->decode(&zero, 1, 1, nullptr, last));
  EXPECT_EQ(last, 0);
  EXPECT_FALSE(code->decode(&one, 1, 1, nullptr, last));
  // Codes running past the block's bytes are no values either.
  EXPECT_FALSE(code->decode(&zero, 0, 1, nullptr, last));
}

TEST_F(CodedTables, BuildWritesFormatVersion2AndProbesGiveTheZstdFilesValues) {
  build("kalah", 9);
  const fs::path coded_dir = dir_;
  dir_ = testing_helpers::fresh_test_directory("mancala_coded_zstd");
  WriteOptions zstd;
  zstd.encoding = kZstdBlocks;
  build("kalah", 9, zstd);
  for (int s = 0; s <= 9; ++s) {
    Expected<std::shared_ptr<const TableFile>> v1 = TableFile::open(layer_path("kalah-6", s));
    Expected<std::shared_ptr<const TableFile>> v2 =
        TableFile::open((coded_dir / "kalah-6" / layer_file_name(s)).string());
    ASSERT_TRUE(v1.ok() && v2.ok()) << (v1.ok() ? v2.error() : v1.error());
    EXPECT_EQ((*v1)->header().version, kFormatVersion);
    EXPECT_EQ((*v2)->header().version, kCodedFormatVersion);
    EXPECT_EQ((*v2)->encoding(), kCodedBlocks);
    EXPECT_EQ((*v2)->block_size(), kDefaultCodedBlockSize);
    const std::vector<int8_t> values = *(*v1)->read_all();
    ASSERT_EQ(*(*v2)->read_all(), values);
    for (uint64_t rank = 0; rank < values.size(); rank += 1 + rank / 3) {
      Expected<int> probe = (*v2)->value(rank);
      ASSERT_TRUE(probe.ok()) << probe.error();
      EXPECT_EQ(*probe, values[rank]) << "layer " << s << " rank " << rank;
      int in_place = 99;
      ASSERT_TRUE((*v2)->coded_value(rank, in_place));
      EXPECT_EQ(in_place, values[rank]);
    }
  }
  fs::remove_all(coded_dir);
}

TEST_F(CodedTables, ProbesInAnyOrderAgreeWithTheValuesWhateverTheBlockSize) {
  const std::vector<int8_t> values = table_like_values(TableIndex(12, 5).layer_size(5), 5, 11);
  for (const uint32_t block : {1u, 64u, 256u, 512u}) {
    const std::string path = write_coded(values, 5, block);
    Expected<std::shared_ptr<const TableFile>> file = TableFile::open(path);
    ASSERT_TRUE(file.ok()) << file.error();
    std::mt19937 random(block);
    for (int k = 0; k < 3000; ++k) {
      const uint64_t rank = random() % values.size();
      EXPECT_EQ(*(*file)->value(rank), values[rank]) << "block " << block << " rank " << rank;
    }
    std::vector<int8_t> one(block);
    for (uint64_t b = 0; b < (*file)->block_count(); b += 7) {
      ASSERT_TRUE((*file)->read_block(b, one.data()).ok());
      const uint64_t n = std::min<uint64_t>(block, values.size() - b * block);
      EXPECT_TRUE(std::equal(one.begin(), one.begin() + static_cast<ptrdiff_t>(n),
                             values.begin() + static_cast<ptrdiff_t>(b * block)));
    }
  }
}

TEST_F(CodedTables, BlockSizeOverTheFormatsLimitIsRefusedByTheWriter) {
  const std::vector<int8_t> values(TableIndex(12, 2).layer_size(2), 0);
  WriteOptions options;
  options.block_size = kMaxCodedBlockSize + 1;
  Expected<WriteReport> written =
      write_table_file((dir_ / "big.mtb").string(), "kalah:6", 6, 2, values, options);
  ASSERT_FALSE(written.ok());
  EXPECT_NE(written.error().find("block size"), std::string::npos) << written.error();
}

TEST_F(CodedTables, DamagedGroupIsAnErrorNotAValueAndOtherGroupsStillServe) {
  const std::vector<int8_t> values = table_like_values(TableIndex(12, 6).layer_size(6), 6, 5);
  const std::string path = write_coded(values, 6, 64);
  std::string bytes = read_bytes(path);
  TableHeader h;
  std::memcpy(&h, bytes.data(), sizeof h);
  ASSERT_GT(coded_group_count(h.block_count), 2u);
  // A byte in the second group's data flipped: that group fails, the first still serves.
  CodedGroup second;
  std::memcpy(&second, bytes.data() + h.index_offset + sizeof(CodedGroup), sizeof second);
  bytes[h.data_offset + second.offset + 3] ^= 0x20;
  write_bytes(path, bytes);
  Expected<std::shared_ptr<const TableFile>> file = TableFile::open(path);
  ASSERT_TRUE(file.ok()) << file.error();  // header, index and code are intact
  const uint64_t group_positions = uint64_t{kGroupBlocks} * 64;
  for (uint64_t rank = group_positions; rank < 2 * group_positions; rank += 101) {
    Expected<int> v = (*file)->value(rank);
    ASSERT_FALSE(v.ok()) << "rank " << rank;
    EXPECT_NE(v.error().find("checksum mismatch"), std::string::npos) << v.error();
    int out = 0;
    EXPECT_FALSE((*file)->coded_value(rank, out));
  }
  for (uint64_t rank = 0; rank < group_positions; rank += 101)
    EXPECT_EQ(*(*file)->value(rank), values[rank]);
  EXPECT_FALSE((*file)->read_all().ok());
  EXPECT_FALSE((*file)->data_checksum_ok());
}

TEST_F(CodedTables, IndexOrCodeChangedWithTheirChecksumsRecomputedIsRefusedAtOpen) {
  const std::vector<int8_t> values = table_like_values(TableIndex(12, 6).layer_size(6), 6, 9);
  const std::string path = write_coded(values, 6, 64);
  const std::string good = read_bytes(path);
  TableHeader h;
  std::memcpy(&h, good.data(), sizeof h);
  auto forged = [&](const std::function<void(std::string&)>& change) {
    std::string bytes = good;
    change(bytes);
    TableHeader header;
    std::memcpy(&header, bytes.data(), sizeof header);
    header.index_checksum = checksum64(bytes.data() + h.index_offset,
                                       coded_group_count(h.block_count) * sizeof(CodedGroup));
    header.dictionary_checksum = checksum64(bytes.data() + h.dictionary_offset, h.dictionary_size);
    header.header_checksum = header_checksum(header);
    std::memcpy(bytes.data(), &header, sizeof header);
    write_bytes(path, bytes);
    return TableFile::open(path);
  };
  // A group's offset moved: the groups no longer tile the data.
  Expected<std::shared_ptr<const TableFile>> moved =
      forged([&](std::string& bytes) { bytes[h.index_offset + sizeof(CodedGroup)] ^= 1; });
  EXPECT_FALSE(moved.ok());
  // A block's end beyond what its values can take.
  Expected<std::shared_ptr<const TableFile>> long_block = forged([&](std::string& bytes) {
    uint16_t end = 0xFFFF;
    std::memcpy(bytes.data() + h.index_offset + offsetof(CodedGroup, block_end), &end, 2);
  });
  EXPECT_FALSE(long_block.ok());
  // Code lengths that are no prefix code.
  Expected<std::shared_ptr<const TableFile>> bad_code = forged([&](std::string& bytes) {
    std::memset(bytes.data() + h.dictionary_offset, 1, h.dictionary_size);
  });
  ASSERT_FALSE(bad_code.ok());
  EXPECT_NE(bad_code.error().find("corrupt code"), std::string::npos) << bad_code.error();
}

TEST_F(CodedTables, EncodingAndVersionMustAgree) {
  const std::vector<int8_t> values = table_like_values(TableIndex(12, 3).layer_size(3), 3, 1);
  const std::string path = write_coded(values, 3);
  std::string bytes = read_bytes(path);
  TableHeader h;
  std::memcpy(&h, bytes.data(), sizeof h);
  h.version = kFormatVersion;
  h.header_checksum = header_checksum(h);
  std::memcpy(bytes.data(), &h, sizeof h);
  write_bytes(path, bytes);
  Expected<std::shared_ptr<const TableFile>> file = TableFile::open(path);
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.error().find("format version 1"), std::string::npos) << file.error();
}

TEST_F(CodedTables, ConvertRewritesEveryLayerBetweenTheEncodingsWithTheSameValues) {
  WriteOptions zstd;
  zstd.encoding = kZstdBlocks;
  build("oware", 8, zstd);
  const std::string zstd_layer = read_bytes(layer_path("oware-abapa", 8));
  std::vector<std::vector<int8_t>> before;
  for (int s = 0; s <= 8; ++s)
    before.push_back(*(*TableFile::open(layer_path("oware-abapa", s)))->read_all());
  ConvertRequest to_coded{*parse_rules("oware"), -1, dir_.string(), 2, {}};
  int converted = 0;
  ASSERT_TRUE(convert_tables(to_coded, {}, [&](const ConvertLayerReport& r) {
                converted += !r.kept;
              }).ok());
  EXPECT_EQ(converted, 9);
  for (int s = 0; s <= 8; ++s) {
    Expected<std::shared_ptr<const TableFile>> file = TableFile::open(layer_path("oware-abapa", s));
    ASSERT_TRUE(file.ok()) << file.error();
    EXPECT_EQ((*file)->encoding(), kCodedBlocks);
    EXPECT_EQ(*(*file)->read_all(), before[static_cast<size_t>(s)]);
  }
  // Again: nothing left to do.
  int kept = 0;
  ASSERT_TRUE(
      convert_tables(to_coded, {}, [&](const ConvertLayerReport& r) { kept += r.kept; }).ok());
  EXPECT_EQ(kept, 9);
  Expected<VerifyReport> verified = verify_table_directory((dir_ / "oware-abapa").string(), {}, 1);
  ASSERT_TRUE(verified.ok()) << verified.error();
  EXPECT_TRUE(verified->ok());
  // And back to version 1, byte for byte what the zstd build wrote.
  ConvertRequest to_zstd{*parse_rules("oware"), -1, dir_.string(), 1, zstd};
  ASSERT_TRUE(convert_tables(to_zstd, {}, {}).ok());
  Expected<std::shared_ptr<const TableFile>> back = TableFile::open(layer_path("oware-abapa", 8));
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ((*back)->encoding(), kZstdBlocks);
  EXPECT_EQ(*(*back)->read_all(), before[8]);
  EXPECT_TRUE(read_bytes(layer_path("oware-abapa", 8)) == zstd_layer);
}

TEST_F(CodedTables, DecodedTableValuesAndTableValuesAgreeOverCodedLayers) {
  build("kalah", 7);
  Expected<std::shared_ptr<const TableSet>> set = TableSet::open(dir_.string(), Rules::kalah());
  ASSERT_TRUE(set.ok()) << set.error();
  const TableValues files(*set);
  const DecodedTableValues decoded(*set, uint64_t{1} << 30);
  const TableIndex index(12, 7);
  for (int s = 0; s <= 7; ++s)
    for (uint64_t rank = 0; rank < index.layer_size(s); rank += 1 + rank / 5) {
      TableKey key;
      index.unrank(rank, s, key.counts.data());
      const Position p = position_from_key(key.counts.data(), 6);
      EXPECT_EQ(files.value(p), decoded.value(p)) << "layer " << s << " rank " << rank;
    }
  EXPECT_EQ(files.failures(), 0u);
  EXPECT_EQ(decoded.failures(), 0u);
}

}  // namespace
}  // namespace mancala::db::table_code_test
