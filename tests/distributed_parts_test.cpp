// The parts of the distributed build that need no MPI: how a layer is cut between ranks
// (db/layer_partition.h), checksums over data that arrives in pieces (db/checksum_stream.h), and
// the shared pieces of the file writers (db/table_blocks.h). The build itself runs under mpirun
// in mpi_build_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "db/checksum_stream.h"
#include "db/layer_partition.h"
#include "db/table_blocks.h"
#include "db/table_format.h"

// A namespace per file: the suite is compiled in unity batches.
namespace mancala::db::distributed_parts_test {
namespace {

// Every rank of every layer size, rank count and policy: the owner and local index give the
// rank back, local indices fill 0 .. local_size-1, and runs walk exactly the owned ranks.
void expect_bijection(const LayerPartition& partition, int ranks) {
  std::vector<std::vector<bool>> seen(ranks);
  for (int p = 0; p < ranks; ++p) seen[p].assign(partition.local_size(p), false);
  for (uint64_t r = 0; r < partition.size(); ++r) {
    const int owner = partition.owner(r);
    ASSERT_LT(owner, ranks);
    const uint64_t local = partition.local(r);
    ASSERT_LT(local, seen[owner].size()) << "rank " << r;
    ASSERT_FALSE(seen[owner][local]);
    seen[owner][local] = true;
    ASSERT_EQ(partition.global(owner, local), r);
  }
  for (int p = 0; p < ranks; ++p) {
    uint64_t next_local = 0;
    partition.for_each_run(p, [&](uint64_t begin, uint64_t end, uint64_t local) {
      EXPECT_EQ(local, next_local);
      for (uint64_t r = begin; r < end; ++r) EXPECT_EQ(partition.owner(r), p);
      next_local += end - begin;
    });
    EXPECT_EQ(next_local, partition.local_size(p));
  }
}

TEST(LayerPartition, RangesGiveEveryRankBackThroughOwnerAndLocalIndex) {
  for (uint64_t size : {1u, 5u, 64u, 1000u, 4097u, 100000u})
    for (int ranks : {1, 2, 3, 4, 7}) {
      SCOPED_TRACE(std::to_string(size) + " positions, " + std::to_string(ranks) + " ranks");
      expect_bijection(LayerPartition::make(size, ranks, 64, PartitionPolicy::Ranges), ranks);
    }
}

TEST(LayerPartition, InterleavedChunksGiveEveryRankBackThroughOwnerAndLocalIndex) {
  for (uint64_t size : {1u, 16384u, 16385u, 300000u, 5000000u})
    for (int ranks : {1, 2, 3, 4}) {
      SCOPED_TRACE(std::to_string(size) + " positions, " + std::to_string(ranks) + " ranks");
      expect_bijection(LayerPartition::make(size, ranks, 1024, PartitionPolicy::Interleaved),
                       ranks);
    }
}

TEST(LayerPartition, RangesAreOneRunPerRankInRankOrder) {
  const LayerPartition partition = LayerPartition::make(10000, 3, 1024, PartitionPolicy::Ranges);
  // 10000 / 3 rounded up to whole blocks of 1024: 4096, 4096, then the rest.
  EXPECT_EQ(partition.chunk(), 4096u);
  EXPECT_EQ(partition.local_size(0), 4096u);
  EXPECT_EQ(partition.local_size(1), 4096u);
  EXPECT_EQ(partition.local_size(2), 10000u - 8192u);
  EXPECT_EQ(partition.owner(4095), 0);
  EXPECT_EQ(partition.owner(4096), 1);
  EXPECT_EQ(partition.owner(9999), 2);
}

TEST(LayerPartition, EveryFileBlockBelongsToOneRank) {
  for (PartitionPolicy policy : {PartitionPolicy::Ranges, PartitionPolicy::Interleaved}) {
    const uint64_t block = 1000;  // not a power of two, and not a divisor of the chunk
    const LayerPartition partition = LayerPartition::make(777777, 3, block, policy);
    EXPECT_EQ(partition.chunk() % block, 0u);
    for (uint64_t b = 0; b * block < partition.size(); ++b) {
      const uint64_t last = std::min(partition.size(), (b + 1) * block) - 1;
      ASSERT_EQ(partition.owner(b * block), partition.owner(last)) << "block " << b;
    }
  }
}

TEST(LayerPartition, MoreRanksThanBlocksLeavesSomeRanksEmpty) {
  const LayerPartition partition = LayerPartition::make(100, 4, 1024, PartitionPolicy::Ranges);
  EXPECT_EQ(partition.local_size(0), 100u);
  for (int p = 1; p < 4; ++p) EXPECT_EQ(partition.local_size(p), 0u);
}

TEST(Checksum64Stream, EqualsChecksum64HoweverTheDataIsCut) {
  std::mt19937_64 random(7);
  for (size_t size : {0u, 1u, 7u, 8u, 9u, 63u, 64u, 1001u}) {
    std::vector<uint8_t> data(size);
    for (auto& byte : data) byte = static_cast<uint8_t>(random());
    const uint64_t expected = checksum64(data.data(), data.size());
    for (size_t cut = 0; cut <= size; ++cut)
      for (size_t second = cut; second <= size; second += 3) {
        Checksum64Stream stream(size);
        stream.update(data.data(), cut);
        stream.update(data.data() + cut, second - cut);
        stream.update(data.data() + second, size - second);
        ASSERT_EQ(stream.finish(), expected) << size << " bytes cut at " << cut << ", " << second;
      }
  }
}

TEST(Checksum64Stream, ChangesWithOneFlippedBit) {
  std::vector<uint8_t> data(100, 0x5A);
  Checksum64Stream a(data.size());
  a.update(data.data(), data.size());
  data[57] ^= 4;
  Checksum64Stream b(data.size());
  b.update(data.data(), data.size());
  EXPECT_NE(a.finish(), b.finish());
}

TEST(TableBlocks, DictionarySamplesASpreadOfBlocksOnlyWhenThereAreEnough) {
  WriteOptions options;
  EXPECT_TRUE(dictionary_sample_blocks(31, options).empty());
  const std::vector<uint64_t> some = dictionary_sample_blocks(32, options);
  EXPECT_EQ(some.size(), 32u);
  const std::vector<uint64_t> many = dictionary_sample_blocks(10000, options);
  ASSERT_EQ(many.size(), 4000u);
  EXPECT_EQ(many.front(), 0u);
  EXPECT_TRUE(std::is_sorted(many.begin(), many.end()));
  EXPECT_LT(many.back(), 10000u);
  options.dictionary_size = 0;
  EXPECT_TRUE(dictionary_sample_blocks(10000, options).empty());
}

TEST(TableBlocks, HeaderLaysTheSectionsOutOneAfterAnother) {
  LayerSections sections;
  sections.block_size = 1024;
  sections.block_count = 3;
  sections.dictionary_size = 100;
  sections.data_size = 500;
  const TableHeader header = layer_header("oware:abapa", 6, 5, 3000, sections);
  EXPECT_EQ(header.index_offset, kHeaderSize);
  EXPECT_EQ(header.dictionary_offset, kHeaderSize + 4 * 8u);
  EXPECT_EQ(header.data_offset, header.dictionary_offset + 100);
  EXPECT_EQ(header.file_size, header.data_offset + 500);
  EXPECT_EQ(header.header_checksum, header_checksum(header));
}

}  // namespace
}  // namespace mancala::db::distributed_parts_test
