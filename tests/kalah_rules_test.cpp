// Kalah, solver/rules/README.md "Kalah": one test per rule and per variant, each on an exact board.
// Small boards: kalah:3:2 has the ring A B C [S] a b c [N] (slots 0..7), 12 seeds, and
// opposite houses A-c, B-b, C-a. Position strings: A-B-C-a-b-c-South store-North store-side.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "solver/rules/moves.h"
#include "solver/rules/position.h"
#include "solver/rules/rules.h"
#include "tests/rules_test_helpers.h"

// A namespace per file: the suite is compiled in unity batches.
namespace mancala::kalah_rules_test {
namespace {

using namespace testing_helpers;

// Slot numbers on kalah:3:2.
constexpr int kA = 0, kB = 1, kC = 2, kSouthStore = 3, kNa = 4, kNb = 5, kNc = 6;

// ------------------------------------------------------------------ rule 1: start

TEST(KalahRules, StartHasNSeedsPerHouseAndEmptyStores) {
  EXPECT_EQ(to_string(start_position(rules_of("kalah"))), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
  EXPECT_EQ(to_string(start_position(rules_of("kalah:3:2"))), "2-2-2-2-2-2-0-0-S");
  EXPECT_EQ(to_string(start_position(rules_of("kalah:5:7"))), "7-7-7-7-7-7-7-7-7-7-0-0-S");
  EXPECT_EQ(legal(rules_of("kalah"), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"), "ABCDEF");
  EXPECT_FALSE(is_game_over(rules_of("kalah"), start_position(rules_of("kalah"))));
}

// ------------------------------------------------------------------ rule 2: sowing

TEST(KalahRules, LegalMovesAreTheMoversNonEmptyHouses) {
  const Rules r = rules_of("kalah:3:2");
  EXPECT_EQ(legal(r, "0-3-0-1-0-2-4-2-S"), "B");
  EXPECT_EQ(legal(r, "0-3-0-1-0-2-4-2-N"), "ac");
  EXPECT_EQ(legal(r, "2-2-2-2-2-2-0-0-N"), "abc");
}

TEST(KalahRules, SowingDropsOneSeedInEachFollowingSlot) {
  const Played m = play(rules_of("kalah:3:2"), "2-2-2-2-2-2-0-0-S", 'A');
  EXPECT_EQ(m.position, "0-3-3-2-2-2-0-0-N");
  EXPECT_EQ(m.effect.last_slot, kC);
  EXPECT_EQ(m.effect.captured, 0);
  EXPECT_FALSE(m.effect.extra_turn);
  EXPECT_FALSE(m.effect.game_over);
}

TEST(KalahRules, SowingFillsOwnStoreAndContinuesIntoOpponentRow) {
  const Played m = play(rules_of("kalah:3:2"), "2-2-2-2-2-2-0-0-S", 'C');
  EXPECT_EQ(m.position, "2-2-0-3-2-2-1-0-N");
  EXPECT_EQ(m.effect.last_slot, kNa);
  EXPECT_FALSE(m.effect.extra_turn);
}

TEST(KalahRules, StandardBoardSowingFromD) {
  const Played m = play(rules_of("kalah"), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", 'D');
  EXPECT_EQ(m.position, "4-4-4-0-5-5-5-4-4-4-4-4-1-0-N");
  EXPECT_EQ(m.effect.last_slot, 7);  // a
}

TEST(KalahRules, SowingSkipsOpponentStore) {
  // C sows S-store, a, b, c, (North's store skipped), A.
  const Played m = play(rules_of("kalah:3:2"), "1-0-5-2-2-2-0-0-S", 'C');
  EXPECT_EQ(m.position, "2-0-0-3-3-3-1-0-N");
  EXPECT_EQ(m.effect.last_slot, kA);
  EXPECT_EQ(m.effect.captured, 0);
}

TEST(KalahRules, NorthSowingSkipsSouthStore) {
  // c sows N-store, A, B, C, (South's store skipped), a.
  const Played m = play(rules_of("kalah:3:2"), "2-2-2-1-0-5-0-0-N", 'c');
  EXPECT_EQ(m.position, "3-3-3-2-0-0-0-1-S");
  EXPECT_EQ(m.effect.last_slot, kNa);
  EXPECT_EQ(m.effect.captured, 0);
}

TEST(KalahRules, LargeHouseLapsTheRingSeveralTimes) {
  // kalah:2:6, ring A B [S] a b [N]: 20 seeds from A make four laps of B S a b A.
  // A was refilled by the earlier laps, so the last seed does not land in an empty house.
  const Played m = play(rules_of("kalah:2:6"), "20-0-2-2-0-0-S", 'A');
  EXPECT_EQ(m.position, "4-4-6-6-4-0-N");
  EXPECT_EQ(m.effect.last_slot, 0);
  EXPECT_EQ(m.effect.captured, 0);
  EXPECT_FALSE(m.effect.extra_turn);
}

TEST(KalahRules, LargeHouseLapWithRemainder) {
  // 10 seeds from B: C S a b c A B C S a -- past the North store once, ending in a.
  const Played m = play(rules_of("kalah:3:2"), "0-10-0-1-0-1-0-0-S", 'B');
  EXPECT_EQ(m.position, "1-1-2-3-1-2-2-0-N");
  EXPECT_EQ(m.effect.last_slot, kNa);
}

// ------------------------------------------------------------------ rule 3: extra turn

TEST(KalahRules, LastSeedInOwnStoreGivesExtraTurn) {
  const Rules r = rules_of("kalah:3:2");
  const Played m = play(r, "2-2-2-2-2-2-0-0-S", 'B');
  EXPECT_EQ(m.position, "2-0-3-2-2-2-1-0-S");
  EXPECT_TRUE(m.effect.extra_turn);
  EXPECT_EQ(m.effect.last_slot, kSouthStore);
  EXPECT_EQ(legal(r, m.position), "AC");
}

TEST(KalahRules, StandardBoardLastSeedInStoreFromC) {
  const Played m = play(rules_of("kalah"), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", 'C');
  EXPECT_EQ(m.position, "4-4-0-5-5-5-4-4-4-4-4-4-1-0-S");
  EXPECT_TRUE(m.effect.extra_turn);
}

TEST(KalahRules, NorthLastSeedInOwnStoreGivesExtraTurn) {
  const Played m = play(rules_of("kalah:3:2"), "2-2-2-2-2-2-0-0-N", 'b');
  EXPECT_EQ(m.position, "2-2-2-2-0-3-0-1-N");
  EXPECT_TRUE(m.effect.extra_turn);
  EXPECT_EQ(m.effect.last_slot, 7);
}

TEST(KalahRules, ExtraTurnsHaveNoLimit) {
  const Rules r = rules_of("kalah:3:2");
  const Played first = play(r, "3-0-1-2-2-2-2-0-S", 'C');
  EXPECT_EQ(first.position, "3-0-0-2-2-2-3-0-S");
  EXPECT_TRUE(first.effect.extra_turn);
  const Played second = play(r, first.position, 'A');
  EXPECT_EQ(second.position, "0-1-1-2-2-2-4-0-S");
  EXPECT_TRUE(second.effect.extra_turn);
  const Played third = play(r, second.position, 'C');
  EXPECT_EQ(third.position, "0-1-0-2-2-2-5-0-S");
  EXPECT_TRUE(third.effect.extra_turn);
}

// ------------------------------------------------------------------ rule 4: capture

TEST(KalahRules, CaptureTakesOppositeSeedsAndCapturingSeed) {
  // A's seed falls in empty B; opposite b holds 3: 4 seeds go to South's store.
  const Played m = play(rules_of("kalah:3:2"), "1-0-3-2-3-2-1-0-S", 'A');
  EXPECT_EQ(m.position, "0-0-3-2-0-2-5-0-N");
  EXPECT_EQ(m.effect.captured, 4);
  EXPECT_EQ(m.effect.captured_slots, (1u << kB) | (1u << kNb));
  EXPECT_EQ(m.effect.last_slot, kB);
  EXPECT_FALSE(m.effect.game_over);
}

TEST(KalahRules, CaptureUsesOppositeHouseAcrossTheBoard) {
  // B's seed falls in empty C, whose opposite house is a (3 seeds).
  const Played m = play(rules_of("kalah:3:2"), "2-1-0-3-1-1-4-0-S", 'B');
  EXPECT_EQ(m.position, "2-0-0-0-1-1-8-0-N");
  EXPECT_EQ(m.effect.captured, 4);
  EXPECT_EQ(m.effect.captured_slots, (1u << kC) | (1u << kNa));
}

TEST(KalahRules, StandardBoardCaptureUsesOppositeHouse) {
  // Kalah(6,4): E's seed falls in empty F, whose opposite house is a (5 seeds).
  const Played m = play(rules_of("kalah"), "4-4-4-4-1-0-5-4-4-4-4-4-3-3-S", 'E');
  EXPECT_EQ(m.position, "4-4-4-4-0-0-0-4-4-4-4-4-9-3-N");
  EXPECT_EQ(m.effect.captured, 6);
  EXPECT_EQ(m.effect.captured_slots, (1u << 5) | (1u << 7));
}

TEST(KalahRules, NorthCaptureTakesOppositeSeeds) {
  // a's seed falls in empty b; opposite B holds 3.
  const Played m = play(rules_of("kalah:3:2"), "2-3-2-1-0-2-0-2-N", 'a');
  EXPECT_EQ(m.position, "2-0-2-0-0-2-0-6-S");
  EXPECT_EQ(m.effect.captured, 4);
  EXPECT_EQ(m.effect.captured_slots, (1u << kNb) | (1u << kB));
}

TEST(KalahRules, NoCaptureWhenOppositeEmpty) {
  const Played m = play(rules_of("kalah:3:2"), "1-0-3-3-0-2-3-0-S", 'A');
  EXPECT_EQ(m.position, "0-1-3-3-0-2-3-0-N");
  EXPECT_EQ(m.effect.captured, 0);
  EXPECT_EQ(m.effect.captured_slots, 0u);
}

TEST(KalahRules, EmptyCaptureVariantCapturesLoneSeed) {
  const Played m = play(rules_of("kalah:3:2:empty-capture"), "1-0-3-3-0-2-3-0-S", 'A');
  EXPECT_EQ(m.position, "0-0-3-3-0-2-4-0-N");
  EXPECT_EQ(m.effect.captured, 1);
  EXPECT_TRUE(m.effect.captured_slots & (1u << kB));
}

TEST(KalahRules, EmptyCaptureVariantStillTakesOppositeSeeds) {
  const Played m = play(rules_of("kalah:3:2:empty-capture"), "1-0-3-2-3-2-1-0-S", 'A');
  EXPECT_EQ(m.position, "0-0-3-2-0-2-5-0-N");
  EXPECT_EQ(m.effect.captured, 4);
}

TEST(KalahRules, NoCaptureWhenLandingHouseWasNotEmpty) {
  const Played m = play(rules_of("kalah:3:2"), "1-1-2-2-3-2-1-0-S", 'A');
  EXPECT_EQ(m.position, "0-2-2-2-3-2-1-0-N");
  EXPECT_EQ(m.effect.captured, 0);
}

TEST(KalahRules, NoCaptureInOpponentsEmptyHouse) {
  // C's last seed lands in North's empty a; its opposite C is South's, but a is not South's.
  const Played m = play(rules_of("kalah:3:2"), "2-2-2-0-3-3-0-0-S", 'C');
  EXPECT_EQ(m.position, "2-2-0-1-3-3-1-0-N");
  EXPECT_EQ(m.effect.captured, 0);
  const Played e = play(rules_of("kalah:3:2:empty-capture"), "2-2-2-0-3-3-0-0-S", 'C');
  EXPECT_EQ(e.position, "2-2-0-1-3-3-1-0-N");
  EXPECT_EQ(e.effect.captured, 0);
}

TEST(KalahRules, LapEndingInEmptiedStartHouseCaptures) {
  // 7 seeds from A go once round (B C S a b c, skip N, A): A was emptied, so it captures
  // its own seed and opposite c.
  const Played m = play(rules_of("kalah:3:2"), "7-0-0-1-1-1-2-0-S", 'A');
  EXPECT_EQ(m.position, "0-1-1-2-2-0-6-0-N");
  EXPECT_EQ(m.effect.captured, 3);
  EXPECT_EQ(m.effect.last_slot, kA);
  EXPECT_EQ(m.effect.captured_slots, (1u << kA) | (1u << kNc));
}

// ------------------------------------------------------------------ rule 5: end of the game

TEST(KalahRules, EmptyRowEndsGameAndSweepsSeedsToOwners) {
  // South's last seed goes to its store, leaving South's row empty: North keeps its 6 seeds.
  const Rules r = rules_of("kalah:3:2");
  const Played m = play(r, "0-0-1-2-3-1-3-2-S", 'C');
  EXPECT_EQ(m.position, "0-0-0-0-0-0-4-8-S");
  EXPECT_TRUE(m.effect.game_over);
  EXPECT_FALSE(m.effect.extra_turn);
  const Position end = pos(r, m.position);
  EXPECT_TRUE(is_game_over(r, end));
  EXPECT_TRUE(generate_moves(r, end).empty());
  const Outcome o = final_outcome(r, end);
  EXPECT_EQ(o.south_store, 4);
  EXPECT_EQ(o.north_store, 8);
  EXPECT_EQ(o.winner, Winner::North);
  EXPECT_EQ(o.difference(), -4);
}

TEST(KalahRules, CaptureEmptyingOpponentRowEndsGame) {
  // The capture takes North's last seeds; South's remaining 3 go to South's store.
  const Rules r = rules_of("kalah:3:2");
  const Played m = play(r, "1-0-3-0-2-0-4-2-S", 'A');
  EXPECT_EQ(m.position, "0-0-0-0-0-0-10-2-N");
  EXPECT_TRUE(m.effect.game_over);
  EXPECT_EQ(m.effect.captured, 3);
  const Outcome o = final_outcome(r, pos(r, m.position));
  EXPECT_EQ(o.south_store, 10);
  EXPECT_EQ(o.north_store, 2);
  EXPECT_EQ(o.winner, Winner::South);
}

TEST(KalahRules, SowingIntoOpponentRowLeavingOwnRowEmptyEndsGame) {
  // C's 2 seeds go to the store and a: South's row is empty, North sweeps its 7.
  const Rules r = rules_of("kalah:3:2");
  const Played m = play(r, "0-0-2-1-2-3-2-2-S", 'C');
  EXPECT_EQ(m.position, "0-0-0-0-0-0-3-9-N");
  EXPECT_TRUE(m.effect.game_over);
  EXPECT_EQ(final_outcome(r, pos(r, m.position)).winner, Winner::North);
}

TEST(KalahRules, TypedPositionWithAnEmptyRowIsOver) {
  const Rules r = rules_of("kalah:3:2");
  // The mover's row is empty.
  const Position south_empty = pos(r, "0-0-0-2-2-2-3-3-S");
  EXPECT_TRUE(is_game_over(r, south_empty));
  EXPECT_TRUE(generate_moves(r, south_empty).empty());
  Outcome o = final_outcome(r, south_empty);
  EXPECT_EQ(o.south_store, 3);
  EXPECT_EQ(o.north_store, 9);
  EXPECT_EQ(o.winner, Winner::North);
  // The opponent's row is empty: also over, though the mover has seeds.
  const Position north_empty = pos(r, "2-2-2-0-0-0-3-3-S");
  EXPECT_TRUE(is_game_over(r, north_empty));
  EXPECT_TRUE(generate_moves(r, north_empty).empty());
  o = final_outcome(r, north_empty);
  EXPECT_EQ(o.south_store, 9);
  EXPECT_EQ(o.north_store, 3);
  EXPECT_EQ(o.winner, Winner::South);
}

TEST(KalahRules, OneHouseBoardEndsAfterFirstMove) {
  // kalah:1:1, ring A [S] a [N]: A's seed goes to the store; South's row is empty, so the game
  // ends and North's seed goes to North's store.
  const Rules r = rules_of("kalah:1:1");
  const Played m = play(r, "1-1-0-0-S", 'A');
  EXPECT_EQ(m.position, "0-0-1-1-S");
  EXPECT_TRUE(m.effect.game_over);
  EXPECT_EQ(final_outcome(r, pos(r, m.position)).winner, Winner::Draw);
}

// ------------------------------------------------------------------ rule 6: winner

TEST(KalahRules, LargerStoreWinsEqualStoresDraw) {
  const Rules r = rules_of("kalah:3:2");
  Outcome o = final_outcome(r, pos(r, "0-0-0-0-0-0-6-6-N"));
  EXPECT_EQ(o.winner, Winner::Draw);
  EXPECT_EQ(o.difference(), 0);
  o = final_outcome(r, pos(r, "0-0-0-0-0-0-7-5-N"));
  EXPECT_EQ(o.winner, Winner::South);
  EXPECT_EQ(o.difference(), 2);
  o = final_outcome(r, pos(r, "0-0-0-0-0-0-5-7-S"));
  EXPECT_EQ(o.winner, Winner::North);
}

TEST(KalahRules, NotOverWhileBothRowsHoldSeeds) {
  const Rules r = rules_of("kalah:3:2");
  const Position p = pos(r, "0-0-1-0-0-1-5-5-N");
  EXPECT_FALSE(is_game_over(r, p));
  EXPECT_EQ(legal(r, "0-0-1-0-0-1-5-5-N"), "c");
}

}  // namespace
}  // namespace mancala::kalah_rules_test
