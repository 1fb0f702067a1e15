// Table files, the probe API and the verifier, including every way a file can be wrong.
#include <gtest/gtest.h>

#include <omp.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>

#include "db/table_build.h"
#include "db/table_set.h"
#include "db/table_unpack.h"
#include "db/table_values.h"
#include "db/table_verify.h"
#include "solver/rules/moves.h"

namespace mancala::db {
namespace {

namespace fs = std::filesystem;

class TableFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("mancala_tables_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Builds kalah:6 (or another game) tables up to `seeds` into dir_.
  void build(const char* game, int seeds, WriteOptions write = {}) {
    BuildRequest request{*parse_rules(game), seeds, dir_.string(), write};
    Expected<bool> done = build_tables(request, {}, {});
    ASSERT_TRUE(done.ok()) << done.error();
  }
  std::string layer_path(const char* table_dir, int seeds) const {
    return (dir_ / table_dir / layer_file_name(seeds)).string();
  }
  std::string plain_path(const char* table_dir, int seeds) const {
    return (dir_ / table_dir / plain_layer_file_name(seeds)).string();
  }
  // Plain copies of layers 0..seeds (-1: all) of the game's tables in dir_; the kept layers.
  std::vector<int> unpack(const char* game, int seeds = -1) {
    std::vector<int> kept;
    Expected<bool> done = unpack_tables({*parse_rules(game), seeds, dir_.string()}, {},
                                        [&](const UnpackLayerReport& r) {
                                          if (r.kept) kept.push_back(r.seeds);
                                        });
    EXPECT_TRUE(done.ok()) << done.error();
    return kept;
  }
  // Writes layer `seeds` of `table` (dir_/kalah-6 ...) as a plain file at `path`, from the
  // compressed file, with `change` applied to the values.
  void write_plain(const char* table_dir, int seeds, const std::string& path,
                   const std::function<void(std::vector<int8_t>&)>& change = {}) {
    Expected<std::shared_ptr<const TableFile>> file = TableFile::open(layer_path(table_dir, seeds));
    ASSERT_TRUE(file.ok()) << file.error();
    std::vector<int8_t> values = *(*file)->read_all();
    if (change) change(values);
    const TableHeader& h = (*file)->header();
    WriteOptions plain;
    plain.plain = true;
    Expected<WriteReport> written =
        write_table_file(path, std::string(h.name, strnlen(h.name, kNameSize)),
                         static_cast<int>(h.houses), seeds, values, plain);
    ASSERT_TRUE(written.ok()) << written.error();
  }
  // Rewrites a file's header through `change`, with a header checksum that matches again.
  static void rewrite_header(const std::string& path,
                             const std::function<void(TableHeader&)>& change) {
    std::string bytes = read_bytes(path);
    TableHeader header;
    std::memcpy(&header, bytes.data(), sizeof header);
    change(header);
    header.header_checksum = header_checksum(header);
    std::memcpy(bytes.data(), &header, sizeof header);
    write_bytes(path, bytes);
  }
  static std::string read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  static void write_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  }

  fs::path dir_;
};

TEST_F(TableFiles, ProbeGivesTheBuiltValues) {
  build("kalah", 8, {.block_size = 256, .compression_level = 3, .dictionary_size = 4096});
  RetrogradeBuilder builder(Rules::kalah(), 8);
  for (int s = 0; s <= 8; ++s) builder.build_layer(s);
  Expected<std::shared_ptr<const TableSet>> set = TableSet::open(dir_.string(), Rules::kalah(6, 5));
  ASSERT_TRUE(set.ok()) << set.error();
  EXPECT_EQ((*set)->max_seeds(), 8);
  for (int s = 0; s <= 8; ++s) {
    for (uint64_t r = 0; r < builder.index().layer_size(s); r += 7) {
      TableKey key;
      builder.index().unrank(r, s, key.counts.data());
      const ProbeResult probe = (*set)->probe_key(s, key);
      ASSERT_TRUE(probe.ok()) << probe.message;
      ASSERT_EQ(probe.value, builder.layer(s)[r]);
    }
  }
}

TEST_F(TableFiles, ProbeSeesPositionsFromTheSideToMove) {
  build("kalah", 4);
  Expected<std::shared_ptr<const TableSet>> set = TableSet::open(dir_.string(), Rules::kalah());
  ASSERT_TRUE(set.ok());
  // One seed each in A and a; whoever moves first sows it towards its store, and then the other
  // side's row is empty or not... the two sides' positions mirror each other.
  const Position south = *parse_position(Rules::kalah(), "1-0-0-0-0-2-0-0-0-0-0-1-22-22-S");
  const Position north = *parse_position(Rules::kalah(), "0-0-0-0-0-1-1-0-0-0-0-2-22-22-N");
  const ProbeResult a = (*set)->probe(south), b = (*set)->probe(north);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a.value, b.value);
}

TEST_F(TableFiles, BytesAreTheSameWithOneThreadOrSeveral) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  build("oware", 9);
  const std::string one = read_bytes(layer_path("oware-abapa", 9));
  fs::remove_all(dir_ / "oware-abapa");
  omp_set_num_threads(2);
  build("oware", 9);
  omp_set_num_threads(saved);
  EXPECT_EQ(read_bytes(layer_path("oware-abapa", 9)), one);
}

TEST_F(TableFiles, PositionWithMoreSeedsThanTablesIsNotCovered) {
  build("kalah", 3);
  Expected<std::shared_ptr<const TableSet>> set = TableSet::open(dir_.string(), Rules::kalah());
  const ProbeResult probe = (*set)->probe(start_position(Rules::kalah()));
  EXPECT_EQ(probe.status, ProbeStatus::NotCovered);
  EXPECT_NE(probe.message.find("48 seeds"), std::string::npos) << probe.message;
}

TEST(DatabaseDirectory, ComesFromTheEnvironmentElseHome) {
  const char* saved = std::getenv("MANCALA_DB");
  const std::string keep = saved ? saved : "";
  const char* saved_home = std::getenv("HOME");
  const std::string keep_home = saved_home ? saved_home : "";
  ::setenv("MANCALA_DB", "/some/tables", 1);
  EXPECT_EQ(default_database_directory(), "/some/tables");
  ::unsetenv("MANCALA_DB");
  ::setenv("HOME", "/home/player", 1);
  EXPECT_EQ(default_database_directory(), "/home/player/.local/share/mancala/db");
  if (saved) ::setenv("MANCALA_DB", keep.c_str(), 1);
  if (saved_home) ::setenv("HOME", keep_home.c_str(), 1);
}

TEST_F(TableFiles, NoTablesForCongkak) {
  EXPECT_FALSE(TableSet::open(dir_.string(), Rules::congkak()).ok());
}

TEST_F(TableFiles, TruncatedFileIsRefused) {
  build("kalah", 6);
  const std::string path = layer_path("kalah-6", 6);
  const std::string bytes = read_bytes(path);
  write_bytes(path, bytes.substr(0, bytes.size() - 10));
  Expected<std::shared_ptr<const TableFile>> file = TableFile::open(path);
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.error().find("truncated"), std::string::npos) << file.error();
  write_bytes(path, bytes.substr(0, 100));
  EXPECT_FALSE(TableFile::open(path).ok());
}

TEST_F(TableFiles, CorruptHeaderIsRefused) {
  build("kalah", 6);
  const std::string path = layer_path("kalah-6", 6);
  std::string bytes = read_bytes(path);
  bytes[72] ^= 1;  // position count
  write_bytes(path, bytes);
  Expected<std::shared_ptr<const TableFile>> file = TableFile::open(path);
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.error().find("header"), std::string::npos) << file.error();
}

TEST_F(TableFiles, BadMagicIsRefused) {
  build("kalah", 2);
  const std::string path = layer_path("kalah-6", 2);
  std::string bytes = read_bytes(path);
  bytes[0] = 'X';
  write_bytes(path, bytes);
  Expected<std::shared_ptr<const TableFile>> file = TableFile::open(path);
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.error().find("magic"), std::string::npos);
}

TEST_F(TableFiles, TableOfAnotherGameIsRefused) {
  build("kalah", 3);
  // Put Kalah's files where Oware's tables are looked for.
  fs::rename(dir_ / "kalah-6", dir_ / "oware-abapa");
  Expected<std::shared_ptr<const TableSet>> set = TableSet::open(dir_.string(), Rules::oware());
  ASSERT_TRUE(set.ok());
  const Position p = *parse_position(Rules::oware(), "1-0-0-0-0-0-0-0-0-0-0-0-20-27-S");
  const ProbeResult probe = (*set)->probe(p);
  EXPECT_EQ(probe.status, ProbeStatus::Failed);
  EXPECT_NE(probe.message.find("expected 'oware:abapa'"), std::string::npos) << probe.message;
}

TEST_F(TableFiles, MissingLayerIsAnExplicitFailure) {
  build("kalah", 4);
  fs::remove(layer_path("kalah-6", 2));
  Expected<std::shared_ptr<const TableSet>> set = TableSet::open(dir_.string(), Rules::kalah());
  EXPECT_EQ((*set)->max_seeds(), 1);  // layers must be contiguous from 0
  const Position p = *parse_position(Rules::kalah(), "1-1-0-0-0-0-0-0-0-0-0-0-23-23-S");
  EXPECT_EQ((*set)->probe(p).status, ProbeStatus::NotCovered);
}

TEST_F(TableFiles, CorruptBlockIsAnErrorNotAValue) {
  build("kalah", 7, {.block_size = 512, .compression_level = 3, .dictionary_size = 0});
  const std::string path = layer_path("kalah-6", 7);
  std::string bytes = read_bytes(path);
  bytes[bytes.size() - 3] ^= 0x55;  // inside the last block (its zstd checksum)
  write_bytes(path, bytes);
  Expected<std::shared_ptr<const TableFile>> file = TableFile::open(path);
  ASSERT_TRUE(file.ok()) << file.error();  // header, index and dictionary are intact
  EXPECT_FALSE((*file)->data_checksum_ok());
  Expected<int> value = (*file)->value((*file)->size() - 1);
  EXPECT_FALSE(value.ok());
}

TEST_F(TableFiles, VerifyPassesOnGoodTables) {
  build("oware:4:awari", 8);
  Expected<VerifyReport> report = verify_table_directory((dir_ / "oware-awari").string(), {});
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_TRUE(report->ok());
  EXPECT_EQ(report->layers, 9);
  EXPECT_EQ(report->mismatch_count, 0u);
}

TEST_F(TableFiles, VerifyCatchesAWrongValue) {
  build("kalah", 6);
  // Rewrite layer 5 as a valid file holding one wrong value.
  RetrogradeBuilder builder(Rules::kalah(), 5);
  for (int s = 0; s <= 5; ++s) builder.build_layer(s);
  std::vector<int8_t> values = builder.layer(5);
  values[100] = static_cast<int8_t>(values[100] == 5 ? 4 : values[100] + 1);
  ASSERT_TRUE(write_table_file(layer_path("kalah-6", 5), "kalah:6", 6, 5, values).ok());
  Expected<VerifyReport> report = verify_table_directory((dir_ / "kalah-6").string(), {});
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_FALSE(report->ok());
  EXPECT_GE(report->mismatch_count, 1u);
  ASSERT_FALSE(report->first_mismatches.empty());
  EXPECT_EQ(report->first_mismatches[0].seeds, 5);
}

TEST_F(TableFiles, VerifyCatchesCorruptData) {
  build("kalah", 5, {.block_size = 256, .compression_level = 3, .dictionary_size = 0});
  const std::string path = layer_path("kalah-6", 5);
  std::string bytes = read_bytes(path);
  bytes[bytes.size() / 2 + 200] ^= 0x10;
  write_bytes(path, bytes);
  Expected<VerifyReport> report = verify_table_directory((dir_ / "kalah-6").string(), {});
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_FALSE(report->ok());
  ASSERT_FALSE(report->errors.empty());
}

TEST_F(TableFiles, InterruptedBuildResumesFromFinishedLayers) {
  build("kalah", 5);
  const auto stamp = fs::last_write_time(layer_path("kalah-6", 3));
  // A stale temporary file from a crash is ignored and replaced.
  write_bytes(layer_path("kalah-6", 6) + ".tmp", "partial");
  int resumed = 0, built = 0;
  BuildRequest request{Rules::kalah(), 7, dir_.string(), {}};
  ASSERT_TRUE(build_tables(request, {}, [&](const LayerReport& r) {
                (r.resumed ? resumed : built)++;
              }).ok());
  EXPECT_EQ(resumed, 6);
  EXPECT_EQ(built, 2);
  EXPECT_EQ(fs::last_write_time(layer_path("kalah-6", 3)), stamp);
  EXPECT_TRUE(fs::exists(layer_path("kalah-6", 7)));
  EXPECT_FALSE(fs::exists(layer_path("kalah-6", 6) + ".tmp"));
}

// ------------------------------------------------------------------ plain files

TEST_F(TableFiles, PlainFileHoldsTheCompressedFilesValues) {
  build("kalah", 7, {.block_size = 256, .compression_level = 3, .dictionary_size = 0});
  for (int s = 0; s <= 7; ++s) {
    write_plain("kalah-6", s, plain_path("kalah-6", s));
    Expected<std::shared_ptr<const TableFile>> zstd = TableFile::open(layer_path("kalah-6", s));
    Expected<std::shared_ptr<const TableFile>> plain =
        TableFile::open(plain_path("kalah-6", s), "kalah:6", 6, s);
    ASSERT_TRUE(zstd.ok() && plain.ok()) << plain.error();
    EXPECT_EQ((*plain)->encoding(), kPlainBytes);
    EXPECT_EQ((*zstd)->encoding(), kZigzagBytes);
    EXPECT_TRUE((*plain)->data_checksum_ok());
    const std::vector<int8_t> values = *(*zstd)->read_all();
    EXPECT_EQ(*(*plain)->read_all(), values);
    for (uint64_t r = 0; r < values.size(); ++r) {
      ASSERT_EQ(*(*plain)->value(r), values[r]);
      int in_place = 0;
      ASSERT_TRUE((*plain)->plain_value(r, in_place));
      ASSERT_EQ(in_place, values[r]);
    }
    std::vector<int8_t> blocks(values.size());
    const uint64_t block_size = (*plain)->block_size();
    for (uint64_t b = 0; b < (*plain)->block_count(); ++b)
      ASSERT_TRUE((*plain)->read_block(b, blocks.data() + b * block_size).ok());
    EXPECT_EQ(blocks, values);
    // The header, a checksum per block of kPlainBlockSize values, the values.
    EXPECT_EQ((*plain)->header().file_size,
              kHeaderSize + 8 * ((values.size() + kPlainBlockSize - 1) / kPlainBlockSize) +
                  values.size());
  }
}

TEST_F(TableFiles, PlainFileWithAWrongDataSizeIsRefused) {
  build("kalah", 4);
  const std::string path = plain_path("kalah-6", 4);
  write_plain("kalah-6", 4, path);
  rewrite_header(path, [](TableHeader& h) { h.data_size -= 1; });
  Expected<std::shared_ptr<const TableFile>> file = TableFile::open(path);
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.error().find(path), std::string::npos) << file.error();
  EXPECT_NE(file.error().find("section offsets"), std::string::npos) << file.error();
}

TEST_F(TableFiles, PlainFileWithAFlippedChecksumByteIsRefused) {
  build("kalah", 4);
  const std::string path = plain_path("kalah-6", 4);
  write_plain("kalah-6", 4, path);
  std::string bytes = read_bytes(path);
  bytes[offsetof(TableHeader, data_checksum)] ^= 0x20;
  write_bytes(path, bytes);
  Expected<std::shared_ptr<const TableFile>> file = TableFile::open(path);
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.error().find("corrupt header"), std::string::npos) << file.error();
}

TEST_F(TableFiles, PlainFileWithBlocksInItsHeaderIsRefused) {
  build("kalah", 4);
  const std::string path = plain_path("kalah-6", 4);
  write_plain("kalah-6", 4, path);
  rewrite_header(path, [](TableHeader& h) {
    h.block_size = 1024;
    h.block_count = 2;
  });
  Expected<std::shared_ptr<const TableFile>> file = TableFile::open(path);
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.error().find("corrupt header (blocks"), std::string::npos) << file.error();
}

TEST_F(TableFiles, TruncatedPlainFileIsRefused) {
  build("kalah", 4);
  const std::string path = plain_path("kalah-6", 4);
  write_plain("kalah-6", 4, path);
  const std::string bytes = read_bytes(path);
  write_bytes(path, bytes.substr(0, bytes.size() - 1));
  Expected<std::shared_ptr<const TableFile>> file = TableFile::open(path);
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.error().find("truncated"), std::string::npos) << file.error();
}

TEST_F(TableFiles, PlainFileWithAFlippedValueFailsItsDataChecksum) {
  build("kalah", 4);
  const std::string path = plain_path("kalah-6", 4);
  write_plain("kalah-6", 4, path);
  std::string bytes = read_bytes(path);
  bytes[kHeaderSize + 700] ^= 0x01;
  write_bytes(path, bytes);
  Expected<std::shared_ptr<const TableFile>> file = TableFile::open(path);
  ASSERT_TRUE(file.ok()) << file.error();  // the header is intact; the data is checked apart
  EXPECT_FALSE((*file)->data_checksum_ok());
}

TEST_F(TableFiles, TableSetReadsThePlainCopyOfALayer) {
  build("kalah", 4);
  // A copy whose every value has the other sign shows which file the probes read.
  write_plain("kalah-6", 2, plain_path("kalah-6", 2), [](std::vector<int8_t>& values) {
    for (int8_t& v : values) v = static_cast<int8_t>(-v);
  });
  Expected<std::shared_ptr<const TableSet>> set = TableSet::open(dir_.string(), Rules::kalah());
  ASSERT_TRUE(set.ok());
  EXPECT_TRUE((*(*set)->layer(2))->is_plain());
  EXPECT_FALSE((*(*set)->layer(1))->is_plain());
  Expected<std::shared_ptr<const TableFile>> zstd = TableFile::open(layer_path("kalah-6", 2));
  uint64_t rank = 0;
  while (*(*zstd)->value(rank) == 0) ++rank;
  TableKey key;
  TableIndex(12, 2).unrank(rank, 2, key.counts.data());
  const ProbeResult probe = (*set)->probe_key(2, key);
  ASSERT_TRUE(probe.ok()) << probe.message;
  EXPECT_EQ(probe.value, -*(*zstd)->value(rank));
}

TEST_F(TableFiles, MaxSeedsCountsLayersWithEitherFile) {
  build("kalah", 5);
  write_plain("kalah-6", 2, plain_path("kalah-6", 2));
  fs::remove(layer_path("kalah-6", 2));  // layer 2: only its plain copy
  Expected<std::shared_ptr<const TableSet>> set = TableSet::open(dir_.string(), Rules::kalah());
  EXPECT_EQ((*set)->max_seeds(), 5);
  fs::remove(layer_path("kalah-6", 4));  // layer 4: neither
  set = TableSet::open(dir_.string(), Rules::kalah());
  EXPECT_EQ((*set)->max_seeds(), 3);
}

TEST_F(TableFiles, DecodedTableValuesOverPlainLayersMatchTableValues) {
  build("kalah", 8, {.block_size = 256, .compression_level = 3, .dictionary_size = 0});
  fs::create_directories(dir_ / "plain");
  fs::copy(dir_ / "kalah-6", dir_ / "plain" / "kalah-6", fs::copy_options::recursive);
  Expected<std::shared_ptr<const TableSet>> zstd = TableSet::open(dir_.string(), Rules::kalah());
  ASSERT_TRUE(unpack_tables({Rules::kalah(), -1, (dir_ / "plain").string()}, {}, {}).ok());
  Expected<std::shared_ptr<const TableSet>> plain =
      TableSet::open((dir_ / "plain").string(), Rules::kalah());
  const TableValues files(*zstd);
  const DecodedTableValues decoded(*plain, 0);  // no budget: plain layers need none
  EXPECT_EQ(decoded.decoded_bytes(), 0u);
  const TableIndex index(12, 8);
  uint64_t positions = 0;
  for (int s = 0; s <= 8; ++s) {
    positions += index.layer_size(s);
    for (uint64_t r = 0; r < index.layer_size(s); r += 5) {
      TableKey key;
      index.unrank(r, s, key.counts.data());
      const Position p = position_from_key(key.counts.data(), 6);
      ASSERT_EQ(decoded.value(p), files.value(p)) << to_string(p);
    }
  }
  EXPECT_EQ(decoded.plain_bytes(), positions);
  EXPECT_EQ(decoded.blocks_decoded(), 0u);
  EXPECT_EQ(decoded.failures(), 0u);
}

TEST_F(TableFiles, UnpackKeepsSoundCopiesAndRewritesABadOne) {
  build("kalah", 5);
  EXPECT_TRUE(unpack("kalah", 3).empty());
  std::string bytes = read_bytes(plain_path("kalah-6", 2));
  bytes[kHeaderSize + 10] ^= 0x04;
  write_bytes(plain_path("kalah-6", 2), bytes);
  EXPECT_EQ(unpack("kalah"), (std::vector<int>{0, 1, 3}));
  for (int s = 0; s <= 5; ++s) {
    Expected<std::shared_ptr<const TableFile>> file = TableFile::open(plain_path("kalah-6", s));
    ASSERT_TRUE(file.ok()) << file.error();
    EXPECT_TRUE((*file)->data_checksum_ok());
  }
  EXPECT_FALSE(fs::exists(plain_path("kalah-6", 6)));
}

TEST_F(TableFiles, UnpackRefusesLayersBeyondTheTables) {
  build("kalah", 3);
  Expected<UnpackPlan> plan = plan_unpack({Rules::kalah(), 4, dir_.string()});
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.error().find("hold layers 0..3"), std::string::npos) << plan.error();
  EXPECT_FALSE(fs::exists(plain_path("kalah-6", 0)));
}

TEST_F(TableFiles, VerifyChecksPlainCopiesToo) {
  build("oware:4:awari", 6);
  unpack("oware:4:awari");
  Expected<VerifyReport> report = verify_table_directory((dir_ / "oware-awari").string(), {});
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_TRUE(report->ok());
  EXPECT_EQ(report->layers, 7);
  EXPECT_EQ(report->plain_layers, 7);
}

TEST_F(TableFiles, VerifyPassesOnALayerWithOnlyItsPlainCopy) {
  build("kalah", 5);
  unpack("kalah", 3);
  fs::remove(layer_path("kalah-6", 3));
  Expected<VerifyReport> report = verify_table_directory((dir_ / "kalah-6").string(), {});
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_TRUE(report->ok());
  EXPECT_EQ(report->layers, 6);
}

TEST_F(TableFiles, VerifyCatchesACorruptPlainCopy) {
  build("kalah", 5);
  unpack("kalah");
  std::string bytes = read_bytes(plain_path("kalah-6", 5));
  bytes[kHeaderSize + 3000] ^= 0x02;
  write_bytes(plain_path("kalah-6", 5), bytes);
  Expected<VerifyReport> report = verify_table_directory((dir_ / "kalah-6").string(), {});
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_FALSE(report->ok());
  ASSERT_EQ(report->errors.size(), 1u);
  EXPECT_NE(report->errors[0].find("seeds-05.plain.mtb: corrupt data"), std::string::npos)
      << report->errors[0];
}

TEST_F(TableFiles, VerifyCatchesAPlainCopyThatDiffersFromItsLayer) {
  build("kalah", 5);
  // A sound file (its checksums match) holding one value that is not the layer's.
  write_plain("kalah-6", 4, plain_path("kalah-6", 4), [](std::vector<int8_t>& values) {
    values[321] = static_cast<int8_t>(-values[321] - 1);
  });
  Expected<VerifyReport> report = verify_table_directory((dir_ / "kalah-6").string(), {});
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_FALSE(report->ok());
  ASSERT_EQ(report->errors.size(), 1u);
  EXPECT_NE(report->errors[0].find("differs from seeds-04.mtb at rank 321"), std::string::npos)
      << report->errors[0];
}

}  // namespace
}  // namespace mancala::db
