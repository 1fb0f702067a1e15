// The tables' index: exhaustive bijection checks for small layers.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "solver/tables/table_index.h"

// A namespace per file: the suite is compiled in unity batches.
namespace mancala::table_index_test {
namespace {

void check_layer(int slots, int seeds) {
  const TableIndex index(slots, seeds);
  const uint64_t size = index.layer_size(seeds);
  std::set<std::string> seen;  // keys as byte strings
  TableKey walked;
  for (uint64_t r = 0; r < size; ++r) {
    TableKey key;
    index.unrank(r, seeds, key.counts.data());
    int sum = 0;
    for (int i = 0; i < slots; ++i) sum += key.counts[i];
    ASSERT_EQ(sum, seeds) << "rank " << r;
    ASSERT_EQ(index.rank(key.counts.data()), r);
    if (r == 0)
      walked = key;
    else
      next_key(walked.counts.data(), slots);
    ASSERT_EQ(walked.counts, key.counts) << "next_key disagrees with unrank at rank " << r;
    ASSERT_TRUE(seen.insert(std::string(key.counts.begin(), key.counts.begin() + slots)).second);
  }
  ASSERT_EQ(seen.size(), size);
}

TEST(TableIndex, LayerSizesAreBinomials) {
  const TableIndex index(12, 24);
  EXPECT_EQ(index.layer_size(0), 1u);
  EXPECT_EQ(index.layer_size(1), 12u);
  EXPECT_EQ(index.layer_size(16), 13037895u);   // C(27, 11)
  EXPECT_EQ(index.layer_size(24), 417225900u);  // C(35, 11)
  uint64_t total = 0;
  for (int s = 0; s <= 24; ++s) total += index.layer_size(s);
  EXPECT_EQ(total, 1251677700u);  // C(36, 12): every position with up to 24 seeds
}

TEST(TableIndex, RankAndUnrankAreInverseForTwelveHouses) {
  for (int s = 0; s <= 6; ++s) check_layer(12, s);
}

TEST(TableIndex, RankAndUnrankAreInverseForSmallBoards) {
  for (int slots : {2, 4, 6, 8, 10})
    for (int s = 0; s <= 9; ++s) check_layer(slots, s);
}

TEST(TableIndex, KeyIsSeenFromTheSideToMove) {
  Position p;
  p.houses = 2;
  p.slots = {1, 2, 0, 3, 4, 0};  // South 1 2, North 3 4
  p.side_to_move = Side::North;
  const TableKey key = table_key(p);
  // North's houses (the mover's) last, each row from its last house to its first.
  EXPECT_EQ(key.counts[0], 2);
  EXPECT_EQ(key.counts[1], 1);
  EXPECT_EQ(key.counts[2], 4);
  EXPECT_EQ(key.counts[3], 3);
  const Position back = position_from_key(key.counts.data(), 2);
  EXPECT_EQ(back.side_to_move, Side::South);
  EXPECT_EQ(back.house(Side::South, 0), 3);
  EXPECT_EQ(back.house(Side::North, 1), 2);
}

}  // namespace
}  // namespace mancala::table_index_test
