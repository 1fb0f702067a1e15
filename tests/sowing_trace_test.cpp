// trace_move, the seed-by-seed replay of a move, against the rules engine: same position after
// every move of thousands of random games and scattered positions of every game and variant,
// same captures, extra turns and ends; and the sowings themselves on hand-checked moves.
#include <gtest/gtest.h>

#include <string>

#include "solver/rules/game.h"
#include "solver/rules/sowing_trace.h"
#include "solver/util/random.h"

// A namespace per file: the suite is compiled in unity batches.
namespace mancala::sowing_trace_test {
namespace {

Rules rules_of(const char* game) {
  Expected<Rules> rules = parse_rules(game);
  EXPECT_TRUE(rules.ok()) << rules.error();
  return *rules;
}

// Compares the trace of `move` with apply_move and checks that the sowings account for every
// seed moved; returns a description of the first difference, or "".
std::string compare_with_engine(const Rules& rules, const Position& before, Move move) {
  MoveEffect effect;
  const Position engine = apply_move(rules, before, move, &effect);
  const MoveTrace trace = trace_move(rules, before, move);
  const std::string where = to_string(before) + " move " + move_letter(before.side_to_move, move);
  if (trace.after != engine)
    return where + ": trace gives " + to_string(trace.after) + ", engine " + to_string(engine);
  if (trace.captured != effect.captured || trace.captured_slots != effect.captured_slots)
    return where + ": captures differ";
  if (trace.extra_turn != effect.extra_turn || trace.game_over != effect.game_over ||
      trace.grand_slam != effect.grand_slam || trace.last_slot != effect.last_slot)
    return where + ": extra turn, end, grand slam or last slot differ";
  if (trace.sowings.empty() ||
      trace.sowings.front().from != before.house_slot(before.side_to_move, move))
    return where + ": the first sowing does not start at the move's house";
  if (static_cast<int>(trace.sowings.size()) != effect.relays + 1)
    return where + ": " + std::to_string(trace.sowings.size()) + " sowings for " +
           std::to_string(effect.relays) + " relays";
  for (const Sowing& s : trace.sowings)
    if (static_cast<int>(s.slots.size()) != s.seeds) return where + ": a sowing lost seeds";
  return "";
}

class TraceAgainstEngine : public ::testing::TestWithParam<const char*> {};

TEST_P(TraceAgainstEngine, EveryMoveOfRandomGamesEndsInTheSamePosition) {
  const Rules rules = rules_of(GetParam());
  Random random(0x7ace0000u + rules.total_seeds());
  for (int g = 0; g < 200; ++g) {
    Game game(rules);
    for (int ply = 0; ply < 2000 && !game.is_over(); ++ply) {
      const MoveList moves = game.legal_moves();
      for (Move m : moves) {
        const std::string difference = compare_with_engine(rules, game.position(), m);
        ASSERT_EQ(difference, "");
      }
      game.play(moves[static_cast<int>(random.below(static_cast<uint32_t>(moves.size())))]);
    }
  }
}

// Seeds scattered at random over houses and stores, either side to move: houses of every size
// (sowings of several laps) and positions random play rarely reaches.
TEST_P(TraceAgainstEngine, EveryMoveOfScatteredPositionsEndsInTheSamePosition) {
  const Rules rules = rules_of(GetParam());
  Random random(0x5ca7u + rules.total_seeds());
  int traced = 0;
  for (int i = 0; i < 3000; ++i) {
    Position p = start_position(rules);
    p.slots.fill(0);
    p.side_to_move = random.below(2) ? Side::North : Side::South;
    // Most seeds in the houses, some in the stores; a few positions pile them into few houses.
    const int houses_used = 1 + static_cast<int>(random.below(2 * rules.houses));
    for (int k = 0; k < rules.total_seeds(); ++k) {
      int slot;
      if (random.below(6) == 0) {
        slot = p.store_slot(random.below(2) ? Side::South : Side::North);
      } else {
        const int house = static_cast<int>(random.below(static_cast<uint32_t>(houses_used)));
        slot = house < rules.houses ? house : house + 1;  // skip South's store
      }
      ++p.slots[slot];
    }
    for (Move m : generate_moves(rules, p)) {
      const std::string difference = compare_with_engine(rules, p, m);
      ASSERT_EQ(difference, "");
      ++traced;
    }
  }
  EXPECT_GT(traced, 1000);
}

INSTANTIATE_TEST_SUITE_P(Games, TraceAgainstEngine,
                         ::testing::Values("kalah", "kalah:6:4:empty-capture", "kalah:3:12",
                                           "kalah:1:3", "kalah:12:12", "oware",
                                           "oware:4:grand-slam-captures", "oware:4:awari",
                                           "oware:6", "congkak", "congkak:7:7:no-capture-first-lap",
                                           "congkak:3:10:no-capture-first-lap", "congkak:9:10"),
                         [](const ::testing::TestParamInfo<const char*>& param) {
                           std::string name = param.param;
                           for (char& c : name)
                             if (c == ':' || c == '-') c = '_';
                           return name;
                         });

TEST(TraceMove, KalahSowingIntoTheOwnStoreListsEachSeedAndEarnsAnExtraTurn) {
  const Rules rules = Rules::kalah();
  const MoveTrace trace = trace_move(rules, start_position(rules), 2);  // C
  ASSERT_EQ(trace.sowings.size(), 1u);
  EXPECT_EQ(trace.sowings[0].from, 2);
  EXPECT_EQ(trace.sowings[0].seeds, 4);
  EXPECT_EQ(trace.sowings[0].slots, (std::vector<int>{3, 4, 5, 6}));  // D, E, F, South's store
  EXPECT_TRUE(trace.extra_turn);
  EXPECT_EQ(to_string(trace.after), "4-4-0-5-5-5-4-4-4-4-4-4-1-0-S");
}

TEST(TraceMove, KalahSowingSkipsTheOpponentsStore) {
  const Rules rules = Rules::kalah(2, 4);
  // North's a holds 4: b, North's store, A, B (South's store is skipped).
  const Position p = *parse_position(rules, "1-1-4-1-0-9-N");
  const MoveTrace trace = trace_move(rules, p, 0);
  EXPECT_EQ(trace.sowings[0].slots, (std::vector<int>{4, 5, 0, 1}));
}

TEST(TraceMove, OwareSowingSkipsTheEmptiedHouseAndTheStores) {
  const Rules rules = Rules::oware();
  // South's F holds 12: one seed in each of the other 11 houses, and the 12th in a again.
  const Position p = *parse_position(rules, "4-4-4-4-4-12-4-4-4-4-0-0-0-0-S");
  const MoveTrace trace = trace_move(rules, p, 5);
  ASSERT_EQ(trace.sowings[0].slots.size(), 12u);
  EXPECT_EQ(trace.sowings[0].slots[0], 7);   // North's a, past South's store
  EXPECT_EQ(trace.sowings[0].slots[6], 0);   // A, past North's store
  EXPECT_EQ(trace.sowings[0].slots[11], 7);  // a again: F itself and the stores are skipped
}

TEST(TraceMove, CongkakRelayIsOneSowingPerPickUp) {
  const Rules rules = Rules::congkak(3, 2);
  // A holds 2: B, C; C held seeds, so its 3 are picked up and sown on: South's store, a, b;
  // b was empty, and on the opponent's side: the turn ends.
  const Position p = *parse_position(rules, "2-0-2-2-0-2-0-4-S");
  const MoveTrace trace = trace_move(rules, p, 0);
  ASSERT_EQ(trace.sowings.size(), 2u);
  EXPECT_EQ(trace.sowings[0].slots, (std::vector<int>{1, 2}));
  EXPECT_EQ(trace.sowings[1].from, 2);
  EXPECT_EQ(trace.sowings[1].seeds, 3);
  EXPECT_EQ(trace.sowings[1].slots, (std::vector<int>{3, 4, 5}));
}

TEST(TraceMove, OwareCaptureEmptiesTheRunOfTwosAndThrees) {
  const Rules rules = Rules::oware();
  // South's F holds 2: a gets 2, b gets 3: both taken.
  const Position p = *parse_position(rules, "4-4-4-4-4-2-1-2-4-4-4-4-7-0-S");
  const MoveTrace trace = trace_move(rules, p, 5);
  EXPECT_EQ(trace.captured, 5);
  EXPECT_EQ(trace.captured_slots, (1u << 7) | (1u << 8));
  EXPECT_EQ(trace.last_slot, 8);
}

}  // namespace
}  // namespace mancala::sowing_trace_test
