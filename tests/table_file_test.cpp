// Table files, the probe API and the verifier, including every way a file can be wrong.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "db/file_io.h"
#include "db/mapping_guard.h"
#include "db/table_build.h"
#include "db/table_set.h"
#include "db/table_unpack.h"
#include "db/table_values.h"
#include "db/table_verify.h"
#include "solver/rules/moves.h"
#include "solver/tables/table_index.h"
#include "tests/scratch_directory.h"
#include "tests/table_directory_test.h"

// A namespace per file: the suite is compiled in unity batches.
namespace mancala::db::table_file_test {
namespace {

namespace fs = std::filesystem;

uint64_t composition_count_for_test(int seeds, int slots) {
  return TableIndex(slots, seeds).layer_size(seeds);
}

class TableFiles : public testing_tables::TableDirectoryTest {
 protected:
  TableFiles() : TableDirectoryTest("mancala_tables") {}
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
  // The request's thread count reaches every phase, the writer included: each layer reports the
  // threads that built it and the team that compressed its blocks, and the bytes do not change.
  for (const auto& [game, table] :
       {std::pair{"oware", "oware-abapa"}, std::pair{"kalah", "kalah-6"}}) {
    std::vector<std::string> bytes[2];
    for (const int threads : {1, 2}) {
      fs::remove_all(dir_ / table);
      const BuildRequest request{*parse_rules(game), 9, dir_.string(), {}, threads, {}};
      std::vector<LayerReport> reports;
      Expected<bool> done =
          build_tables(request, {}, [&](const LayerReport& r) { reports.push_back(r); });
      ASSERT_TRUE(done.ok()) << done.error();
      ASSERT_EQ(reports.size(), 10u) << game;
      for (const LayerReport& r : reports) {
        EXPECT_EQ(r.threads, threads) << game << " layer " << r.seeds;
        EXPECT_EQ(r.write_threads, threads) << game << " layer " << r.seeds;
        bytes[threads - 1].push_back(read_bytes(layer_path(table, r.seeds)));
      }
    }
    EXPECT_EQ(bytes[0], bytes[1]) << game;
  }
}

// A build whose memory for finished layers is bounded (here to nothing: every layer the writer is
// done with moves to a scratch file and is read through a map) writes the same bytes, resumed or
// not, leaves no scratch file behind, and says how much it moved.
// The bound covers the layer being built as well as the finished ones: room for every layer
// moves nothing, room for the finished ones alone moves some out while the last is built.
TEST_F(TableFiles, TheLayerBeingBuiltCountsAgainstTheMemoryBound) {
  for (const auto& [game, table] :
       {std::pair{"kalah", "kalah-6"}, std::pair{"oware", "oware-abapa"}}) {
    const RetrogradeBuilder sizes(*parse_rules(game), 9);
    uint64_t finished = 0;  // layers 0..8
    for (int t = 0; t < 9; ++t) finished += TableIndex(12, 9).layer_size(t);
    for (const uint64_t bound : {finished + sizes.bytes_to_build(9), finished}) {
      fs::remove_all(dir_ / table);
      std::vector<LayerReport> reports;
      const BuildRequest request{*parse_rules(game), 9, dir_.string(), {}, 1, bound};
      Expected<bool> done =
          build_tables(request, {}, [&](const LayerReport& r) { reports.push_back(r); });
      ASSERT_TRUE(done.ok()) << done.error();
      EXPECT_EQ(reports.back().mapped_bytes > 0, bound == finished) << game << " " << bound;
    }
  }
}

// Kalah layers built over mapped layers go pair of sub-layers by pair, reading each pair's part
// of the layers below ahead: both capture rules.
TEST_F(TableFiles, BytesAreTheSameWithTheLayersBelowMappedFromScratchFiles) {
  for (const auto& [game, table] : {std::pair{"kalah", "kalah-6"},
                                    std::pair{"kalah:6:4:empty-capture", "kalah-6-empty-capture"},
                                    std::pair{"oware", "oware-abapa"}}) {
    const auto build_bytes = [&, game = game, table = table](std::optional<uint64_t> layer_memory,
                                                             int threads, int resume_from) {
      fs::remove_all(dir_ / table);
      std::vector<LayerReport> reports;
      for (const int top : {resume_from, 9}) {
        BuildRequest request{*parse_rules(game), top, dir_.string(), {}, threads, layer_memory};
        reports.clear();
        Expected<bool> done =
            build_tables(request, {}, [&](const LayerReport& r) { reports.push_back(r); });
        EXPECT_TRUE(done.ok()) << done.error();
      }
      std::vector<std::string> bytes;
      for (int s = 0; s <= 9; ++s) bytes.push_back(read_bytes(layer_path(table, s)));
      // Layer 9 is reported after the writer finished 0..8, each moved out once it was written.
      EXPECT_EQ(reports.back().mapped_bytes > 0, layer_memory.has_value())
          << game << ", bound " << layer_memory.value_or(0) << ", resumed from " << resume_from;
      // Only layers below the one reported can have moved, and a Kalah layer under a bound of
      // 0 is built in a scratch file: the one reported too.
      for (const LayerReport& r : reports) {
        uint64_t below = 0;
        for (int t = 0; t <= r.seeds; ++t)
          if (t < r.seeds || (layer_memory == 0 && std::string(game) != "oware"))
            below += TableIndex(12, 9).layer_size(t);
        EXPECT_LE(r.mapped_bytes, below) << game << " layer " << r.seeds;
      }
      for (const fs::directory_entry& entry : fs::directory_iterator(dir_ / table))
        EXPECT_TRUE(entry.path().filename().string().rfind("seeds-", 0) == 0 ||
                    entry.path().filename() == kLockFileName)
            << entry.path();
      return bytes;
    };
    const std::vector<std::string> held = build_bytes(std::nullopt, 2, 9);
    EXPECT_EQ(build_bytes(uint64_t{0}, 1, 9), held) << game;
    EXPECT_EQ(build_bytes(uint64_t{0}, 2, 9), held) << game;
    EXPECT_EQ(build_bytes(uint64_t{0}, 2, 5), held) << game << ", resumed from 5";
    // A bound that leaves room for a few layers beside the one being built moves only the
    // lowest.
    const RetrogradeBuilder sizes(*parse_rules(game), 9);
    EXPECT_EQ(build_bytes(sizes.bytes_to_build(9) + TableIndex(12, 9).layer_size(7), 2, 9), held)
        << game;
  }
}

// Resuming over layers that have plain copies beside them (`db unpack`) reads those copies in
// place instead of decoding the layers, and writes the same bytes; a copy that fails its checksum
// is passed over for the layer itself. Kalah and Oware (whose levels read the layers below too).
TEST_F(TableFiles, AResumedBuildReadsTheKeptLayersFromTheirPlainCopies) {
  for (const auto& [game, table] :
       {std::pair{"kalah", "kalah-6"}, std::pair{"oware", "oware-abapa"}}) {
    fs::remove_all(dir_ / table);
    build(game, 9);
    std::vector<std::string> fresh;
    for (int s = 0; s <= 9; ++s) fresh.push_back(read_bytes(layer_path(table, s)));
    for (int s = 7; s <= 9; ++s) fs::remove(layer_path(table, s));
    unpack(game);  // plain copies of 0..6
    // One copy damaged where only its data checksum can tell.
    const std::string damaged = plain_path(table, 5);
    std::string bytes = read_bytes(damaged);
    TableHeader h;
    std::memcpy(&h, bytes.data(), sizeof h);
    bytes[h.data_offset + 3] = static_cast<char>(bytes[h.data_offset + 3] == 0 ? 1 : 0);
    write_bytes(damaged, bytes);
    std::vector<LayerReport> reports;
    const BuildRequest request{*parse_rules(game), 9, dir_.string(), {}, 2, {}};
    Expected<bool> done =
        build_tables(request, {}, [&](const LayerReport& r) { reports.push_back(r); });
    ASSERT_TRUE(done.ok()) << done.error();
    ASSERT_EQ(reports.size(), 10u) << game;
    for (const LayerReport& r : reports) {
      EXPECT_EQ(r.resumed, r.seeds <= 6) << game << " layer " << r.seeds;
      EXPECT_EQ(r.from_plain_copy, r.seeds <= 6 && r.seeds != 5) << game << " layer " << r.seeds;
    }
    for (int s = 0; s <= 9; ++s)
      EXPECT_EQ(read_bytes(layer_path(table, s)), fresh[static_cast<size_t>(s)])
          << game << " layer " << s;
  }
}

TEST_F(TableFiles, ResumedLayersReportNoThreads) {
  build("kalah", 3);
  const BuildRequest request{Rules::kalah(), 4, dir_.string(), {}, 1, {}};
  std::vector<LayerReport> reports;
  ASSERT_TRUE(build_tables(request, {}, [&](const LayerReport& r) { reports.push_back(r); }).ok());
  ASSERT_EQ(reports.size(), 5u);
  for (int s = 0; s <= 3; ++s) {
    EXPECT_TRUE(reports[s].resumed) << s;
    EXPECT_EQ(reports[s].write_threads, 0) << s;
  }
  EXPECT_EQ(reports[4].threads, 1);
  EXPECT_EQ(reports[4].write_threads, 1);
}

TEST_F(TableFiles, WriterCompressesWithTheThreadsAskedFor) {
  RetrogradeBuilder builder(Rules::kalah(), 8, LayerMethod::Fastest, 1);
  for (int s = 0; s <= 8; ++s) builder.build_layer(s);
  std::string written[3];
  for (const int threads : {1, 3}) {
    const std::string path = (dir_ / ("seeds-08-" + std::to_string(threads) + ".mtb")).string();
    Expected<WriteReport> report =
        write_table_file(path, "kalah:6", 6, 8, builder.layer(8), {}, threads);
    ASSERT_TRUE(report.ok()) << report.error();
    EXPECT_EQ(report->threads, threads);
    written[threads - 1] = read_bytes(path);
  }
  EXPECT_EQ(written[0], written[2]);
  WriteOptions plain;
  plain.plain = true;
  Expected<WriteReport> report =
      write_table_file((dir_ / "plain.mtb").string(), "kalah:6", 6, 8, builder.layer(8), plain, 3);
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_EQ(report->threads, 0);  // nothing to compress
}

// The writer's check compares a file with the values it was written from, block by block.
TEST_F(TableFiles, AFileHoldsTheValuesItWasWrittenFromAndNoOthers) {
  RetrogradeBuilder builder(Rules::kalah(), 8, LayerMethod::Fastest, 1);
  for (int s = 0; s <= 8; ++s) builder.build_layer(s);
  const std::vector<int8_t> values(builder.layer(8).begin(), builder.layer(8).end());
  std::vector<int8_t> changed = values;
  changed[values.size() / 2] = static_cast<int8_t>(values[values.size() / 2] == 8 ? 7 : 8);
  WriteOptions plain, zstd;
  plain.plain = true;
  zstd.encoding = kZstdBlocks;
  for (const auto& [name, options] :
       {std::pair{"coded", WriteOptions{}}, std::pair{"plain", plain}, std::pair{"zstd", zstd}}) {
    const std::string path = (dir_ / (std::string(name) + ".mtb")).string();
    ASSERT_TRUE(write_table_file(path, "kalah:6", 6, 8, values, options, 2).ok()) << name;
    Expected<std::shared_ptr<const TableFile>> file = TableFile::open(path, "kalah:6", 6, 8);
    ASSERT_TRUE(file.ok()) << file.error();
    for (const int threads : {1, 2}) {
      Expected<bool> same = (*file)->holds(values, threads);
      ASSERT_TRUE(same.ok()) << same.error();
      EXPECT_TRUE(*same) << name;
      EXPECT_FALSE(*(*file)->holds(changed, threads)) << name;
      EXPECT_FALSE(*(*file)->holds(std::span(values).first(values.size() - 1), threads)) << name;
    }
  }
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
  build("kalah", 7,
        {.encoding = kZstdBlocks, .block_size = 512, .compression_level = 3, .dictionary_size = 0});
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
  std::vector<int8_t> values(builder.layer(5).begin(), builder.layer(5).end());
  values[100] = static_cast<int8_t>(values[100] == 5 ? 4 : values[100] + 1);
  ASSERT_TRUE(write_table_file(layer_path("kalah-6", 5), "kalah:6", 6, 5, values).ok());
  Expected<VerifyReport> report = verify_table_directory((dir_ / "kalah-6").string(), {});
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_FALSE(report->ok());
  EXPECT_GE(report->mismatch_count, 1u);
  ASSERT_FALSE(report->first_mismatches.empty());
  EXPECT_EQ(report->first_mismatches[0].seeds, 5);
}

// Issue 40: verify holds every layer's values at once. Forged layers (well-formed coded files of
// zeros, each small on its own) are refused up front when they do not fit together: from their
// headers, before any value is read; given the room, they are read and found wrong.
TEST_F(TableFiles, VerifyIsRefusedUpFrontWhenTheLayersTogetherDoNotFit) {
  constexpr int kTop = 10;
  const TableIndex index(12, kTop);
  std::filesystem::create_directories(dir_ / "kalah-6");
  uint64_t total = 0, largest = 0;
  for (int s = 0; s <= kTop; ++s) {
    const std::vector<int8_t> zeros(index.layer_size(s), 0);
    ASSERT_TRUE(write_table_file(layer_path("kalah-6", s), "kalah:6", 6, s, zeros).ok());
    total += zeros.size();
    largest = std::max<uint64_t>(largest, zeros.size());
  }
  const std::string dir = (dir_ / "kalah-6").string();
  const Expected<uint64_t> needed = verify_memory_needed(dir);
  ASSERT_TRUE(needed.ok()) << needed.error();
  EXPECT_EQ(*needed, total + largest);
  int layers_read = 0;
  const auto count_layers = [&](const LayerProgress&) { ++layers_read; };
  const Expected<VerifyReport> refused =
      verify_table_directory(dir, count_layers, 1, 10, *needed - 1);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("holds every layer's values at once"), std::string::npos)
      << refused.error();
  EXPECT_EQ(layers_read, 0);
  const Expected<VerifyReport> verified = verify_table_directory(dir, count_layers, 1, 10, *needed);
  ASSERT_TRUE(verified.ok()) << verified.error();
  EXPECT_FALSE(verified->ok());
  EXPECT_GT(verified->mismatch_count, 0u);
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

// The sampled verify (for tables larger than the memory): each layer's drawn positions checked
// in place; a layer no larger than the sample is checked whole; the same seed draws the same
// positions, another seed others.
TEST_F(TableFiles, SampledVerifyChecksTheDrawnPositionsOfEachLayer) {
  build("oware:4:awari", 8);
  const std::string dir = (dir_ / "oware-awari").string();
  const TableIndex index(12, 8);
  constexpr uint64_t kPerLayer = 500;
  uint64_t expected_positions = 0, all = 0;
  for (int s = 0; s <= 8; ++s) {
    expected_positions += std::min<uint64_t>(index.layer_size(s), kPerLayer);
    all += index.layer_size(s);
  }
  ASSERT_GT(index.layer_size(8), kPerLayer);  // the top layers are drawn from
  Expected<VerifyReport> report = verify_table_sample(dir, {kPerLayer, 7}, {}, 2);
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_TRUE(report->ok());
  EXPECT_EQ(report->layers, 9);
  EXPECT_EQ(report->positions, expected_positions);
  EXPECT_EQ(report->sampled_from, all);
}

TEST_F(TableFiles, SampledVerifyCatchesAWrongValueItDraws) {
  build("kalah", 6);
  RetrogradeBuilder builder(Rules::kalah(), 5);
  for (int s = 0; s <= 5; ++s) builder.build_layer(s);
  std::vector<int8_t> values(builder.layer(5).begin(), builder.layer(5).end());
  // A third of layer 5 wrong: any draw of a few dozen positions finds some of them.
  for (size_t r = 0; r < values.size(); r += 3)
    values[r] = static_cast<int8_t>(values[r] == 5 ? 4 : values[r] + 1);
  ASSERT_TRUE(write_table_file(layer_path("kalah-6", 5), "kalah:6", 6, 5, values).ok());
  const std::string dir = (dir_ / "kalah-6").string();
  ASSERT_GT(values.size(), 50u);
  Expected<VerifyReport> drawn = verify_table_sample(dir, {50, 1}, {});
  ASSERT_TRUE(drawn.ok()) << drawn.error();
  EXPECT_FALSE(drawn->ok());
  ASSERT_FALSE(drawn->first_mismatches.empty());
  EXPECT_EQ(drawn->first_mismatches[0].seeds, 5);
  // Drawn whole (the sample as large as the layer), it counts what the whole verify counts.
  Expected<VerifyReport> whole = verify_table_directory(dir, {});
  Expected<VerifyReport> sampled_whole = verify_table_sample(dir, {values.size() * 10, 1}, {});
  ASSERT_TRUE(whole.ok() && sampled_whole.ok());
  EXPECT_EQ(sampled_whole->mismatch_count, whole->mismatch_count);
  EXPECT_EQ(sampled_whole->positions, whole->positions);
}

TEST_F(TableFiles, SampledVerifyChecksEveryFilesChecksumAndThePlainCopies) {
  build("kalah", 5, {.block_size = 256, .compression_level = 3, .dictionary_size = 0});
  const std::string dir = (dir_ / "kalah-6").string();
  const std::string path = layer_path("kalah-6", 5);
  std::string bytes = read_bytes(path);
  bytes[bytes.size() / 2 + 200] ^= 0x10;
  write_bytes(path, bytes);
  // One position a layer: the corrupt block is most likely not drawn, the checksum still fails.
  Expected<VerifyReport> report = verify_table_sample(dir, {1, 1}, {});
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_FALSE(report->ok());
  ASSERT_EQ(report->errors.size(), 1u);
  EXPECT_NE(report->errors[0].find("checksum"), std::string::npos) << report->errors[0];
}

TEST_F(TableFiles, InterruptedBuildResumesFromFinishedLayers) {
  build("kalah", 5);
  const auto stamp = fs::last_write_time(layer_path("kalah-6", 3));
  // A stale temporary file from a crash is ignored and replaced.
  write_bytes(layer_path("kalah-6", 6) + ".tmp", "partial");
  int resumed = 0, built = 0;
  BuildRequest request{Rules::kalah(), 7, dir_.string(), {}, 0, {}};
  ASSERT_TRUE(build_tables(request, {}, [&](const LayerReport& r) {
                (r.resumed ? resumed : built)++;
              }).ok());
  EXPECT_EQ(resumed, 6);
  EXPECT_EQ(built, 2);
  EXPECT_EQ(fs::last_write_time(layer_path("kalah-6", 3)), stamp);
  EXPECT_TRUE(fs::exists(layer_path("kalah-6", 7)));
  EXPECT_FALSE(fs::exists(layer_path("kalah-6", 6) + ".tmp"));
}

TEST_F(TableFiles, BuildEndedByAProgressExceptionKeepsEveryFinishedLayer) {
  // Layers are written alongside the build of the next ones; a build that a progress callback
  // stops (Ctrl-C in Python) must still leave the layers it finished, written and sound.
  struct Stop {};
  BuildRequest request{Rules::kalah(), 8, dir_.string(), {}, 0, {}};
  EXPECT_THROW(build_tables(request,
                            [](const LayerProgress& p) {
                              if (p.seeds == 6) throw Stop{};
                            },
                            {}),
               Stop);
  for (int s = 0; s <= 5; ++s) {
    Expected<std::shared_ptr<const TableFile>> layer = TableFile::open(layer_path("kalah-6", s));
    ASSERT_TRUE(layer.ok()) << s << ": " << layer.error();
    EXPECT_TRUE((*layer)->data_checksum_ok()) << s;
  }
  EXPECT_FALSE(fs::exists(layer_path("kalah-6", 6)));
}

// ------------------------------------------------------------------ plain files

TEST_F(TableFiles, PlainFileHoldsTheCompressedFilesValues) {
  build("kalah", 7,
        {.encoding = kZstdBlocks, .block_size = 256, .compression_level = 3, .dictionary_size = 0});
  for (int s = 0; s <= 7; ++s) {
    write_plain("kalah-6", s, plain_path("kalah-6", s));
    Expected<std::shared_ptr<const TableFile>> zstd = TableFile::open(layer_path("kalah-6", s));
    Expected<std::shared_ptr<const TableFile>> plain =
        TableFile::open(plain_path("kalah-6", s), "kalah:6", 6, s);
    ASSERT_TRUE(zstd.ok() && plain.ok()) << plain.error();
    EXPECT_EQ((*plain)->encoding(), kPlainBytes);
    EXPECT_EQ((*zstd)->encoding(), kZstdBlocks);
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

// Sampled, a plain copy's drawn values must be its layer's: a layer drawn whole finds the one
// that differs, named with its rank as the whole verify names it.
TEST_F(TableFiles, SampledVerifyCatchesAPlainCopyThatDiffersWhereItDraws) {
  build("kalah", 5);
  unpack("kalah");
  write_plain("kalah-6", 4, plain_path("kalah-6", 4), [](std::vector<int8_t>& values) {
    values[321] = static_cast<int8_t>(-values[321] - 1);
  });
  const std::string dir = (dir_ / "kalah-6").string();
  Expected<VerifyReport> report = verify_table_sample(dir, {1000000, 1}, {});
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_FALSE(report->ok());
  ASSERT_EQ(report->errors.size(), 1u);
  EXPECT_NE(report->errors[0].find("differs from seeds-04.mtb at rank 321"), std::string::npos)
      << report->errors[0];
  fs::remove(plain_path("kalah-6", 4));
  unpack("kalah");  // the copy made again, sound
  Expected<VerifyReport> after = verify_table_sample(dir, {20, 1}, {});
  ASSERT_TRUE(after.ok()) << after.error();
  EXPECT_TRUE(after->ok());
  EXPECT_EQ(after->plain_layers, 6);
}

// ------------------------------------------------------------------ hostile files (issue 11)

// A plain file whose sums all match again after `change` edited its values in place: what a
// forger (or a fuzzer) can make, which only the checks on the values themselves can refuse.
void rewrite_plain_values(const std::string& path, const std::function<void(int8_t*)>& change) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes{std::istreambuf_iterator<char>(in), {}};
  TableHeader h;
  std::memcpy(&h, bytes.data(), sizeof h);
  auto* values = reinterpret_cast<int8_t*>(bytes.data() + h.data_offset);
  change(values);
  for (uint64_t b = 0; b < h.block_count; ++b) {
    const uint64_t first = b * kPlainBlockSize;
    const uint64_t sum = plain_block_checksum(
        values + first, std::min<uint64_t>(kPlainBlockSize, h.position_count - first));
    std::memcpy(bytes.data() + h.index_offset + 8 * b, &sum, 8);
  }
  h.index_checksum = checksum64(bytes.data() + h.index_offset, 8 * h.block_count);
  h.data_checksum = checksum64(values, h.data_size);
  h.header_checksum = header_checksum(h);
  std::memcpy(bytes.data(), &h, sizeof h);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

TEST_F(TableFiles, HeaderClaimingAHugeBlockSizeIsRefusedAtOpen) {
  build("kalah", 5);
  const std::string path = layer_path("kalah-6", 5);
  // A forged header whose checksum matches: one block of 2^32 - 1 positions.
  rewrite_header(path, [](TableHeader& h) {
    h.block_size = 0xFFFFFFFFu;
    h.block_count = 1;
  });
  Expected<std::shared_ptr<const TableFile>> file = TableFile::open(path);
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.error().find("corrupt header (blocks"), std::string::npos) << file.error();
}

struct HeaderForgery {
  const char* what;
  std::function<void(TableHeader&)> change;
  const char* message;
};

TEST_F(TableFiles, EveryHeaderFieldIsBoundedBeforeItIsTrusted) {
  build("kalah", 4);
  const std::vector<HeaderForgery> forgeries = {
      {"houses 7", [](TableHeader& h) { h.houses = 7; }, "houses"},
      {"houses 0", [](TableHeader& h) { h.houses = 0; }, "houses"},
      {"layer 65", [](TableHeader& h) { h.seeds = 65; }, "layer 65"},
      {"layer 2^32-1", [](TableHeader& h) { h.seeds = 0xFFFFFFFFu; }, "corrupt header"},
      {"position count", [](TableHeader& h) { h.position_count = ~0ull; }, "position count"},
      {"block size 0", [](TableHeader& h) { h.block_size = 0; }, "blocks"},
      {"block size 2^21", [](TableHeader& h) { h.block_size = 1u << 21; }, "blocks"},
      {"dictionary 2^40", [](TableHeader& h) { h.dictionary_size = 1ull << 40; }, "dictionary"},
      {"data size 2^64-1", [](TableHeader& h) { h.data_size = ~0ull; }, "section offsets"},
      {"data offset 2^64-1", [](TableHeader& h) { h.data_offset = ~0ull; }, "section offsets"},
      {"index offset", [](TableHeader& h) { h.index_offset = 0; }, "section offsets"},
      {"reserved byte", [](TableHeader& h) { h.reserved[40] = 1; }, "reserved"},
      {"name without NUL", [](TableHeader& h) { std::memset(h.name, 'k', kNameSize); }, "name"},
      {"name with ESC", [](TableHeader& h) { h.name[2] = '\x1b'; }, "name"},
      {"bytes after the name", [](TableHeader& h) { h.name[30] = 'x'; }, "name"},
      {"name of other houses", [](TableHeader& h) { std::memcpy(h.name, "kalah:5", 7); },
       "table name"},
      {"unknown encoding", [](TableHeader& h) { h.value_encoding = 9; }, "unknown value encoding"},
      {"old plain layout", [](TableHeader& h) { h.value_encoding = kUncheckedPlainBytes; },
       "older layout"},
  };
  const std::string path = layer_path("kalah-6", 4);
  const std::string original = read_bytes(path);
  for (const HeaderForgery& forgery : forgeries) {
    write_bytes(path, original);
    rewrite_header(path, forgery.change);
    Expected<std::shared_ptr<const TableFile>> file = TableFile::open(path);
    ASSERT_FALSE(file.ok()) << forgery.what;
    EXPECT_NE(file.error().find(forgery.message), std::string::npos)
        << forgery.what << ": " << file.error();
  }
}

TEST_F(TableFiles, WriterRefusesValuesOutsideTheLayerRange) {
  std::vector<int8_t> values(composition_count_for_test(2, 12), 0);
  values[7] = 3;  // a 2-seed layer's values lie in -2..2
  Expected<WriteReport> written =
      write_table_file((dir_ / "seeds-02.mtb").string(), "kalah:6", 6, 2, values);
  ASSERT_FALSE(written.ok());
  EXPECT_NE(written.error().find("outside -2..2"), std::string::npos) << written.error();
  EXPECT_FALSE(fs::exists(dir_ / "seeds-02.mtb"));
}

TEST_F(TableFiles, PlainValueOutsideTheLayerRangeIsAFailureNotAValue) {
  build("kalah", 4);
  unpack("kalah");
  const std::string path = plain_path("kalah-6", 4);
  rewrite_plain_values(path, [](int8_t* values) { values[100] = 127; });
  Expected<std::shared_ptr<const TableFile>> file = TableFile::open(path, "kalah:6", 6, 4);
  ASSERT_TRUE(file.ok()) << file.error();  // every sum matches: only the value is wrong
  Expected<int> value = (*file)->value(100);
  ASSERT_FALSE(value.ok());
  EXPECT_NE(value.error().find("value 127 at rank 100 is outside -4..4"), std::string::npos)
      << value.error();
  int in_place = 0;
  EXPECT_FALSE((*file)->plain_value(100, in_place));
  EXPECT_TRUE((*file)->value(99).ok());
  EXPECT_FALSE((*file)->read_all().ok());
  // Through the probe API too.
  Expected<std::shared_ptr<const TableSet>> set = TableSet::open(dir_.string(), Rules::kalah());
  TableKey key;
  TableIndex(12, 4).unrank(100, 4, key.counts.data());
  const ProbeResult probe = (*set)->probe_key(4, key);
  EXPECT_EQ(probe.status, ProbeStatus::Failed);
  EXPECT_NE(probe.message.find("outside -4..4"), std::string::npos) << probe.message;
}

TEST_F(TableFiles, PlainBlockWithAFlippedByteFailsOnFirstTouchAndOthersStillServe) {
  build("kalah", 5);  // layer 5: 4368 positions, two blocks
  unpack("kalah");
  const std::string path = plain_path("kalah-6", 5);
  std::string bytes = read_bytes(path);
  TableHeader h;
  std::memcpy(&h, bytes.data(), sizeof h);
  ASSERT_EQ(h.block_count, 2u);
  // A value that stays in range, so only the block's checksum can see it.
  int8_t& flipped = reinterpret_cast<int8_t&>(bytes[h.data_offset + kPlainBlockSize + 100]);
  flipped = static_cast<int8_t>(flipped == 0 ? 1 : 0);
  write_bytes(path, bytes);
  Expected<std::shared_ptr<const TableFile>> file = TableFile::open(path, "kalah:6", 6, 5);
  ASSERT_TRUE(file.ok()) << file.error();
  EXPECT_TRUE((*file)->value(10).ok());
  Expected<int> bad = (*file)->value(kPlainBlockSize + 5);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("corrupt data in block 1"), std::string::npos) << bad.error();
  EXPECT_TRUE((*file)->value(11).ok());
}

TEST_F(TableFiles, FifoInPlaceOfALayerIsAnErrorNotAWait) {
  build("kalah", 5);
  fs::remove(layer_path("kalah-6", 3));
  ASSERT_EQ(::mkfifo(layer_path("kalah-6", 3).c_str(), 0644), 0);
  Expected<std::shared_ptr<const TableFile>> file = TableFile::open(layer_path("kalah-6", 3));
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.error().find("is not a regular file"), std::string::npos) << file.error();
  // The set still counts the layer (something is there), serves the others and fails on it.
  Expected<std::shared_ptr<const TableSet>> set = TableSet::open(dir_.string(), Rules::kalah());
  ASSERT_TRUE(set.ok()) << set.error();
  EXPECT_EQ((*set)->max_seeds(), 5);
  const Position two = *parse_position(Rules::kalah(), "1-1-0-0-0-0-0-0-0-0-0-0-23-23-S");
  const Position three = *parse_position(Rules::kalah(), "1-1-1-0-0-0-0-0-0-0-0-0-23-22-S");
  EXPECT_TRUE((*set)->probe(two).ok());
  const ProbeResult failed = (*set)->probe(three);
  EXPECT_EQ(failed.status, ProbeStatus::Failed);
  EXPECT_NE(failed.message.find("seeds-03.mtb: is not a regular file"), std::string::npos)
      << failed.message;
}

TEST_F(TableFiles, DecodedTableValuesOpenNoLayerBeforeItsFirstProbe) {
  build("kalah", 5);
  fs::remove(layer_path("kalah-6", 4));
  ASSERT_EQ(::mkfifo(layer_path("kalah-6", 4).c_str(), 0644), 0);
  Expected<std::shared_ptr<const TableSet>> set = TableSet::open(dir_.string(), Rules::kalah());
  std::vector<std::string> reported;
  const DecodedTableValues values(*set, 1u << 30,
                                  [&](const std::string& message) { reported.push_back(message); });
  const Position two = *parse_position(Rules::kalah(), "1-1-0-0-0-0-0-0-0-0-0-0-23-23-S");
  EXPECT_TRUE(values.value(two).has_value());
  EXPECT_TRUE(reported.empty());
  const Position four = *parse_position(Rules::kalah(), "1-1-1-1-0-0-0-0-0-0-0-0-22-22-S");
  EXPECT_FALSE(values.value(four).has_value());
  EXPECT_FALSE(values.value(four).has_value());
  EXPECT_EQ(values.failures(), 2u);
  ASSERT_EQ(reported.size(), 1u);  // once, at the first failure
  EXPECT_NE(reported[0].find("seeds-04.mtb"), std::string::npos) << reported[0];
}

TEST_F(TableFiles, SymlinkLoopInPlaceOfALayerIsAnErrorNotAnException) {
  build("kalah", 3);
  fs::remove(layer_path("kalah-6", 2));
  fs::create_symlink("seeds-02.mtb", layer_path("kalah-6", 2));  // points at itself
  Expected<std::shared_ptr<const TableSet>> set = TableSet::open(dir_.string(), Rules::kalah());
  ASSERT_TRUE(set.ok()) << set.error();
  const Position two = *parse_position(Rules::kalah(), "1-1-0-0-0-0-0-0-0-0-0-0-23-23-S");
  const ProbeResult probe = (*set)->probe(two);
  EXPECT_EQ(probe.status, ProbeStatus::Failed);
  EXPECT_NE(probe.message.find("symbolic links"), std::string::npos) << probe.message;
  Expected<VerifyReport> report = verify_table_directory((dir_ / "kalah-6").string(), {});
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_FALSE(report->ok());
}

TEST_F(TableFiles, UnreadableTableDirectoryIsAnErrorNotAnException) {
  build("kalah", 3);
  const fs::path table = dir_ / "kalah-6";
  fs::permissions(table, fs::perms::none);
  if (::access(table.c_str(), R_OK | X_OK) == 0) {
    fs::permissions(table, fs::perms::owner_all);
    GTEST_SKIP() << "running as root, whom mode 000 does not stop (the fault-injection suite "
                    "runs this case as another user)";
  }
  Expected<std::shared_ptr<const TableSet>> set = TableSet::open(dir_.string(), Rules::kalah());
  fs::permissions(table, fs::perms::owner_all);
  ASSERT_FALSE(set.ok());
  EXPECT_NE(set.error().find("Permission denied"), std::string::npos) << set.error();
}

TEST_F(TableFiles, LayerMissingInTheMiddleIsWarnedAndFailsVerify) {
  build("kalah", 6);
  fs::remove(layer_path("kalah-6", 3));
  Expected<std::shared_ptr<const TableSet>> set = TableSet::open(dir_.string(), Rules::kalah());
  ASSERT_TRUE(set.ok());
  EXPECT_EQ((*set)->max_seeds(), 2);
  EXPECT_NE((*set)->gap_warning().find("layer 3 is missing"), std::string::npos)
      << (*set)->gap_warning();
  EXPECT_NE((*set)->gap_warning().find("layers 4..6 on disk are not"), std::string::npos)
      << (*set)->gap_warning();
  Expected<VerifyReport> report = verify_table_directory((dir_ / "kalah-6").string(), {});
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_FALSE(report->ok());
  ASSERT_FALSE(report->errors.empty());
  EXPECT_NE(report->errors[0].find("seeds-03.mtb: missing"), std::string::npos)
      << report->errors[0];
}

TEST_F(TableFiles, NoGapNoWarning) {
  build("kalah", 4);
  Expected<std::shared_ptr<const TableSet>> set = TableSet::open(dir_.string(), Rules::kalah());
  EXPECT_EQ((*set)->gap_warning(), "");
}

TEST_F(TableFiles, LayerFileNamesSayWhichLayerTheyHold) {
  EXPECT_EQ(layer_of_file_name("seeds-07.mtb"), 7);
  EXPECT_EQ(layer_of_file_name("/x/y/seeds-12.plain.mtb"), 12);
  EXPECT_EQ(layer_of_file_name("seeds-7.mtb"), -1);
  EXPECT_EQ(layer_of_file_name("copy-of-seeds-07.mtb"), -1);
  // Two layers swapped on disk: the reader that expects the name's layer refuses each.
  build("kalah", 5);
  fs::rename(layer_path("kalah-6", 4), dir_ / "x");
  fs::rename(layer_path("kalah-6", 5), layer_path("kalah-6", 4));
  fs::rename(dir_ / "x", layer_path("kalah-6", 5));
  const std::string path = layer_path("kalah-6", 4);
  Expected<std::shared_ptr<const TableFile>> file =
      TableFile::open(path, "", -1, layer_of_file_name(path));
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.error().find("holds layer 5, expected 4"), std::string::npos) << file.error();
}

class TruncatedUnderAReader : public TableFiles, public ::testing::WithParamInterface<bool> {};

// A layer truncated (as `cp` over it does first) while a reader has it mapped: the reads fault,
// and the handler turns them into failed probes instead of a SIGBUS that kills the process.
TEST_P(TruncatedUnderAReader, ProbesFailAndTheProcessLives) {
  const bool plain = GetParam();
  build("kalah", 7, {.block_size = 64, .compression_level = 3, .dictionary_size = 0});
  if (plain) unpack("kalah");
  Expected<std::shared_ptr<const TableSet>> set = TableSet::open(dir_.string(), Rules::kalah());
  const TableIndex index(12, 7);
  auto probe = [&](uint64_t rank) {
    TableKey key;
    index.unrank(rank, 7, key.counts.data());
    return (*set)->probe_key(7, key);
  };
  ASSERT_TRUE(probe(0).ok()) << probe(0).message;
  const std::string path = plain ? plain_path("kalah-6", 7) : layer_path("kalah-6", 7);
  // A coded layer (format version 2) is cut where its data begins: its index and code, which
  // open read, stay whole, so that the probe reads its group's bytes from a page past the end
  // (cut inside the index, a zeroed entry would fail the group's checksum without a fault).
  const off_t cut = plain ? 300 : static_cast<off_t>((*(*set)->layer(7))->header().data_offset);
  ASSERT_EQ(::truncate(path.c_str(), cut), 0);
  const uint64_t faults = guarded_faults();
  const ProbeResult after = probe(index.layer_size(7) - 1);  // a page beyond the new end
  EXPECT_EQ(after.status, ProbeStatus::Failed);
  EXPECT_NE(after.message.find("changed under this reader"), std::string::npos) << after.message;
  EXPECT_GT(guarded_faults(), faults);
  EXPECT_TRUE((*(*set)->layer(7))->damaged());
  // Sticky: a later read of a page it had read fine before fails too.
  EXPECT_EQ(probe(index.layer_size(7) / 2).status, ProbeStatus::Failed);
}

INSTANTIATE_TEST_SUITE_P(PlainAndCompressed, TruncatedUnderAReader, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& param) {
                           return std::string(param.param ? "PlainLayer" : "CompressedLayer");
                         });

TEST(MappingGuard, AFaultOutsideEveryTableMappingStillKills) {
  // Named by the test process (the dying child is a fork of it), which removes it afterwards.
  const std::string path =
      ::testing::TempDir() + "mapping_guard_death_" + std::to_string(::getpid());
  EXPECT_DEATH(
      {
        { std::ofstream(path) << std::string(8192, 'x'); }
        FileDescriptor fd(::open(path.c_str(), O_RDONLY));
        // A plain mapping, not a GuardedMapping: the handler must leave its fault alone.
        const auto* bytes = static_cast<const volatile char*>(
            ::mmap(nullptr, 8192, PROT_READ, MAP_SHARED, fd.get(), 0));
        Expected<GuardedMapping> guarded = GuardedMapping::map(fd.get(), 8192, path);
        (void)::truncate(path.c_str(), 0);
        (void)bytes[5000];
      },
      "");
  std::error_code ignored;
  fs::remove(path, ignored);
}

TEST_F(TableFiles, ProbeFailureHandlerIsCalledOnceWithTheFirstFailure) {
  build("kalah", 4);
  write_bytes(layer_path("kalah-6", 3), "not a table");
  Expected<std::shared_ptr<const TableSet>> set = TableSet::open(dir_.string(), Rules::kalah());
  int calls = 0;
  std::string message;
  const TableValues values(*set, [&](const std::string& m) {
    ++calls;
    message = m;
  });
  const Position three = *parse_position(Rules::kalah(), "1-1-1-0-0-0-0-0-0-0-0-0-23-22-S");
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(values.value(three).has_value());
  EXPECT_EQ(values.failures(), 5u);
  EXPECT_EQ(calls, 1);
  EXPECT_NE(message.find("seeds-03.mtb"), std::string::npos) << message;
}

TEST_F(TableFiles, ASecondWriterIsRefusedWhileTheFirstHoldsTheDirectory) {
  build("kalah", 3);
  Expected<WriterLock> first = WriterLock::acquire((dir_ / "kalah-6").string());
  ASSERT_TRUE(first.ok()) << first.error();
  Expected<bool> second = build_tables({Rules::kalah(), 4, dir_.string(), {}}, {}, {});
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.error().find("another mancala process"), std::string::npos) << second.error();
  EXPECT_FALSE(fs::exists(layer_path("kalah-6", 4)));
  Expected<bool> unpacking = unpack_tables({Rules::kalah(), -1, dir_.string()}, {}, {});
  ASSERT_FALSE(unpacking.ok());
  EXPECT_NE(unpacking.error().find("another mancala process"), std::string::npos)
      << unpacking.error();
}

TEST_F(TableFiles, BuildRemovesTheTemporariesAKilledWriterLeft) {
  build("kalah", 3);
  write_bytes(layer_path("kalah-6", 4) + ".tmp-Ab12Cd", "partial");
  build("kalah", 4);
  EXPECT_FALSE(fs::exists(layer_path("kalah-6", 4) + ".tmp-Ab12Cd"));
  EXPECT_TRUE(TableFile::open(layer_path("kalah-6", 4)).ok());
}

TEST_F(TableFiles, ATableFileNeverReplacesAFifo) {
  build("kalah", 2);
  ASSERT_EQ(::mkfifo(layer_path("kalah-6", 3).c_str(), 0644), 0);
  Expected<bool> done = build_tables({Rules::kalah(), 3, dir_.string(), {}}, {}, {});
  ASSERT_FALSE(done.ok());
  EXPECT_NE(done.error().find("not a regular file"), std::string::npos) << done.error();
}

}  // namespace
}  // namespace mancala::db::table_file_test
