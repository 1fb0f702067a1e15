// Puzzles from the endgame tables (tools/service/puzzles.h): every step of every puzzle has
// exactly one answer, checked here by brute force over the tables without the root probe; a
// position with two answers is no puzzle; a damaged or mismatched library file is refused; the
// same seed makes the same library; the libraries the web board ships verify.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "solver/rules/moves.h"
#include "solver/tables/built_tables.h"
#include "solver/tables/table_rules.h"
#include "solver/util/random.h"
#include "tools/service/puzzles.h"

namespace mancala::service {
namespace {

constexpr int kTestSeeds = 10;

Rules rules_of(const char* game) {
  return *parse_rules(game);
}

// Tables built once per game for the whole suite.
const BuiltTables& tables_of(const Rules& rules, int seeds = kTestSeeds) {
  static std::vector<std::pair<std::string, std::unique_ptr<BuiltTables>>> built;
  const std::string key = rules.table_name() + "/" + std::to_string(seeds);
  for (const auto& [name, tables] : built)
    if (name == key) return *tables;
  built.emplace_back(key, std::make_unique<BuiltTables>(rules, seeds, 1));
  return *built.back().second;
}

// The final store difference for `player` after `move` from `p` with perfect play, read straight
// from the tables: the move applied under the table rules, then the stores and the value of the
// position reached (or the settled end, when the move ends the game).
int final_lead_after(const Rules& rules, const ExactValues& tables, const Position& p, Move move,
                     Side player) {
  const Rules table_rules = *table_rules_for(rules);
  const Position after = apply_move(table_rules, p, move);
  if (is_game_over(table_rules, after)) return final_outcome(table_rules, after).lead(player);
  const int stores = after.store(player) - after.store(opponent(player));
  const int value = *tables.value(after);
  return stores + (after.side_to_move == player ? value : -value);
}

// Every step of `puzzle` checked by brute force: at each of the player's turns two or more legal
// moves and exactly one reaching the goal (for a draw, none winning), the line's; at each of the
// computer's, a move that keeps the player's result lowest. "" when it holds, else what failed.
std::string brute_force_problem(const Rules& rules, const ExactValues& tables,
                                const Puzzle& puzzle) {
  const Side player = puzzle.position.side_to_move;
  Position p = puzzle.position;
  for (size_t i = 0; i < puzzle.line.size(); ++i) {
    if (is_game_over(rules, p)) return "a move after the end";
    const MoveList moves = generate_moves(rules, p);
    std::vector<int> leads;
    for (Move m : moves) leads.push_back(final_lead_after(rules, tables, p, m, player));
    if (p.side_to_move == player) {
      if (moves.size() < 2) return "a forced move at step " + std::to_string(i + 1);
      int wins = 0, draws = 0;
      Move good = 0;
      for (int k = 0; k < moves.size(); ++k) {
        wins += leads[static_cast<size_t>(k)] > 0;
        draws += leads[static_cast<size_t>(k)] == 0;
        const bool reaches = puzzle.goal == PuzzleGoal::Win ? leads[static_cast<size_t>(k)] > 0
                                                            : leads[static_cast<size_t>(k)] == 0;
        if (reaches) good = moves[k];
      }
      const int answers = puzzle.goal == PuzzleGoal::Win ? wins : draws;
      if (puzzle.goal == PuzzleGoal::Draw && wins > 0) return "a win where a draw is asked";
      if (answers != 1)
        return std::to_string(answers) + " answers at step " + std::to_string(i + 1);
      if (good != puzzle.line[i]) return "not the answer at step " + std::to_string(i + 1);
    } else {
      const int lowest = *std::min_element(leads.begin(), leads.end());
      for (int k = 0; k < moves.size(); ++k)
        if (moves[k] == puzzle.line[i] && leads[static_cast<size_t>(k)] != lowest)
          return "the computer's answer at step " + std::to_string(i + 1) + " is not its best";
    }
    p = apply_move(rules, p, puzzle.line[i]);
  }
  if (!is_game_over(rules, p)) {
    // The line ends with the player's move unless the game ended.
    Position q = puzzle.position;
    Side last = player;
    for (Move m : puzzle.line) {
      last = q.side_to_move;
      q = apply_move(rules, q, m);
    }
    if (last != player) return "the line ends with the computer's move";
  }
  return "";
}

PuzzleBuildRequest small_request(int count, uint64_t seed) {
  PuzzleBuildRequest request;
  request.count = count;
  request.seed = seed;
  request.min_seeds = 4;
  request.max_seeds = kTestSeeds;
  return request;
}

class PuzzlesOfEachGame : public ::testing::TestWithParam<const char*> {};

TEST_P(PuzzlesOfEachGame, EveryStepOfEveryPuzzleHasExactlyOneAnswerByBruteForce) {
  const Rules rules = rules_of(GetParam());
  const BuiltTables& tables = tables_of(rules);
  const Expected<PuzzleLibrary> library = build_library(rules, tables, small_request(120, 3));
  ASSERT_TRUE(library) << library.error();
  ASSERT_EQ(library->puzzles.size(), 120u);
  int longer = 0;
  for (const Puzzle& puzzle : library->puzzles) {
    EXPECT_EQ(brute_force_problem(rules, tables, puzzle), "") << to_string(puzzle.position);
    EXPECT_LE(puzzle.position.seeds_on_board(), kTestSeeds);
    EXPECT_EQ(puzzle.position.side_to_move, Side::South);
    EXPECT_GE(puzzle.player_moves, 1);
    EXPECT_LE(puzzle.player_moves, 3);
    EXPECT_GE(puzzle.rating, 600);
    longer += puzzle.player_moves > 1;
  }
  // Lines where the computer answers are made, not only one-move puzzles.
  EXPECT_GT(longer, 0);
  EXPECT_TRUE(verify_library(*library, tables));
}

TEST_P(PuzzlesOfEachGame, TheSameSeedMakesTheSameLibraryAndAnotherSeedAnother) {
  const Rules rules = rules_of(GetParam());
  const BuiltTables& tables = tables_of(rules);
  const std::string a = library_json(*build_library(rules, tables, small_request(40, 11)));
  const std::string b = library_json(*build_library(rules, tables, small_request(40, 11)));
  const std::string c = library_json(*build_library(rules, tables, small_request(40, 12)));
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

TEST_P(PuzzlesOfEachGame, ALibraryReadBackFromItsFileIsTheSameAndVerifies) {
  const Rules rules = rules_of(GetParam());
  const BuiltTables& tables = tables_of(rules);
  const PuzzleLibrary library = *build_library(rules, tables, small_request(30, 5));
  const std::string text = library_json(library);
  const Expected<PuzzleLibrary> read = parse_library(text, &rules);
  ASSERT_TRUE(read) << read.error();
  EXPECT_EQ(library_json(*read), text);
  EXPECT_TRUE(verify_library(*read, tables));
}

INSTANTIATE_TEST_SUITE_P(KalahAndOware, PuzzlesOfEachGame,
                         ::testing::Values("kalah:6:4", "oware:4"));

// A position of `rules` where two moves win, found by brute force from a seeded generator.
Position two_winning_moves(const Rules& rules, const ExactValues& tables) {
  Random random(99);
  for (;;) {
    Position p;
    p.houses = rules.houses;
    const int on_board = 6 + static_cast<int>(random.below(4));
    for (int k = 0; k < on_board; ++k) {
      const int field = static_cast<int>(random.below(2u * rules.houses));
      ++p.slots[static_cast<size_t>(field < rules.houses ? field : field + 1)];
    }
    const int in_stores = rules.total_seeds() - on_board;
    p.slots[rules.houses] = static_cast<uint16_t>(in_stores / 2);
    p.slots[2 * rules.houses + 1] = static_cast<uint16_t>(in_stores - in_stores / 2);
    if (is_game_over(rules, p)) continue;
    int wins = 0;
    for (Move m : generate_moves(rules, p))
      wins += final_lead_after(rules, tables, p, m, Side::South) > 0;
    if (wins == 2) return p;
  }
}

TEST(Puzzles, APositionWithTwoWinningMovesIsNoPuzzleAndAForgedOneFailsVerification) {
  const Rules rules = rules_of("kalah:6:4");
  const BuiltTables& tables = tables_of(rules);
  const Position p = two_winning_moves(rules, tables);
  const Expected<Puzzle> puzzle = make_puzzle(rules, tables, p, 3);
  ASSERT_FALSE(puzzle);
  EXPECT_NE(puzzle.error().find("2 moves win"), std::string::npos) << puzzle.error();

  // The same position planted in a library with one of its winning moves as "the" answer.
  PuzzleLibrary library;
  library.rules = rules;
  library.max_player_moves = 3;
  Puzzle forged;
  forged.id = "00000000";
  forged.position = p;
  for (Move m : generate_moves(rules, p))
    if (final_lead_after(rules, tables, p, m, Side::South) > 0) {
      forged.line = {m};
      break;
    }
  forged.player_moves = 1;
  forged.rating = 1000;
  forged.search_depth = 1;
  library.puzzles.push_back(forged);
  const Expected<bool> verified = verify_library(library, tables);
  ASSERT_FALSE(verified);
  EXPECT_NE(verified.error().find("2 moves win, not one"), std::string::npos) << verified.error();
}

TEST(Puzzles, VerificationFindsAWrongAnswerAWrongRatingAndAPositionOutsideTheTables) {
  const Rules rules = rules_of("kalah:6:4");
  const BuiltTables& tables = tables_of(rules);
  const PuzzleLibrary library = *build_library(rules, tables, small_request(20, 8));
  ASSERT_TRUE(verify_library(library, tables));

  PuzzleLibrary wrong_move = library;
  Puzzle& first = wrong_move.puzzles.front();
  for (Move m : generate_moves(rules, first.position))
    if (m != first.line.front()) {
      first.line = {m};
      break;
    }
  EXPECT_FALSE(verify_library(wrong_move, tables));

  PuzzleLibrary wrong_rating = library;
  wrong_rating.puzzles.back().rating += 50;
  const Expected<bool> rating = verify_library(wrong_rating, tables);
  ASSERT_FALSE(rating);
  EXPECT_NE(rating.error().find("rated"), std::string::npos) << rating.error();

  // Tables shallower than the library's positions cannot vouch for it.
  const BuiltTables& shallow = tables_of(rules, 5);
  const Expected<bool> outside = verify_library(library, shallow);
  ASSERT_FALSE(outside);
  EXPECT_NE(outside.error().find("the tables hold up to 5"), std::string::npos) << outside.error();
}

TEST(Puzzles, ADamagedOrMismatchedLibraryFileIsRefused) {
  const Rules kalah = rules_of("kalah:6:4");
  const Rules oware = rules_of("oware:4");
  const std::string text =
      library_json(*build_library(kalah, tables_of(kalah), small_request(10, 2)));
  ASSERT_TRUE(parse_library(text, &kalah));

  // A rating changed by hand: the checksum no longer holds.
  std::string damaged = text;
  const size_t at = damaged.find("\"rating\":") + 9;
  damaged[at] = damaged[at] == '9' ? '8' : '9';
  const Expected<PuzzleLibrary> read = parse_library(damaged, &kalah);
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().find("damaged"), std::string::npos) << read.error();

  // Another game than the one asked for.
  const Expected<PuzzleLibrary> other = parse_library(text, &oware);
  ASSERT_FALSE(other);
  EXPECT_NE(other.error().find("not of oware"), std::string::npos) << other.error();

  // Cut short, another version, not JSON, a field missing, an illegal move.
  EXPECT_FALSE(parse_library(text.substr(0, text.size() / 2)));
  std::string version = text;
  version.replace(version.find("\"version\":1"), 11, "\"version\":2");
  EXPECT_FALSE(parse_library(version));
  EXPECT_FALSE(parse_library("puzzles"));
  std::string missing = text;
  missing.replace(missing.find("\"goal\":"), 7, "\"aim\":");
  EXPECT_FALSE(parse_library(missing));
  std::string bad_move = text;
  const size_t line = bad_move.find("\"line\":[\"") + 9;
  bad_move[line] = 'Z';
  EXPECT_FALSE(parse_library(bad_move));

  // A number where a whole one belongs: a fraction, or a float beyond an int (converting it was
  // undefined behaviour, found by the fuzzer), is refused by name.
  for (const char* number : {"6.70773e+44", "1500.5", "-1e300"}) {
    std::string fraction = text;
    const size_t rating = fraction.find("\"rating\":") + 9;
    fraction.replace(rating, fraction.find(',', rating) - rating, number);
    const Expected<PuzzleLibrary> refused = parse_library(fraction, &kalah);
    ASSERT_FALSE(refused) << number;
    EXPECT_NE(refused.error().find("its rating is not a whole number"), std::string::npos)
        << refused.error();
  }
  std::string seed = text;
  seed.replace(seed.find("\"seed\":2"), 8, "\"seed\":2.5");
  EXPECT_FALSE(parse_library(seed));
}

// The libraries the web board ships (tools/http/web/puzzles/) verify against tables built here.
TEST(Puzzles, TheShippedLibrariesVerify) {
  for (const auto& [game, file] :
       {std::pair{"kalah:6:4", "kalah-6-4.json"}, std::pair{"oware:4", "oware-4.json"}}) {
    const Rules rules = rules_of(game);
    std::ifstream in(std::string(MANCALA_SOURCE_DIR) + "/tools/http/web/puzzles/" + file);
    ASSERT_TRUE(in) << file;
    std::stringstream text;
    text << in.rdbuf();
    const Expected<PuzzleLibrary> library = parse_library(text.str(), &rules);
    ASSERT_TRUE(library) << file << ": " << library.error();
    EXPECT_GE(library->puzzles.size(), 200u);
    const Expected<bool> verified = verify_library(*library, tables_of(rules, library->max_seeds));
    EXPECT_TRUE(verified) << file << ": " << (verified ? "" : verified.error());
  }
}

}  // namespace
}  // namespace mancala::service
