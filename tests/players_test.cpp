// Computer levels and match bookkeeping.
#include <gtest/gtest.h>

#include <cmath>

#include "solver/match.h"
#include "solver/players.h"
#include "tests/builder_values.h"

namespace mancala {
namespace {

TEST(Players, EveryLevelPlaysLegalMovesToTheEnd) {
  for (const char* name : {"kalah", "oware", "congkak:5:3"}) {
    const Rules rules = *parse_rules(name);
    for (int level = kMinLevel; level <= kMaxLevel; ++level) {
      PlayerOptions options;
      options.level = level;
      options.seed = 3;
      options.nodes_per_move = 2000;
      Player south(rules, options), north(rules, options);
      Random random(level);
      const Game game = play_game(rules, south, north, random_opening(rules, random, 2));
      EXPECT_TRUE(game.is_over()) << name << " level " << level;
    }
  }
}

TEST(Players, GreedyTakesTheBiggestCapture) {
  const Rules rules = Rules::kalah(3, 2);
  // South's A (1 seed) lands in empty B and captures North's 5 seeds in b; C reaches the store.
  Game game(rules, *parse_position(rules, "1-0-1-0-5-0-0-5-S"));
  Player greedy(rules, PlayerOptions{2, 1});
  EXPECT_EQ(greedy.choose(game), 0);
}

// Inside the tables, level 6 plays a move of the best exact value, every time.
TEST(Players, ProNeverChoosesAMoveWorseThanTheBestExactValue) {
  for (const char* name : {"kalah", "oware", "oware:4:awari"}) {
    const Rules rules = *parse_rules(name);
    const BuilderValues tables(rules, 9);
    Random random(21);
    PlayerOptions options;
    options.level = 6;
    options.tables = &tables;
    options.nodes_per_move = 1000;
    Player pro(rules, options);
    int checked = 0;
    while (checked < 200) {
      Position p = start_position(rules);
      p.slots.fill(0);
      const int seeds = 1 + static_cast<int>(random.below(9));
      for (int k = 0; k < seeds; ++k)
        ++p.slots[p.house_slot(random.below(2) ? Side::South : Side::North,
                               static_cast<int>(random.below(6)))];
      // The rest of the game's seeds sit in the stores.
      p.slots[p.store_slot(Side::South)] = static_cast<uint16_t>((rules.total_seeds() - seeds) / 2);
      p.slots[p.store_slot(Side::North)] =
          static_cast<uint16_t>(rules.total_seeds() - seeds - (rules.total_seeds() - seeds) / 2);
      p.side_to_move = random.below(2) ? Side::South : Side::North;
      const Game game(rules, p);
      if (game.is_over()) continue;
      const Move chosen = pro.choose(game);
      int best = -1000;
      for (Move m : game.legal_moves())
        best = std::max(best, *exact_move_value(rules, tables, p, m));
      ASSERT_EQ(*exact_move_value(rules, tables, p, chosen), best) << name << " " << to_string(p);
      ++checked;
    }
  }
}

TEST(Match, ScoreCountsFromAsPointOfView) {
  MatchScore score;
  score.add(Winner::South, Side::South);  // A (South) wins
  score.add(Winner::South, Side::North);  // A (North) loses
  score.add(Winner::Draw, Side::North);
  score.add(Winner::North, Side::North);  // A (North) wins
  EXPECT_EQ(score.wins, 2);
  EXPECT_EQ(score.losses, 1);
  EXPECT_EQ(score.draws, 1);
  EXPECT_EQ(score.games(), 4);
  EXPECT_DOUBLE_EQ(score.points(), 2.5 / 4);
}

TEST(Match, EloIsZeroForEvenScoresAndGrowsWithPoints) {
  MatchScore even{10, 0, 10};
  EXPECT_NEAR(even.elo().difference, 0.0, 1e-9);
  EXPECT_GT(even.elo().margin, 0.0);
  MatchScore strong{75, 0, 25};  // 75%: about +191 Elo
  EXPECT_NEAR(strong.elo().difference, 190.8, 0.5);
  MatchScore weak{25, 0, 75};
  EXPECT_NEAR(weak.elo().difference, -190.8, 0.5);
  MatchScore sweep{200, 0, 0};
  EXPECT_TRUE(std::isfinite(sweep.elo().difference));
  EXPECT_GT(sweep.elo().margin, 0.0);
}

TEST(Match, OpeningsAreLegalAndReproducible) {
  const Rules rules = Rules::oware();
  Random a(9), b(9);
  const std::vector<Move> first = random_opening(rules, a, 6), second = random_opening(rules, b, 6);
  EXPECT_EQ(first, second);
  Game game(rules);
  for (Move m : first) EXPECT_TRUE(game.play(m));
}

}  // namespace
}  // namespace mancala
