// Pro inside the Oware tables realises their value: it never goes round a cycle of value-keeping
// moves until a repetition shares the seeds (solver/search/table_conversion.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <functional>
#include <string>
#include <vector>

#include "solver/search/players.h"
#include "solver/search/table_conversion.h"
#include "solver/tables/built_tables.h"
#include "tests/test_positions.h"

// A namespace per file: the suite is compiled in unity batches.
namespace mancala::table_conversion_test {
namespace {

// The position of the lost games (issue 39): the tables give South +4, a 24-24 draw.
constexpr const char* kCyclingDraw = "1-0-0-1-0-0-1-0-0-0-0-1-20-24-S";

int occurrences(const Game& game, const Position& p) {
  return static_cast<int>(std::count(game.positions().begin(), game.positions().end(), p));
}

// What the tables promise the side to move: its final lead with perfect play.
int promised_lead(const Game& game, const ExactValues& tables) {
  return game.position().mover_lead() + probe_root(game.rules(), tables, game.position()).value;
}

// The replies a defender who would rather share the seeds than lose them may make: every move
// that keeps its value, and every move that ends the game by repetition when sharing is worth at
// least as much to it.
std::vector<Move> defending_replies(const Game& game, const ExactValues& tables) {
  const RootProbe probe = probe_root(game.rules(), tables, game.position());
  std::vector<Move> replies;
  for (int i = 0; i < probe.count; ++i) {
    const Move m = probe.moves[static_cast<size_t>(i)];
    Game after = game;
    after.play(m);
    if (probe.is_best(i) || (after.ended_by_repetition() && probe.value <= 0)) replies.push_back(m);
  }
  return replies;
}

// A defender that delays: a repetition when one is there, else the value-keeping reply into the
// position seen most often so far (to make the next repetition likely), ties at random.
Move delaying_reply(const Game& game, const ExactValues& tables, Random& random) {
  std::vector<Move> best;
  int most_seen = -1;
  for (Move m : defending_replies(game, tables)) {
    Game after = game;
    after.play(m);
    if (after.ended_by_repetition()) return m;
    const int seen = occurrences(game, after.position());
    if (seen > most_seen) {
      most_seen = seen;
      best.clear();
    }
    if (seen == most_seen) best.push_back(m);
  }
  return best[random.below(static_cast<uint32_t>(best.size()))];
}

// Pro's old way inside the tables: any move of the best value.
Move any_best_move(const Game& game, const ExactValues& tables, Random& random) {
  const RootProbe probe = probe_root(game.rules(), tables, game.position());
  std::vector<Move> best;
  for (int i = 0; i < probe.count; ++i)
    if (probe.is_best(i)) best.push_back(probe.moves[static_cast<size_t>(i)]);
  return best[random.below(static_cast<uint32_t>(best.size()))];
}

// Did the ended `game` give `side` what the tables promised (a final lead of `promised`)? The
// majority rule (Oware 6) ends a game with the seeds left counting for nobody, where the tables
// play on (solver/rules/README.md, "Choices"): such an end promises only the result, not the
// margin. A repetition promises nothing: it is what Pro must not let happen.
bool realises(const Game& game, Side side, int promised) {
  const int lead = game.outcome().lead(side);
  if (lead >= promised) return true;
  const auto sign = [](int x) { return (x > 0) - (x < 0); };
  const bool majority_end = !game.ended_by_repetition() && game.position().seeds_on_board() > 0;
  return majority_end && sign(lead) >= sign(promised);
}

using Chooser = std::function<Move(const Game&)>;

// Plays to the end (the repetition rule included): did `side` get `promised`?
bool plays_to(Game game, Side side, int promised, const Chooser& south, const Chooser& north) {
  for (int ply = 0; !game.is_over(); ++ply) {
    EXPECT_LT(ply, 2000) << "a game that does not end";
    if (ply >= 2000) return false;
    const Move m = game.position().side_to_move == Side::South ? south(game) : north(game);
    EXPECT_TRUE(game.play(m));
  }
  return realises(game, side, promised);
}

Player pro_player(const Rules& rules, const ExactValues& tables, uint64_t seed) {
  PlayerOptions options;
  options.level = 6;
  options.seed = seed;
  options.endgame = &tables;
  options.nodes_per_move = 1000;
  options.transposition_megabytes = 1;  // inside the tables it never searches
  return Player(rules, options);
}

// Every line from `game`: `pro` plays each move converting_moves offers (Pro picks one of them at
// random), the other side each defending reply. Do they all give `pro` `promised`? Counts the
// games in `games`, and gives up (true) past `max_games`.
bool every_line_realises(Game& game, Side pro, int promised, const ExactValues& tables, int& games,
                         int max_games) {
  if (game.is_over()) {
    ++games;
    return realises(game, pro, promised);
  }
  if (games > max_games) return true;
  const std::vector<Move> moves = game.position().side_to_move == pro
                                      ? converting_moves(game, tables)->moves
                                      : defending_replies(game, tables);
  for (Move m : moves) {
    game.play(m);
    const bool realised = every_line_realises(game, pro, promised, tables, games, max_games);
    game.undo();
    if (!realised) return false;
  }
  return true;
}

class OwareConversion : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { tables_ = new BuiltTables(*parse_rules("oware"), 8); }
  static void TearDownTestSuite() {
    delete tables_;
    tables_ = nullptr;
  }
  static const BuiltTables* tables_;
  const Rules rules_ = *parse_rules("oware");
};
const BuiltTables* OwareConversion::tables_ = nullptr;

TEST_F(OwareConversion, AnyBestMoveCanLoseTheDrawTheTablesPromise) {
  // The failure being fixed, shown: the old choice, against a delaying defender, shares the seeds.
  const Game start(rules_, *parse_position(rules_, kCyclingDraw));
  ASSERT_EQ(promised_lead(start, *tables_), 0);
  Random random(1);
  int lost = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const Chooser old = [&](const Game& g) { return any_best_move(g, *tables_, random); };
    const Chooser defender = [&](const Game& g) { return delaying_reply(g, *tables_, random); };
    lost += !plays_to(start, Side::South, 0, old, defender);
  }
  EXPECT_GT(lost, 0);
}

TEST_F(OwareConversion, ProDrawsTheCyclingPositionAgainstEveryDefence) {
  Game game(rules_, *parse_position(rules_, kCyclingDraw));
  int games = 0;
  EXPECT_TRUE(every_line_realises(game, Side::South, 0, *tables_, games, 100000));
  EXPECT_GT(games, 0);
  EXPECT_LE(games, 100000) << "too many lines to try them all";
  const std::optional<TableConversion> first = converting_moves(game, *tables_);
  ASSERT_TRUE(first);
  EXPECT_TRUE(first->proven);
  EXPECT_EQ(first->value, 4);
}

TEST_F(OwareConversion, ProAsPlayedDrawsTheCyclingPositionAgainstADelayingDefender) {
  const Game start(rules_, *parse_position(rules_, kCyclingDraw));
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Player pro = pro_player(rules_, *tables_, seed);
    Random random(seed);
    const Chooser south = [&](const Game& g) { return pro.choose(g); };
    const Chooser north = [&](const Game& g) { return delaying_reply(g, *tables_, random); };
    EXPECT_TRUE(plays_to(start, Side::South, 0, south, north)) << "seed " << seed;
  }
}

// Positions of 2 to 8 seeds where the old choice lost what the tables promised; Pro keeps it
// against every defence (or, where the lines are too many to try, against delaying defenders).
TEST_F(OwareConversion, ProRealisesTheValueWhereAnyBestMoveCycles) {
  Random random(39);
  int found = 0, exhaustive = 0;
  for (int tries = 0; tries < 20000 && found < 8; ++tries) {
    const int seeds = 2 + static_cast<int>(random.below(7));
    Position p = scattered_position(rules_, random, seeds);
    const int stores = rules_.total_seeds() - seeds;
    p.slots[p.store_slot(Side::South)] = static_cast<uint16_t>(stores / 2);
    p.slots[p.store_slot(Side::North)] = static_cast<uint16_t>(stores - stores / 2);
    p.side_to_move = random.below(2) ? Side::South : Side::North;
    const Game start(rules_, p);
    if (start.is_over() || probe_root(rules_, *tables_, p).value <= 0) continue;
    const Side mover = p.side_to_move;
    const int promised = promised_lead(start, *tables_);
    bool cycles = false;
    for (int trial = 0; trial < 4 && !cycles; ++trial) {
      const Chooser old = [&](const Game& g) { return any_best_move(g, *tables_, random); };
      const Chooser defender = [&](const Game& g) { return delaying_reply(g, *tables_, random); };
      cycles = !plays_to(start, mover, promised, mover == Side::South ? old : defender,
                         mover == Side::South ? defender : old);
    }
    if (!cycles) continue;
    ++found;
    const std::string name = to_string(p);
    Game game = start;
    int games = 0;
    EXPECT_TRUE(every_line_realises(game, mover, promised, *tables_, games, 600)) << name;
    exhaustive += games <= 600;
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      Player pro = pro_player(rules_, *tables_, seed);
      Random defence(seed);
      const Chooser pro_side = [&](const Game& g) { return pro.choose(g); };
      const Chooser defender = [&](const Game& g) { return delaying_reply(g, *tables_, defence); };
      EXPECT_TRUE(plays_to(start, mover, promised, mover == Side::South ? pro_side : defender,
                           mover == Side::South ? defender : pro_side))
          << name << " seed " << seed;
    }
  }
  EXPECT_GE(found, 5);
  EXPECT_GE(exhaustive, 3);
}

// With a history already behind it (positions seen twice, one more would share the seeds), what
// Pro says it can force it does force.
TEST_F(OwareConversion, ProRealisesWhatItProvesAfterAHistoryOfCycling) {
  const Game start(rules_, *parse_position(rules_, kCyclingDraw));
  int proven = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Random random(seed);
    Game game = start;
    // Both sides go round with value-keeping moves, the defender seeking repetitions.
    const int plies = 2 * static_cast<int>(random.below(8));
    for (int ply = 0; ply < plies && !game.is_over(); ++ply)
      game.play(game.position().side_to_move == Side::South
                    ? any_best_move(game, *tables_, random)
                    : delaying_reply(game, *tables_, random));
    if (game.is_over() || game.position().seeds_on_board() < 4) continue;
    const std::optional<TableConversion> conversion = converting_moves(game, *tables_);
    ASSERT_TRUE(conversion);
    for (Move m : conversion->moves) {
      Game after = game;
      after.play(m);
      EXPECT_FALSE(after.ended_by_repetition() && conversion->value > 0);
    }
    if (!conversion->proven) continue;
    ++proven;
    const int target = game.position().mover_lead() + conversion->value;
    int games = 0;
    EXPECT_TRUE(every_line_realises(game, Side::South, target, *tables_, games, 20000))
        << "seed " << seed;
  }
  EXPECT_GT(proven, 0);
}

// The losing side takes a repetition when sharing the seeds is worth more than the tables' value.
TEST_F(OwareConversion, TheLosingSideTakesARepetitionThatSharesTheSeeds) {
  const Game start(rules_, *parse_position(rules_, kCyclingDraw));
  int taken = 0;
  for (uint64_t seed = 1; seed <= 40 && taken < 5; ++seed) {
    Random random(seed);
    Game game = start;
    while (!game.is_over() && game.position().seeds_on_board() == 4) {
      if (game.position().side_to_move == Side::North) {
        const bool can_repeat = std::ranges::any_of(game.legal_moves(), [&](Move m) {
          Game after = game;
          after.play(m);
          return after.ended_by_repetition();
        });
        const std::optional<TableConversion> conversion = converting_moves(game, *tables_);
        ASSERT_TRUE(conversion);
        if (can_repeat && conversion->table_value < 0) {
          EXPECT_EQ(conversion->value, 0);
          for (Move m : conversion->moves) {
            Game after = game;
            after.play(m);
            EXPECT_TRUE(after.ended_by_repetition());
          }
          ++taken;
          break;
        }
      }
      game.play(any_best_move(game, *tables_, random));
    }
  }
  EXPECT_GT(taken, 0);
}

TEST(TableConversionKalah, KalahKeepsEveryMoveOfTheBestValue) {
  // No Kalah position repeats: the choice is the tables' best moves, unchanged.
  const Rules rules = *parse_rules("kalah");
  const BuiltTables tables(rules, 8);
  Random random(4);
  for (int checked = 0; checked < 200;) {
    Position p = scattered_position(rules, random, 1 + static_cast<int>(random.below(8)));
    p.side_to_move = random.below(2) ? Side::South : Side::North;
    const Game game(rules, p);
    if (game.is_over()) continue;
    const RootProbe probe = probe_root(rules, tables, p);
    std::vector<Move> best;
    for (int i = 0; i < probe.count; ++i)
      if (probe.is_best(i)) best.push_back(probe.moves[static_cast<size_t>(i)]);
    const std::optional<TableConversion> conversion = converting_moves(game, tables);
    ASSERT_TRUE(conversion);
    EXPECT_EQ(conversion->moves, best) << to_string(p);
    EXPECT_EQ(conversion->nodes, 0u);
    ++checked;
  }
}

}  // namespace
}  // namespace mancala::table_conversion_test
