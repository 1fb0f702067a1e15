// Game records: the native PGN-like format and Aualé's .ogn.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "solver/rules/record.h"

// A namespace per file: the suite is compiled in unity batches.
namespace mancala::record_test {
namespace {

Game play_letters(const Rules& rules, const Position& start, const std::string& letters) {
  Game game(rules, start);
  for (char c : letters) {
    Expected<Move> move = parse_move_letter(game.position(), std::string(1, c));
    EXPECT_TRUE(move.ok()) << move.error();
    EXPECT_TRUE(game.play(*move)) << c;
  }
  return game;
}

TEST(Record, WritesTagsThenNumberedTurnsWithExtraTurnsJoined) {
  const Rules rules = Rules::kalah();
  const Game game = play_letters(rules, start_position(rules), "CFbeA");
  const std::string text =
      write_record(game,
                   {{"South", "Ann"}, {"North", "Bob"}, {"Date", "2026.11.29"}, {"Event", "Club"}})
          .value();
  EXPECT_EQ(text,
            "[Game \"kalah:6:4\"]\n"
            "[South \"Ann\"]\n"
            "[North \"Bob\"]\n"
            "[Date \"2026.11.29\"]\n"
            "[Result \"*\"]\n"
            "[Event \"Club\"]\n"
            "\n"
            "1. CF be 2. A *\n");
}

TEST(Record, MissingTagsAreWrittenAsQuestionMarks) {
  const Rules rules = Rules::oware();
  const std::string text = write_record(Game(rules), {}).value();
  EXPECT_EQ(text,
            "[Game \"oware:4:abapa\"]\n[South \"?\"]\n[North \"?\"]\n[Date \"?\"]\n"
            "[Result \"*\"]\n\n*\n");
}

TEST(Record, NonStandardStartWritesPositionAndNorthOpensWithEllipsis) {
  const Rules rules = Rules::kalah(3, 2);
  Expected<Position> start = parse_position(rules, "2-2-2-2-2-2-0-0-N");
  ASSERT_TRUE(start.ok());
  const Game game = play_letters(rules, *start, "aA");
  const std::string text = write_record(game, {}).value();
  EXPECT_NE(text.find("[Position \"2-2-2-2-2-2-0-0-N\"]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n1... a 2. A"), std::string::npos) << text;
  Expected<GameRecord> back = read_record(text);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back->game.start(), *start);
  EXPECT_EQ(back->game.moves(), game.moves());
}

TEST(Record, FinishedGameCarriesResultTagAndToken) {
  const Rules rules = Rules::kalah(1, 1);
  // One house each: South sows its seed into its store, moves again, and its row is empty.
  const Game game = play_letters(rules, start_position(rules), "A");
  ASSERT_TRUE(game.is_over());
  const std::string text = write_record(game, {}).value();
  EXPECT_NE(text.find("[Result \"1/2-1/2\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("1. A 1/2-1/2\n"), std::string::npos) << text;
}

TEST(Record, ReadsCommentsAndIgnoresMoveNumbers) {
  Expected<GameRecord> record =
      read_record("[Game \"kalah\"]\n[Result \"*\"]\n\n1. C {extra turn} F 2. {nothing} *\n");
  ASSERT_TRUE(record.ok()) << record.error();
  EXPECT_EQ(record->game.moves().size(), 2u);
  EXPECT_EQ(to_string(record->game.position()), "4-4-0-5-5-0-5-5-5-5-4-4-2-0-N");
}

TEST(Record, ReadsAualeOgnRecord) {
  const std::string ogn =
      "[Variant \"Oware Abapa\"]\n[Event \"Untitled\"]\n[Site \"?\"]\n[Date \"2015.03.26\"]\n"
      "[Round \"?\"]\n[South \"Human\"]\n[North \"Aalina\"]\n[Result \"*\"]\n\n"
      "1. F a 2. E b { North is overloading } 3. D c+2\n";
  Expected<GameRecord> record = read_record(ogn);
  ASSERT_TRUE(record.ok()) << record.error();
  EXPECT_EQ(record->game.rules(), Rules::oware(4));
  EXPECT_EQ(record->game.moves().size(), 6u);
  EXPECT_EQ(record->tag("North"), "Aalina");
  // The "+2" says North's last move captured two seeds.
  EXPECT_EQ(record->game.position().store(Side::North), 2);
  EXPECT_EQ(record->game.position().store(Side::South), 0);
}

TEST(Record, ReadsOgnStartPositionFromFenAndSkipsVariations) {
  const std::string ogn =
      "[Variant \"Oware Abapa\"]\n[Result \"*\"]\n[FEN \"4-4-4-4-4-4-4-4-4-4-4-4-0-0-N\"]\n\n"
      "1. a (1... b 2. A) 2. A 25-13\n";
  Expected<GameRecord> record = read_record(ogn);
  ASSERT_TRUE(record.ok()) << record.error();
  EXPECT_EQ(record->game.start().side_to_move, Side::North);
  EXPECT_EQ(record->game.moves().size(), 2u);
}

TEST(Record, RejectsUnknownOgnVariant) {
  Expected<GameRecord> record = read_record("[Variant \"Awale Tour\"]\n\n1. A\n");
  ASSERT_FALSE(record.ok());
  EXPECT_NE(record.error().find("Variant"), std::string::npos);
}

TEST(Record, IllegalMoveIsNamedWithItsNumber) {
  Expected<GameRecord> record = read_record("[Game \"kalah\"]\n\n1. C a\n");
  ASSERT_FALSE(record.ok());
  EXPECT_NE(record.error().find("move 2"), std::string::npos) << record.error();
}

TEST(Record, MissingGameTagIsAnError) {
  Expected<GameRecord> record = read_record("[South \"x\"]\n\n1. A\n");
  ASSERT_FALSE(record.ok());
  EXPECT_NE(record.error().find("Game"), std::string::npos);
}

TEST(Record, BadGameTagListsAcceptedForms) {
  Expected<GameRecord> record = read_record("[Game \"chess\"]\n");
  ASSERT_FALSE(record.ok());
  EXPECT_NE(record.error().find("accepted forms"), std::string::npos);
}

TEST(Record, UnterminatedTagIsAnError) {
  Expected<GameRecord> record = read_record("[Game \"kalah]\n");
  ASSERT_FALSE(record.ok());
  EXPECT_NE(record.error().find("line 1"), std::string::npos) << record.error();
}

TEST(Record, MovesAfterTheEndAreAnError) {
  Expected<GameRecord> record = read_record("[Game \"kalah:1:1\"]\n\n1. A a\n");
  ASSERT_FALSE(record.ok());
  EXPECT_NE(record.error().find("already over"), std::string::npos) << record.error();
}

// A reader bounds its work by the moves it takes: the move past the limit is refused as it is
// read, before it is played (whatever follows it, legal or not).
TEST(Record, AMoveBeyondTheLimitIsRefusedBeforeItIsPlayed) {
  const std::string text = "[Game \"kalah\"]\n\n1. C F b 2. xyz\n";
  const Expected<GameRecord> within = read_record("[Game \"kalah\"]\n\n1. C F b\n", 3);
  ASSERT_TRUE(within.ok()) << within.error();
  EXPECT_EQ(within->game.moves().size(), 3u);
  const Expected<GameRecord> beyond = read_record(text, 3);
  ASSERT_FALSE(beyond.ok());
  EXPECT_EQ(beyond.error(), "more than 3 moves");
}

TEST(Record, UnterminatedCommentIsAnError) {
  Expected<GameRecord> record = read_record("[Game \"kalah\"]\n\n1. C {oops\n");
  ASSERT_FALSE(record.ok());
}

TEST(Record, TagsThatWouldNotReadBackTheSameAreRefusedWhenWriting) {
  const Game game(Rules::kalah());
  // A line break ends the tag line; a space ends the name ("Sou th" would come back as "Sou");
  // a quote or bracket in a name is not a name at all; a name given twice is ambiguous.
  for (const RecordTags& tags : std::vector<RecordTags>{{{"South", "Ann\n[Game \"oware\"]"}},
                                                        {{"Event", "a\rb"}},
                                                        {{"Event", std::string("a\0b", 3)}},
                                                        {{"Sou th", "Ann"}},
                                                        {{"Ev\"]ent", "x"}},
                                                        {{"", "x"}},
                                                        {{"Event", "a"}, {"Event", "b"}}}) {
    const Expected<std::string> text = write_record(game, tags);
    EXPECT_FALSE(text.ok()) << tags[0].first << " was written:\n" << (text ? *text : "");
  }
}

TEST(Record, EveryTagWrittenReadsBackTheSame) {
  const Rules rules = Rules::kalah();
  const Game game = play_letters(rules, start_position(rules), "CFbeA");
  const RecordTags tags = {{"South", "Ann \"the \\ quick\"]"},
                           {"North", "Bob [x] {y} (z)"},
                           {"Date", "2026.11.29"},
                           {"Event", "caf\xc3\xa9 \"]"},
                           {"Round_2", "1-0 *"}};
  const Expected<std::string> text = write_record(game, tags);
  ASSERT_TRUE(text.ok()) << text.error();
  const Expected<GameRecord> back = read_record(*text);
  ASSERT_TRUE(back.ok()) << back.error() << "\n" << *text;
  for (const auto& [name, value] : tags) EXPECT_EQ(back->tag(name), value) << name;
  EXPECT_EQ(back->game.moves(), game.moves());
  EXPECT_EQ(write_record(back->game, back->tags).value(), *text);
}

TEST(Record, ATagGivenTwiceIsRefusedWhenReading) {
  const Expected<GameRecord> record = read_record("[Game \"kalah\"]\n[Game \"oware\"]\n\n1. C *\n");
  ASSERT_FALSE(record.ok());
  EXPECT_NE(record.error().find("a second [Game] tag"), std::string::npos) << record.error();
}

TEST(Record, WritesAualeOgnThatReadsBack) {
  Game game(Rules::oware(4), *parse_position(Rules::oware(4), "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N"));
  for (const char* letter : {"a", "A", "b"})
    ASSERT_TRUE(game.play(*parse_move_letter(game.position(), letter)));
  RecordStyle ogn;
  ogn.ogn = true;
  Expected<std::string> text =
      write_record(game, {{"South", "Ann"}, {"Termination", "normal"}}, ogn);
  ASSERT_TRUE(text.ok()) << text.error();
  EXPECT_NE(text->find("[Variant \"Oware Abapa\"]"), std::string::npos) << *text;
  EXPECT_NE(text->find("[FEN \"4-4-4-4-4-0-5-5-5-5-4-4-0-0-N\"]"), std::string::npos) << *text;
  EXPECT_EQ(text->find("[Game "), std::string::npos) << *text;
  EXPECT_NE(text->find("1... a 2. A b *"), std::string::npos) << *text;
  Expected<GameRecord> back = read_record(*text);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back->game.moves(), game.moves());
  EXPECT_EQ(back->tag("Termination"), "normal");
}

TEST(Record, AdjudicatedResultIsWrittenAndOnlyOwareAbapaIsOgn) {
  Game game(Rules::kalah(6, 4));
  ASSERT_TRUE(game.play(*parse_move_letter(game.position(), "A")));
  RecordStyle adjudicated;
  adjudicated.result = "0-1";  // South lost on time, say: the game itself is not over
  Expected<std::string> text = write_record(game, {}, adjudicated);
  ASSERT_TRUE(text.ok()) << text.error();
  EXPECT_NE(text->find("[Result \"0-1\"]"), std::string::npos) << *text;
  EXPECT_NE(text->find("0-1\n"), std::string::npos) << *text;
  adjudicated.result = "2-0";
  EXPECT_FALSE(write_record(game, {}, adjudicated).ok());
  RecordStyle ogn;
  ogn.ogn = true;
  EXPECT_FALSE(write_record(game, {}, ogn).ok());
}

}  // namespace
}  // namespace mancala::record_test
