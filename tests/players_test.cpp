// Computer levels and match bookkeeping.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>

#include "solver/search/match.h"
#include "solver/search/players.h"
#include "solver/tables/built_tables.h"
#include "tests/test_positions.h"

// A namespace per file: the suite is compiled in unity batches.
namespace mancala::players_test {
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

TEST(Players, LevelFourSearchesFourPliesInCongkakAndEightElsewhere) {
  for (const char* name : {"kalah", "oware", "congkak"}) {
    const Rules rules = *parse_rules(name);
    const int plies = rules.kind == GameKind::Congkak ? 4 : 8;
    EXPECT_EQ(fixed_depth(4, rules), plies) << name;
    EXPECT_EQ(level_name(4, rules), "level 4 (search, " + std::to_string(plies) + " plies)");
    Player player(rules, PlayerOptions{4, 1});
    Thinking thinking;
    player.choose(Game(rules), &thinking);
    EXPECT_EQ(thinking.depth, plies) << name;
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
    const BuiltTables tables(rules, 9);
    Random random(21);
    PlayerOptions options;
    options.level = 6;
    options.endgame = &tables;
    options.nodes_per_move = 1000;
    Player pro(rules, options);
    int checked = 0;
    while (checked < 200) {
      const int seeds = 1 + static_cast<int>(random.below(9));
      Position p = scattered_position(rules, random, seeds);
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

// Outside the tables, a move Pro reports as exact (its search or its whole-game solver proved it)
// has the best exhaustive value.
TEST(Players, ProsProvenMovesAreBest) {
  for (const char* name : {"kalah:3:3", "kalah:4:2:empty-capture", "congkak:4:3"}) {
    const Rules rules = *parse_rules(name);
    PlayerOptions options;
    options.level = 6;
    // Pro's search gets 800 nodes and proves some moves; its solver gets 400 nodes more (a
    // solve stops at its limit between MTD(f) tests) and proves most of the rest.
    options.nodes_per_move = 200;
    Player pro(rules, options);
    std::map<std::string, int> memo;
    Random random(5);
    int exact = 0;
    for (int i = 0; i < 60; ++i) {
      const Position p = random_position(rules, random, static_cast<int>(random.below(6)));
      const Game game(rules, p);
      if (game.is_over()) continue;
      Thinking thinking;
      const Move chosen = pro.choose(game, &thinking);
      if (!thinking.exact) continue;
      ++exact;
      int best = -1000;
      for (Move m : game.legal_moves()) {
        const Position c = apply_move(rules, p, m);
        const int v = exhaustive_value(rules, c, memo);
        best = std::max(best, c.side_to_move == p.side_to_move ? v : -v);
      }
      const Position c = apply_move(rules, p, chosen);
      const int v = exhaustive_value(rules, c, memo);
      EXPECT_EQ(c.side_to_move == p.side_to_move ? v : -v, best) << name << " " << to_string(p);
      EXPECT_EQ(thinking.score, best) << name << " " << to_string(p);
    }
    // Nearly every move is proven: the search alone proves 44-48 of these 60 and the solver 11-15
    // more (measured: 58-60 in all), so the solver is what proves the rest.
    EXPECT_GE(exact, 55) << name;
  }
}

// A caller's depth (an engine GUI's `go depth`) never lets levels 3 and 4 search past their own.
TEST(Players, CallersDepthCapsTheFixedDepthLevelsButNeverRaisesThem) {
  const Rules rules = Rules::kalah();
  for (int asked : {1, 3, 20}) {
    Player player(rules, PlayerOptions{4, 1});
    Thinking thinking;
    player.choose(Game(rules), MoveLimits{asked, 0, 0, true}, &thinking);
    EXPECT_EQ(thinking.depth, std::min(asked, fixed_depth(4, rules))) << asked;
  }
}

TEST(Players, EachCompletedDepthIsReportedInOrder) {
  const Rules rules = Rules::oware();
  PlayerOptions options;
  options.level = 5;
  Player player(rules, options);
  std::vector<int> depths;
  Thinking thinking;
  player.choose(Game(rules), MoveLimits{6, 0, 0, true}, &thinking,
                [&](const SearchResult& r) { depths.push_back(r.depth); });
  EXPECT_EQ(depths, (std::vector<int>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(thinking.depth, 6);
}

// A move without any limit (an engine's `go infinite`) ends when another thread says stop, and
// the move is a legal one.
TEST(Players, StopFromAnotherThreadEndsAMoveWithoutLimits) {
  const Rules rules = Rules::kalah(6, 6);
  for (int level : {5, 6}) {
    PlayerOptions options;
    options.level = level;
    Player player(rules, options);
    const Game game(rules);
    std::atomic<bool> chosen{false};
    std::thread stopper([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      // A choose that is just starting forgets an earlier stop: asked until it returns.
      while (!chosen) {
        player.stop();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
    Thinking thinking;
    const Move move = player.choose(game, MoveLimits{}, &thinking);
    chosen = true;
    stopper.join();
    EXPECT_TRUE(game.legal_moves().contains(move)) << level;
    EXPECT_FALSE(thinking.from_solver) << level;  // no budget: no solver phase
  }
}

// Pro's solver takes its share of a caller's budget too, and says when it proved the value.
TEST(Players, ProsSolverProvesWithinACallersNodeBudget) {
  const Rules rules = Rules::kalah(4, 3);
  PlayerOptions options;
  options.level = 6;
  Player pro(rules, options);
  // 100 000 nodes: the search's two thirds do not prove the start (it needs about 117 000), the
  // solver's third does.
  Thinking thinking;
  pro.choose(Game(rules), MoveLimits{0, 0, 100000, true}, &thinking);
  EXPECT_TRUE(thinking.exact);
  EXPECT_TRUE(thinking.from_solver);
  EXPECT_EQ(thinking.score, 6);  // Kalah(4,3) is a first-player win by 6
  // Without the solver's share (a GUI that limits the depth), the search alone answers.
  Player searcher(rules, options);
  Thinking searched;
  searcher.choose(Game(rules), MoveLimits{2, 0, 100000, false}, &searched);
  EXPECT_FALSE(searched.from_solver);
  EXPECT_EQ(searched.depth, 2);
}

TEST(Players, ANodeBudgetReplacesTheLevelsTimeAndMaxSecondsStillCapsIt) {
  const Rules rules = Rules::kalah(6, 4);
  for (const int level : {5, 6}) {
    PlayerOptions options;
    options.level = level;
    options.nodes_per_move = 1000;
    const int parts = level == 6 ? 6 : 1;  // Pro's whole budget is six of level 5's
    const MoveLimits uncapped = Player(rules, options).level_limits();
    EXPECT_EQ(uncapped.nodes, 1000u * parts);
    EXPECT_EQ(uncapped.seconds, 0);
    options.max_seconds = 2.5;
    const MoveLimits capped = Player(rules, options).level_limits();
    EXPECT_EQ(capped.nodes, 1000u * parts);
    EXPECT_EQ(capped.seconds, 2.5);
    // Without a node budget the level thinks by time, as it always has.
    options.nodes_per_move = 0;
    const MoveLimits timed = Player(rules, options).level_limits();
    EXPECT_EQ(timed.nodes, 0u);
    EXPECT_EQ(timed.seconds, options.seconds_per_move * parts);
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
  EXPECT_FALSE(std::signbit(even.elo().difference));  // printed "+0", not "-0"
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

OpeningOptions balanced(int turns, int balance) {
  OpeningOptions options;
  options.turns = turns;
  options.balance = balance;
  return options;
}

TEST(Match, BalancedOpeningsAreReproducible) {
  const Rules rules = Rules::kalah();
  const std::vector<Opening> first = match_openings(rules, 5, 8, balanced(4, 2)),
                             second = match_openings(rules, 5, 8, balanced(4, 2));
  ASSERT_EQ(first.size(), 8u);
  for (size_t k = 0; k < first.size(); ++k) {
    EXPECT_EQ(first[k].moves, second[k].moves) << k;
    EXPECT_EQ(first[k].evaluation, second[k].evaluation) << k;
  }
}

TEST(Match, BalancedOpeningsDoNotDependOnTheNumberOfThreads) {
  const Rules rules = Rules::congkak(5, 3);
  const std::vector<Opening> one = match_openings(rules, 3, 12, balanced(4, 1), 1);
  const std::vector<Opening> three = match_openings(rules, 3, 12, balanced(4, 1), 3);
  for (size_t k = 0; k < one.size(); ++k) EXPECT_EQ(one[k].moves, three[k].moves) << k;
}

// Every game has openings within 2 seeds of even among its first 100 random ones.
TEST(Match, BalancedOpeningsScoreWithinTheThreshold) {
  for (const char* name : {"kalah", "oware", "congkak"}) {
    const Rules rules = *parse_rules(name);
    for (const Opening& opening : match_openings(rules, 1, 6, balanced(6, 2))) {
      ASSERT_TRUE(opening.evaluation.has_value()) << name;
      EXPECT_LE(std::abs(*opening.evaluation), 2) << name;
      EXPECT_EQ(*opening.evaluation, opening_evaluation(rules, opening.moves)) << name;
      Game game(rules);
      for (Move m : opening.moves) EXPECT_TRUE(game.play(m)) << name;
      EXPECT_FALSE(game.is_over()) << name;
    }
  }
}

TEST(Match, UnreachableBalanceKeepsTheMostBalancedOpeningTried) {
  const Rules rules = Rules::congkak();
  OpeningOptions options = balanced(2, 0);
  options.attempts = 5;
  Random random(17), replay(17);
  const Opening kept = balanced_opening(rules, random, options);
  // The same stream again: the tries, of which the first closest to even is the one kept.
  std::vector<Move> closest;
  int least = 1000;
  for (int attempt = 0; attempt < options.attempts; ++attempt) {
    const std::vector<Move> moves = random_opening(rules, replay, options.turns);
    const int distance = std::abs(opening_evaluation(rules, moves));
    // Congkak's first mover is far ahead after two random turns: no try is even.
    ASSERT_GT(distance, 0);
    if (distance < least) {
      least = distance;
      closest = moves;
    }
  }
  EXPECT_EQ(kept.moves, closest);
  EXPECT_EQ(std::abs(*kept.evaluation), least);
}

TEST(Match, WithoutBalanceTheOpeningsAreTheRandomOnes) {
  const Rules rules = Rules::kalah();
  const uint64_t seed = 7;
  const std::vector<Opening> openings = match_openings(rules, seed, 10, balanced(2, -1));
  for (size_t k = 0; k < openings.size(); ++k) {
    Random random(seed * 0x9E3779B97F4A7C15ull + k);
    EXPECT_EQ(openings[k].moves, random_opening(rules, random, 2)) << k;
    EXPECT_FALSE(openings[k].evaluation.has_value()) << k;
  }
}

}  // namespace
}  // namespace mancala::players_test
