// Perft from the start position of every preset. The table of solver/rules/README.md is the
// contract; the other rows are regression signatures recorded from this engine (any change to them
// is a rule change and must be deliberate).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "solver/rules/perft.h"

// A namespace per file: the suite is compiled in unity batches.
namespace mancala::perft_test {
namespace {

struct PerftCase {
  const char* game;
  std::vector<uint64_t> leaves;  // depth 1, 2, ...
};

void expect_perft(const PerftCase& c) {
  Expected<Rules> rules = parse_rules(c.game);
  ASSERT_TRUE(rules.ok()) << rules.error();
  const Position start = start_position(*rules);
  uint64_t applied = 0;
  for (size_t d = 0; d < c.leaves.size(); ++d) {
    const PerftCount count = perft(*rules, start, static_cast<int>(d + 1));
    EXPECT_EQ(count.leaves, c.leaves[d]) << c.game << " depth " << d + 1;
    applied += count.leaves;
    EXPECT_EQ(count.moves_applied, applied) << c.game << " depth " << d + 1;
  }
}

TEST(Perft, DepthZeroIsOne) {
  const Rules rules = Rules::kalah();
  EXPECT_EQ(perft(rules, start_position(rules), 0).leaves, 1u);
}

TEST(Perft, KalahSixFourMatchesRuleBook) {
  expect_perft({"kalah", {6, 35, 185, 942, 4690, 23233, 114430}});
}

TEST(Perft, OwareFourSeedsMatchesRuleBook) {
  expect_perft({"oware", {6, 36, 190, 1014, 5219, 27332}});
}

TEST(Perft, KalahPresets) {
  expect_perft({"kalah", {6, 35, 185, 942, 4690, 23233, 114430, 563055}});
  expect_perft({"kalah:6:4:empty-capture", {6, 35, 185, 942, 4685, 23169, 113959}});
  expect_perft({"kalah:4:3", {4, 15, 50, 158, 488, 1510, 4637}});
  expect_perft({"kalah:6:6", {6, 35, 190, 1056, 5882, 32243, 177827}});
  expect_perft({"kalah:12:12", {12, 143, 1639, 18921}});
}

TEST(Perft, OwarePresets) {
  expect_perft({"oware", {6, 36, 190, 1014, 5219, 27332, 139157, 711414}});
  expect_perft({"oware:6", {6, 36, 206, 1166, 6563, 36386, 202627}});
  expect_perft({"oware:3", {6, 36, 186, 971, 4756, 23555, 112420}});
  expect_perft({"oware:2", {6, 33, 155, 672, 2792, 11357, 46241, 187879, 760341}});
  expect_perft({"oware:1", {6, 35, 171, 804, 3229, 12571, 44453, 154680, 511507}});
}

TEST(Perft, OwareRuleSetsDifferOnlyWhereGrandSlamsAndFeedingArise) {
  expect_perft(
      {"oware:2:grand-slam-captures", {6, 33, 155, 672, 2792, 11357, 46217, 187659, 759200}});
  expect_perft({"oware:2:awari", {6, 33, 155, 672, 2792, 11349, 46178, 187567, 758798}});
  expect_perft(
      {"oware:1:grand-slam-captures", {6, 35, 171, 804, 3229, 12571, 44453, 154671, 511400}});
  expect_perft({"oware:1:awari", {6, 35, 171, 804, 3229, 12571, 44450, 154657, 511380}});
}

TEST(Perft, CongkakPresets) {
  expect_perft({"congkak", {7, 36, 230, 1406, 8293, 48263}});
  expect_perft({"congkak:7:7:no-capture-first-lap", {7, 36, 230, 1408, 8329, 48814}});
  expect_perft({"congkak:9:10", {9, 75, 611, 4860, 38323}});
  expect_perft({"congkak:3:1", {3, 3, 3, 3, 2, 0, 0}});  // every line ends by the sixth ply
}

}  // namespace
}  // namespace mancala::perft_test
