// Oware values from the tables are true of the game being played (issue 41): the tables play on
// past a majority where the game stops, so every answer ranks moves on one scale, the tables'
// count, whose sign is the exact result; a move that ends the game carries its real end; and Pro
// plays a move the analysis puts first (solver/rules/README.md, "Oware values from the tables").
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "db/table_set.h"
#include "db/table_values.h"
#include "solver/rules/game.h"
#include "solver/rules/moves.h"
#include "solver/search/players.h"
#include "solver/tables/exact_values.h"
#include "tests/table_directory_test.h"
#include "tests/test_positions.h"
#include "tools/service/analysis.h"

// A namespace per file: the suite is compiled in unity batches.
namespace mancala::oware_values_test {
namespace {

// South to move, 8 seeds on the board, 23-17: F captures 3 and ends the game by the majority,
// 26-17 (+9), where the tables, playing on to the empty board, count +14; B keeps the game going,
// +10 by the tables' count. Pro used to weigh F's real end against B's count and play B.
constexpr const char* kMajorityEnd = "1-2-0-0-0-1-2-0-0-0-0-2-23-17-S";

int sign(int x) {
  return (x > 0) - (x < 0);
}

// What the analysis says of `move`: its real end when it ends the game, else its score.
int told(const service::Analysis& a, Move move) {
  for (const service::MoveAnalysis& m : a.moves)
    if (m.move == move) return m.ends_game ? m.final_score : m.score;
  ADD_FAILURE() << "no such move";
  return 0;
}

class OwareValues : public db::testing_tables::TableDirectoryTest {
 protected:
  OwareValues() : TableDirectoryTest("oware_values") {}

  void SetUp() override {
    TableDirectoryTest::SetUp();
    build("oware", 8);
    set_ = *db::TableSet::open(dir_.string(), rules_);
    tables_ = std::make_unique<db::TableValues>(set_);
  }

  service::Analysis analysis_of(const Position& p) const {
    return service::analyse(rules_, p, {}, tables_.get());
  }

  Player pro(uint64_t seed) const {
    PlayerOptions options;
    options.level = 6;
    options.seed = seed;
    options.endgame = tables_.get();
    options.nodes_per_move = 1000;
    options.transposition_megabytes = 1;  // inside the tables it never searches
    return Player(rules_, options);
  }

  // Oware positions of 2 to 8 seeds on the board whose stores are near a majority.
  std::vector<Position> positions_near_a_majority(int count) const {
    Random random(41);
    std::vector<Position> out;
    while (static_cast<int>(out.size()) < count) {
      const int seeds = 2 + static_cast<int>(random.below(7));
      Position p = scattered_position(rules_, random, seeds);
      const int stores = 48 - seeds;
      const int south = 16 + static_cast<int>(random.below(9));
      if (south > 24 || stores - south > 24) continue;
      p.slots[p.store_slot(Side::South)] = static_cast<uint16_t>(south);
      p.slots[p.store_slot(Side::North)] = static_cast<uint16_t>(stores - south);
      if (random.below(2)) p.side_to_move = Side::North;
      if (is_game_over(rules_, p)) continue;
      out.push_back(p);
    }
    return out;
  }

  Rules rules_ = *parse_rules("oware");
  std::shared_ptr<const db::TableSet> set_;
  std::unique_ptr<db::TableValues> tables_;
};

TEST_F(OwareValues, AMoveThatReachesAMajorityIsRankedByTheTablesCountAndCarriesItsRealEnd) {
  const Position p = *parse_position(rules_, kMajorityEnd);
  const service::Analysis a = analysis_of(p);
  ASSERT_TRUE(a.from_tables);
  EXPECT_EQ(a.margin, service::Margin::TablesCount);
  ASSERT_EQ(a.moves.size(), 3u);
  const service::MoveAnalysis& best = a.best();
  EXPECT_EQ(move_letter(Side::South, best.move), 'F');
  EXPECT_EQ(best.score, 14);  // the tables' count
  EXPECT_TRUE(best.ends_game);
  const Position after = apply_move(rules_, p, best.move);
  EXPECT_EQ(best.final_score, final_outcome(rules_, after).lead(Side::South));
  EXPECT_EQ(best.final_score, 9);  // 26-17, the game's own end
  for (const service::MoveAnalysis& m : a.moves) {
    if (m.move == best.move) continue;
    EXPECT_FALSE(m.ends_game);
  }
}

TEST_F(OwareValues, ProPlaysAMoveTheAnalysisPutsFirstAndScoresItAlike) {
  const Position p = *parse_position(rules_, kMajorityEnd);
  const service::Analysis a = analysis_of(p);
  const std::vector<Move> first = a.best_moves();
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    Player player = pro(seed);
    Thinking thinking;
    const Move move = player.choose(Game(rules_, p), &thinking);
    EXPECT_NE(std::find(first.begin(), first.end(), move), first.end())
        << "Pro played " << move_letter(Side::South, move);
    // The engine protocol's score: the analysis's value of the move, told as the board tells it.
    EXPECT_EQ(thinking.score, told(a, move));
  }
}

TEST_F(OwareValues, EverywhereNearAMajorityProAndTheAnalysisRankAlikeAndEndsKeepTheResult) {
  int ends = 0, majority_ends = 0;
  for (const Position& p : positions_near_a_majority(600)) {
    const service::Analysis a = analysis_of(p);
    ASSERT_TRUE(a.from_tables) << to_string(p);
    for (size_t i = 1; i < a.moves.size(); ++i)
      EXPECT_GE(a.moves[i - 1].score, a.moves[i].score) << to_string(p);
    for (const service::MoveAnalysis& m : a.moves) {
      const Position after = apply_move(rules_, p, m.move);
      EXPECT_EQ(m.ends_game, is_game_over(rules_, after)) << to_string(p);
      if (!m.ends_game) continue;
      ++ends;
      if (after.seeds_on_board() > 0) ++majority_ends;
      // The count may differ from the real end, the result never does.
      EXPECT_EQ(m.final_score, final_outcome(rules_, after).lead(p.side_to_move));
      EXPECT_EQ(sign(m.score), sign(m.final_score)) << to_string(p);
    }
    Player player = pro(7);
    Thinking thinking;
    const Move move = player.choose(Game(rules_, p), &thinking);
    const std::vector<Move> first = a.best_moves();
    EXPECT_NE(std::find(first.begin(), first.end(), move), first.end()) << to_string(p);
    EXPECT_EQ(thinking.score, told(a, move)) << to_string(p);
  }
  EXPECT_GE(majority_ends, 20);  // the case the test is about comes up
  EXPECT_GE(ends, majority_ends);
}

}  // namespace
}  // namespace mancala::oware_values_test
