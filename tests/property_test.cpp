// Properties over thousands of seeded random games per game and variant: seeds are conserved,
// stores never shrink, every game ends, position strings and game records round-trip, and undo
// restores the position.
#include <gtest/gtest.h>

#include <string>

#include "solver/rules/game.h"
#include "solver/rules/record.h"
#include "solver/util/random.h"

// A namespace per file: the suite is compiled in unity batches.
namespace mancala::property_test {
namespace {

constexpr int kGamesPerVariant = 1500;
constexpr int kMaxPlies = 5000;

class RandomGames : public ::testing::TestWithParam<const char*> {};

TEST_P(RandomGames, KeepTheInvariants) {
  Expected<Rules> parsed = parse_rules(GetParam());
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  const Rules rules = *parsed;
  Random random(0x5eed0000u + rules.total_seeds());
  for (int g = 0; g < kGamesPerVariant; ++g) {
    Game game(rules);
    int plies = 0;
    while (!game.is_over()) {
      ASSERT_LT(++plies, kMaxPlies)
          << "game " << g << " does not end: " << to_string(game.position());
      const Position before = game.position();
      const MoveList moves = game.legal_moves();
      ASSERT_FALSE(moves.empty());
      ASSERT_FALSE(is_game_over(rules, before) && !game.ended_by_repetition());
      const Move move = moves[static_cast<int>(random.below(static_cast<uint32_t>(moves.size())))];
      MoveEffect effect;
      ASSERT_TRUE(game.play(move, &effect));
      const Position& after = game.position();
      ASSERT_FALSE(effect.endless) << to_string(before);
      ASSERT_EQ(after.seeds_total(), rules.total_seeds())
          << to_string(before) << " move " << int(move);
      ASSERT_GE(after.store(Side::South), before.store(Side::South));
      ASSERT_GE(after.store(Side::North), before.store(Side::North));
      ASSERT_EQ(effect.extra_turn, !effect.game_over && after.side_to_move == before.side_to_move);
      Expected<Position> reparsed = parse_position(rules, to_string(after));
      ASSERT_TRUE(reparsed.ok()) << reparsed.error();
      ASSERT_EQ(*reparsed, after);
      // Undo gives back the position before; play again to go on.
      if (random.below(8) == 0) {
        ASSERT_TRUE(game.undo());
        ASSERT_EQ(game.position(), before);
        ASSERT_TRUE(game.play(move));
      }
    }
    const Outcome outcome = game.outcome();
    if (!game.ended_by_repetition() && rules.kind != GameKind::Oware) {
      ASSERT_EQ(outcome.south_store + outcome.north_store, rules.total_seeds());
    }
    if (g % 10 == 0) {  // records: write, read back, same game
      const RecordTags tags = {
          {"South", "Random \"A\""}, {"North", "B\\C"}, {"Date", "2026.11.29"}};
      const std::string text = write_record(game, tags).value();
      Expected<GameRecord> record = read_record(text);
      ASSERT_TRUE(record.ok()) << record.error() << "\n" << text;
      ASSERT_EQ(record->game.moves(), game.moves()) << text;
      ASSERT_EQ(record->game.position(), game.position());
      ASSERT_EQ(record->game.rules(), rules);
      ASSERT_EQ(record->tag("South"), "Random \"A\"");
      ASSERT_EQ(record->tag("North"), "B\\C");
      ASSERT_EQ(record->tag("Result"), result_token(game));
      ASSERT_EQ(write_record(record->game, record->tags).value(), text);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, RandomGames,
                         ::testing::Values("kalah", "kalah:6:4:empty-capture", "kalah:4:3",
                                           "kalah:1:1", "kalah:12:12", "oware", "oware:1",
                                           "oware:6", "oware:3:grand-slam-captures",
                                           "oware:4:awari", "oware:2:awari", "congkak",
                                           "congkak:3:1", "congkak:9:10",
                                           "congkak:5:4:no-capture-first-lap"),
                         [](const auto& param_info) {
                           std::string name = param_info.param;
                           for (char& c : name)
                             if (c == ':' || c == '-') c = '_';
                           return name;
                         });

}  // namespace
}  // namespace mancala::property_test
