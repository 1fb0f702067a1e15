// Oware, solver/rules/README.md "Oware": one test per rule and per rule set, each on an exact
// board. Oware always has 6 houses a side: A-F (slots 0-5), South's store (6), a-f (slots 7-12),
// North's store (13). Position strings: A-B-C-D-E-F-a-b-c-d-e-f-South store-North store-side.
// oware:1 boards hold 12 seeds, so a store with 7 or more has a majority.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "solver/rules/game.h"
#include "solver/rules/moves.h"
#include "solver/rules/position.h"
#include "solver/rules/rules.h"
#include "solver/util/random.h"
#include "tests/long_games.h"
#include "tests/rules_test_helpers.h"

// A namespace per file: the suite is compiled in unity batches.
namespace mancala::oware_rules_test {
namespace {

using namespace testing_helpers;

constexpr int kA = 0, kB = 1, kNa = 7, kNb = 8, kNc = 9, kNd = 10;

// ------------------------------------------------------------------ rule 1: start, stores

TEST(OwareRules, StartHasNSeedsPerHouseAndEveryHouseIsLegal) {
  const Rules r = rules_of("oware");
  EXPECT_EQ(to_string(start_position(r)), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
  EXPECT_EQ(to_string(start_position(rules_of("oware:6"))), "6-6-6-6-6-6-6-6-6-6-6-6-0-0-S");
  EXPECT_EQ(legal(r, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"), "ABCDEF");
  EXPECT_EQ(legal(r, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-N"), "abcdef");
  EXPECT_FALSE(is_game_over(r, start_position(r)));
}

// ------------------------------------------------------------------ rule 2: sowing

TEST(OwareRules, SowingPutsNothingInStores) {
  // F's 4 seeds go straight on to a b c d; South's store is not a slot of the ring.
  const Played m = play(rules_of("oware"), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", 'F');
  EXPECT_EQ(m.position, "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N");
  EXPECT_EQ(m.effect.last_slot, kNd);
  EXPECT_EQ(m.effect.captured, 0);
  EXPECT_FALSE(m.effect.game_over);
}

TEST(OwareRules, NorthSowingPassesItsStoreIntoSouthRow) {
  const Played m = play(rules_of("oware"), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-N", 'f');
  EXPECT_EQ(m.position, "5-5-5-5-4-4-4-4-4-4-4-0-0-0-S");
  EXPECT_EQ(m.effect.last_slot, 3);  // D
}

TEST(OwareRules, EmptiedHouseSkippedOnLap) {
  // 12 seeds from A: B-F and a-f get one each (11), A is skipped, the 12th goes to B.
  const Played m = play(rules_of("oware:2"), "12-0-0-0-0-0-1-1-1-1-1-1-3-3-S", 'A');
  EXPECT_EQ(m.position, "0-2-1-1-1-1-2-2-2-2-2-2-3-3-N");
  EXPECT_EQ(m.effect.last_slot, kB);
  EXPECT_EQ(m.effect.captured, 0);
}

TEST(OwareRules, LapSowingSkipsEmptiedHouseThenCaptures) {
  // 17 seeds from A: B-F a-f (11), skip A, B-F (16), a (17). a ends with 2 and is captured;
  // A stays empty.
  const Played m = play(rules_of("oware:3"), "17-0-0-0-0-0-0-1-1-1-1-1-7-7-S", 'A');
  EXPECT_EQ(m.position, "0-2-2-2-2-2-0-2-2-2-2-2-9-7-N");
  EXPECT_EQ(m.effect.last_slot, kNa);
  EXPECT_EQ(m.effect.captured, 2);
  EXPECT_EQ(m.effect.captured_slots, 1u << kNa);
  EXPECT_FALSE(m.effect.grand_slam);
}

// ------------------------------------------------------------------ rule 3: capture

TEST(OwareRules, CaptureWhenLastSeedMakesTwo) {
  const Played m = play(rules_of("oware:1"), "1-0-0-0-0-1-1-0-1-0-0-1-4-3-S", 'F');
  EXPECT_EQ(m.position, "1-0-0-0-0-0-0-0-1-0-0-1-6-3-N");
  EXPECT_EQ(m.effect.captured, 2);
  EXPECT_EQ(m.effect.captured_slots, 1u << kNa);
  EXPECT_EQ(m.effect.last_slot, kNa);
  EXPECT_FALSE(m.effect.grand_slam);
  EXPECT_FALSE(m.effect.game_over);  // 6 of 12 is half, not more
}

TEST(OwareRules, CaptureChainsBackwardsWhileTwoOrThree) {
  // E sows F a b c: a=2, b=3, c=2 are all taken; before a comes South's own F.
  const Played m = play(rules_of("oware"), "4-4-4-4-4-4-1-2-1-4-4-4-4-4-S", 'E');
  EXPECT_EQ(m.position, "4-4-4-4-0-5-0-0-0-4-4-4-11-4-N");
  EXPECT_EQ(m.effect.captured, 7);
  EXPECT_EQ(m.effect.captured_slots, (1u << kNa) | (1u << kNb) | (1u << kNc));
  EXPECT_EQ(m.effect.last_slot, kNc);
}

TEST(OwareRules, CaptureChainStopsAtHouseNotTwoOrThree) {
  // F sows a b c: c=3 is taken, b=4 stops the chain, so a=2 stays.
  const Played m = play(rules_of("oware"), "4-4-4-4-4-3-1-3-2-4-4-4-4-3-S", 'F');
  EXPECT_EQ(m.position, "4-4-4-4-4-0-2-4-0-4-4-4-7-3-N");
  EXPECT_EQ(m.effect.captured, 3);
  EXPECT_EQ(m.effect.captured_slots, 1u << kNc);
}

TEST(OwareRules, NoCaptureUnlessLastHouseHoldsTwoOrThree) {
  // F sows a b: a becomes 2 but the last seed makes b 4, so nothing is taken.
  const Played m = play(rules_of("oware"), "4-4-4-4-4-2-1-3-4-4-4-4-3-3-S", 'F');
  EXPECT_EQ(m.position, "4-4-4-4-4-0-2-4-4-4-4-4-3-3-N");
  EXPECT_EQ(m.effect.captured, 0);
  EXPECT_EQ(m.effect.captured_slots, 0u);
}

TEST(OwareRules, NoCaptureInOwnRow) {
  const Played m = play(rules_of("oware:1"), "2-1-0-0-0-0-1-1-1-1-1-1-2-1-S", 'A');
  EXPECT_EQ(m.position, "0-2-1-0-0-0-1-1-1-1-1-1-2-1-N");
  EXPECT_EQ(m.effect.captured, 0);
}

TEST(OwareRules, CaptureChainStopsAtOwnRow) {
  // North's e sows f A: A=3 is taken; the house before A is North's own f (2), not taken.
  const Rules r = rules_of("oware:1");
  const Played m = play(r, "2-1-0-0-0-0-0-0-0-0-2-1-3-3-N", 'e');
  EXPECT_EQ(m.position, "0-1-0-0-0-0-0-0-0-0-0-2-3-6-S");
  EXPECT_EQ(m.effect.captured, 3);
  EXPECT_EQ(m.effect.captured_slots, 1u << kA);
  EXPECT_FALSE(m.effect.game_over);
  EXPECT_EQ(legal(r, m.position), "B");
}

// ------------------------------------------------------------------ rule 4: grand slam

TEST(OwareRules, GrandSlamCapturesNothing) {
  // F makes a=2 and b=2: all of North's seeds, so the move is legal but takes nothing.
  const Rules r = rules_of("oware:1");
  EXPECT_EQ(legal(r, "2-2-0-0-0-2-1-1-0-0-0-0-1-3-S"), "ABF");
  const Played m = play(r, "2-2-0-0-0-2-1-1-0-0-0-0-1-3-S", 'F');
  EXPECT_EQ(m.position, "2-2-0-0-0-0-2-2-0-0-0-0-1-3-N");
  EXPECT_TRUE(m.effect.grand_slam);
  EXPECT_EQ(m.effect.captured, 0);
  EXPECT_EQ(m.effect.captured_slots, 0u);
  EXPECT_FALSE(m.effect.game_over);
  EXPECT_EQ(legal(r, m.position), "ab");
}

TEST(OwareRules, PartialCaptureIsNotAGrandSlam) {
  // Same sowing, but North keeps c: the capture of a and b stands.
  const Played m = play(rules_of("oware:1"), "2-2-0-0-0-2-1-1-1-0-0-0-0-3-S", 'F');
  EXPECT_EQ(m.position, "2-2-0-0-0-0-0-0-1-0-0-0-4-3-N");
  EXPECT_FALSE(m.effect.grand_slam);
  EXPECT_EQ(m.effect.captured, 4);
}

TEST(OwareRules, GrandSlamCapturesUnderGrandSlamVariant) {
  // The grand slam takes a and b; North then has no seeds at its turn, so the game ends and
  // South keeps the 4 seeds on its own side.
  const Rules r = rules_of("oware:1:grand-slam-captures");
  const Played m = play(r, "2-2-0-0-0-2-1-1-0-0-0-0-1-3-S", 'F');
  EXPECT_EQ(m.position, "0-0-0-0-0-0-0-0-0-0-0-0-9-3-N");
  EXPECT_TRUE(m.effect.grand_slam);
  EXPECT_EQ(m.effect.captured, 4);
  EXPECT_EQ(m.effect.captured_slots, (1u << kNa) | (1u << kNb));
  EXPECT_TRUE(m.effect.game_over);
  const Position end = pos(r, m.position);
  EXPECT_TRUE(is_game_over(r, end));
  const Outcome o = final_outcome(r, end);
  EXPECT_EQ(o.south_store, 9);
  EXPECT_EQ(o.north_store, 3);
  EXPECT_EQ(o.winner, Winner::South);
}

TEST(OwareRules, GrandSlamVariantPlayerWithoutSeedsAtItsTurnEndsGame) {
  const Rules r = rules_of("oware:1:grand-slam-captures");
  const Position p = pos(r, "1-1-0-0-0-0-0-0-0-0-0-0-5-5-N");
  EXPECT_TRUE(is_game_over(r, p));
  EXPECT_TRUE(generate_moves(r, p).empty());
  const Outcome o = final_outcome(r, p);
  EXPECT_EQ(o.south_store, 7);
  EXPECT_EQ(o.north_store, 5);
  EXPECT_EQ(o.winner, Winner::South);
}

// ------------------------------------------------------------------ rule 5: must feed

TEST(OwareRules, MustFeedRestrictsMoves) {
  // North is empty: A (3 seeds, reaches D) does not feed, E (reaches a) does.
  const Rules r = rules_of("oware:1");
  EXPECT_EQ(legal(r, "3-0-0-0-2-0-0-0-0-0-0-0-4-3-S"), "E");
  EXPECT_FALSE(is_game_over(r, pos(r, "3-0-0-0-2-0-0-0-0-0-0-0-4-3-S")));
  const Played m = play(r, "3-0-0-0-2-0-0-0-0-0-0-0-4-3-S", 'E');
  EXPECT_EQ(m.position, "3-0-0-0-0-1-1-0-0-0-0-0-4-3-N");
  EXPECT_FALSE(m.effect.game_over);
}

TEST(OwareRules, MustFeedCountsDistanceToOpponentRow) {
  // A needs 6 seeds to reach a, B needs 5.
  const Rules r = rules_of("oware:1");
  EXPECT_EQ(legal(r, "5-5-0-0-0-0-0-0-0-0-0-0-1-1-S"), "B");
  EXPECT_EQ(legal(r, "6-4-0-0-0-0-0-0-0-0-0-0-1-1-S"), "A");
  // North: a needs 6 to reach A, f needs 1.
  EXPECT_EQ(legal(r, "0-0-0-0-0-0-5-0-0-0-0-1-3-3-N"), "f");
}

TEST(OwareRules, GameRejectsNonFeedingMove) {
  const Rules r = rules_of("oware:1");
  Game game(r, pos(r, "3-0-0-0-2-0-0-0-0-0-0-0-4-3-S"));
  EXPECT_FALSE(game.play(house_of('A')));
  EXPECT_EQ(to_string(game.position()), "3-0-0-0-2-0-0-0-0-0-0-0-4-3-S");
  EXPECT_TRUE(game.play(house_of('E')));
  EXPECT_EQ(to_string(game.position()), "3-0-0-0-0-1-1-0-0-0-0-0-4-3-N");
}

TEST(OwareRules, NoFeedingMoveEndsGameMoverTakesOwnSeeds) {
  // North's last seed goes from f to A; South, to move, cannot reach North's row with
  // A=1, B=1, C=1, so the game ends and South takes its 3 seeds.
  const Rules r = rules_of("oware:1");
  const Played m = play(r, "0-1-1-0-0-0-0-0-0-0-0-1-4-5-N", 'f');
  EXPECT_EQ(m.position, "0-0-0-0-0-0-0-0-0-0-0-0-7-5-S");
  EXPECT_TRUE(m.effect.game_over);
  EXPECT_EQ(m.effect.captured, 0);
  const Outcome o = final_outcome(r, pos(r, m.position));
  EXPECT_EQ(o.south_store, 7);
  EXPECT_EQ(o.north_store, 5);
  EXPECT_EQ(o.winner, Winner::South);
}

TEST(OwareRules, TypedPositionWithoutFeedingMoveIsOver) {
  const Rules r = rules_of("oware:1");
  const Position p = pos(r, "1-1-1-0-0-0-0-0-0-0-0-0-4-5-S");
  EXPECT_TRUE(is_game_over(r, p));
  EXPECT_TRUE(generate_moves(r, p).empty());
  const Outcome o = final_outcome(r, p);
  EXPECT_EQ(o.south_store, 7);
  EXPECT_EQ(o.north_store, 5);
}

// ------------------------------------------------------------------ rule 6: majority

TEST(OwareRules, MajorityEndsGame) {
  // South's capture of 2 makes 7 of 12: the game ends at once and the board stays as it is.
  const Rules r = rules_of("oware:1");
  const Played m = play(r, "1-0-0-0-0-1-1-0-1-0-0-1-5-2-S", 'F');
  EXPECT_EQ(m.position, "1-0-0-0-0-0-0-0-1-0-0-1-7-2-N");
  EXPECT_TRUE(m.effect.game_over);
  EXPECT_EQ(m.effect.captured, 2);
  const Position end = pos(r, m.position);
  EXPECT_TRUE(is_game_over(r, end));
  EXPECT_TRUE(generate_moves(r, end).empty());
  const Outcome o = final_outcome(r, end);
  EXPECT_EQ(o.winner, Winner::South);
  EXPECT_EQ(o.south_store, 7);
}

TEST(OwareRules, TypedMajorityPositionIsOver) {
  const Rules r = rules_of("oware:1");
  const Position p = pos(r, "1-0-0-0-0-0-0-0-0-0-0-1-7-3-S");
  EXPECT_TRUE(is_game_over(r, p));
  EXPECT_TRUE(generate_moves(r, p).empty());
  EXPECT_EQ(final_outcome(r, p).winner, Winner::South);
  // Exactly half for one side only is not the end.
  const Position half = pos(r, "1-0-0-0-0-0-0-0-0-0-0-1-6-4-S");
  EXPECT_FALSE(is_game_over(r, half));
  EXPECT_EQ(legal(r, "1-0-0-0-0-0-0-0-0-0-0-1-6-4-S"), "A");
}

TEST(OwareRules, BothHoldingExactlyHalfEndsGameInDraw) {
  // Under grand-slam-captures North's f takes South's last 2 seeds: 6 and 6.
  const Rules r = rules_of("oware:1:grand-slam-captures");
  const Played m = play(r, "1-0-0-0-0-0-0-0-0-0-0-1-6-4-N", 'f');
  EXPECT_EQ(m.position, "0-0-0-0-0-0-0-0-0-0-0-0-6-6-S");
  EXPECT_TRUE(m.effect.game_over);
  const Outcome o = final_outcome(r, pos(r, m.position));
  EXPECT_EQ(o.south_store, 6);
  EXPECT_EQ(o.north_store, 6);
  EXPECT_EQ(o.winner, Winner::Draw);
}

// ------------------------------------------------------------------ rule set awari

TEST(OwareRules, AwariMoveLeavingOpponentEmptyOnlyWhenForced) {
  // F would be a grand slam (taking a and b, all of North's seeds): A and B do not empty North,
  // so F is illegal under awari. Abapa allows it.
  EXPECT_EQ(legal(rules_of("oware:1:awari"), "2-2-0-0-0-2-1-1-0-0-0-0-1-3-S"), "AB");
  EXPECT_EQ(legal(rules_of("oware:1"), "2-2-0-0-0-2-1-1-0-0-0-0-1-3-S"), "ABF");
}

TEST(OwareRules, AwariNonFeedingMoveIllegalWhenAFeedingMoveExists) {
  EXPECT_EQ(legal(rules_of("oware:1:awari"), "3-0-0-0-2-0-0-0-0-0-0-0-4-3-S"), "E");
}

TEST(OwareRules, AwariForcedMoveTakesAllSeeds) {
  // North is empty and no South move feeds it: every move is forced and legal; after it North
  // has no seeds at its turn and South takes every seed left.
  const Rules r = rules_of("oware:1:awari");
  const Position p = pos(r, "1-1-1-0-0-0-0-0-0-0-0-0-4-5-S");
  EXPECT_FALSE(is_game_over(r, p));
  EXPECT_EQ(legal(r, "1-1-1-0-0-0-0-0-0-0-0-0-4-5-S"), "ABC");
  const Played m = play(r, "1-1-1-0-0-0-0-0-0-0-0-0-4-5-S", 'A');
  EXPECT_EQ(m.position, "0-0-0-0-0-0-0-0-0-0-0-0-7-5-N");
  EXPECT_TRUE(m.effect.game_over);
  const Outcome o = final_outcome(r, pos(r, m.position));
  EXPECT_EQ(o.south_store, 7);
  EXPECT_EQ(o.north_store, 5);
  EXPECT_EQ(o.winner, Winner::South);
}

TEST(OwareRules, AwariForcedGrandSlamCapturesAndTakesAllSeeds) {
  // Both E and F take all of North's seeds, so both are legal; the grand slam captures and
  // South then takes the seeds left on the board.
  const Rules r = rules_of("oware:1:awari");
  EXPECT_EQ(legal(r, "0-0-0-0-3-2-1-1-0-0-0-0-1-4-S"), "EF");
  const Played f = play(r, "0-0-0-0-3-2-1-1-0-0-0-0-1-4-S", 'F');
  EXPECT_EQ(f.position, "0-0-0-0-0-0-0-0-0-0-0-0-8-4-N");
  EXPECT_EQ(f.effect.captured, 4);
  EXPECT_TRUE(f.effect.game_over);
  const Played e = play(r, "0-0-0-0-3-2-1-1-0-0-0-0-1-4-S", 'E');
  EXPECT_EQ(e.position, "0-0-0-0-0-0-0-0-0-0-0-0-8-4-N");
  EXPECT_EQ(e.effect.captured, 4);
  EXPECT_TRUE(e.effect.game_over);
}

TEST(OwareRules, AwariPlayerWithNoSeedsLosesSeedsLeftToOpponent) {
  const Rules r = rules_of("oware:1:awari");
  const Position p = pos(r, "0-0-0-0-0-0-1-2-0-0-0-0-4-5-S");
  EXPECT_TRUE(is_game_over(r, p));
  EXPECT_TRUE(generate_moves(r, p).empty());
  const Outcome o = final_outcome(r, p);
  EXPECT_EQ(o.south_store, 4);
  EXPECT_EQ(o.north_store, 8);
  EXPECT_EQ(o.winner, Winner::North);
}

TEST(OwareRules, AwariMajorityStillEndsGame) {
  const Rules r = rules_of("oware:1:awari");
  const Position p = pos(r, "1-0-0-0-0-0-0-0-0-0-0-1-7-3-S");
  EXPECT_TRUE(is_game_over(r, p));
  EXPECT_TRUE(generate_moves(r, p).empty());
  EXPECT_EQ(final_outcome(r, p).winner, Winner::South);
}

// ------------------------------------------------------------------ rule 7: repetition

TEST(OwareRules, ThirdRepetitionEndsGameSharingSeeds) {
  // Two single seeds chase each other round the ring; every move is forced (North's f at
  // ply 2 by must-feed) and nothing is captured. The start recurs every 12 plies.
  const Rules r = rules_of("oware:1");
  const std::string start = "0-0-0-0-0-1-0-0-0-0-0-1-6-4-S";
  Game game(r, pos(r, start));
  const std::string cycle = "FfAaBbCcDdEe";
  for (int lap = 0; lap < 2; ++lap) {
    for (size_t i = 0; i < cycle.size(); ++i) {
      ASSERT_FALSE(game.is_over()) << "lap " << lap << " ply " << i;
      ASSERT_EQ(game.legal_moves().size(), 1) << to_string(game.position());
      MoveEffect effect;
      ASSERT_TRUE(game.play(house_of(cycle[i]), &effect))
          << cycle[i] << " in " << to_string(game.position());
      EXPECT_EQ(effect.captured, 0);
      const bool last = lap == 1 && i + 1 == cycle.size();
      EXPECT_EQ(effect.game_over, last) << "lap " << lap << " ply " << i;
    }
    EXPECT_EQ(to_string(game.position()), start);
  }
  EXPECT_TRUE(game.is_over());
  EXPECT_TRUE(game.ended_by_repetition());
  EXPECT_TRUE(game.legal_moves().empty());
  EXPECT_FALSE(game.play(house_of('F')));
  // The 2 seeds on the board are shared: 6+1 against 4+1.
  const Outcome o = game.outcome();
  EXPECT_EQ(o.south_store, 7);
  EXPECT_EQ(o.north_store, 5);
  EXPECT_EQ(o.winner, Winner::South);
}

TEST(OwareRules, ThirdRepetitionLeavesOddSeedToNobody) {
  // Three single seeds walk round the ring without a capture and are back after 12 plies:
  // A-B, a-b, C-D, b-c, B-C, c-d, D-E, d-e, E-F, e-f, F-a, f-A.
  const Rules r = rules_of("oware:1");
  const std::string start = "1-0-1-0-0-0-1-0-0-0-0-0-5-4-S";
  Game game(r, pos(r, start));
  for (int lap = 0; lap < 2; ++lap) {
    for (char c : std::string("AaCbBcDdEeFf")) {
      ASSERT_FALSE(game.is_over()) << to_string(game.position());
      ASSERT_TRUE(game.play(house_of(c))) << c << " in " << to_string(game.position());
    }
    EXPECT_EQ(to_string(game.position()), start);
  }
  EXPECT_TRUE(game.is_over());
  EXPECT_TRUE(game.ended_by_repetition());
  // 3 seeds left: one each, the odd one to nobody.
  const Outcome o = game.outcome();
  EXPECT_EQ(o.south_store, 6);
  EXPECT_EQ(o.north_store, 5);
  EXPECT_EQ(o.winner, Winner::South);
}

TEST(OwareRules, SecondOccurrenceDoesNotEndGame) {
  const Rules r = rules_of("oware:1");
  Game game(r, pos(r, "0-0-0-0-0-1-0-0-0-0-0-1-6-4-S"));
  for (char c : std::string("FfAaBbCcDdEe")) ASSERT_TRUE(game.play(house_of(c)));
  EXPECT_FALSE(game.is_over());
  EXPECT_FALSE(game.ended_by_repetition());
  EXPECT_EQ(game.legal_moves().size(), 1);
}

// Issue 40: the rule costs one look-up a move. Scanning back to the last capture made a long
// game without one quadratic (20 000 moves: 0.33 s; these 50 000: about 2 s); counted, they take
// 0.08 s (Release), a few times that under the sanitizers.
TEST(OwareRules, ALongGameWithoutCapturesIsReplayedInLinearTime) {
  const std::string letters = testing_helpers::oware_game_without_captures(50000, 40);
  ASSERT_EQ(letters.size(), 50000u);
  const Rules r = Rules::oware();
  Game game(r);
  const auto start = std::chrono::steady_clock::now();
  for (char c : letters) ASSERT_TRUE(game.play(house_of(c)));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_FALSE(game.is_over());
  EXPECT_LT(seconds, 1.0) << "50 000 moves without a capture";
}

// The counts since the last capture follow every move and every undo, across captures too:
// random games with random undos, each position's end checked against a scan of the history.
TEST(OwareRules, RepetitionAfterUndoesMatchesAScanOfTheHistory) {
  int repetition_ends = 0, captures_undone = 0;
  for (const char* name : {"oware:1", "oware:2"}) {
    const Rules r = rules_of(name);
    Random random(7);
    for (int round = 0; round < 40; ++round) {
      Game game(r);
      std::vector<Position> history{game.position()};
      for (int step = 0; step < 400 && !game.is_over(); ++step) {
        if (history.size() > 1 && random.below(4) == 0) {
          const Position& before = history[history.size() - 2];
          captures_undone += before.store(Side::South) != history.back().store(Side::South) ||
                             before.store(Side::North) != history.back().store(Side::North);
          ASSERT_TRUE(game.undo());
          history.pop_back();
        } else {
          const MoveList legal = game.legal_moves();
          const Move move =
              legal[static_cast<int>(random.below(static_cast<uint32_t>(legal.size())))];
          ASSERT_TRUE(game.play(move));
          history.push_back(game.position());
        }
        const Position& now = history.back();
        int seen = 0;
        for (auto it = history.rbegin(); it != history.rend(); ++it) {
          if (it->store(Side::South) != now.store(Side::South) ||
              it->store(Side::North) != now.store(Side::North))
            break;
          seen += *it == now;
        }
        ASSERT_EQ(game.ended_by_repetition(), seen >= 3)
            << name << " round " << round << " step " << step << " " << to_string(now);
      }
      repetition_ends += game.ended_by_repetition();
    }
  }
  // The games went where the test looks.
  EXPECT_GT(repetition_ends, 0);
  EXPECT_GT(captures_undone, 0);
}

}  // namespace
}  // namespace mancala::oware_rules_test
