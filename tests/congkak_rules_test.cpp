// Congkak, solver/rules/README.md "Congkak": relay sowing, captures and the end of the game, each
// on an exact board. Small boards: congkak:3:2 has the ring A B C [S] a b c [N] (slots 0..7), 12
// seeds, opposite houses A-c, B-b, C-a. Position strings: A-B-C-a-b-c-S store-N store-side.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "solver/rules/moves.h"
#include "solver/rules/position.h"
#include "solver/rules/rules.h"
#include "tests/rules_test_helpers.h"

// A namespace per file: the suite is compiled in unity batches.
namespace mancala::congkak_rules_test {
namespace {

using namespace testing_helpers;

constexpr int kB = 1, kC = 2, kSouthStore = 3, kNa = 4, kNb = 5, kNc = 6, kNorthStore = 7;

// ------------------------------------------------------------------ rule 1: start

TEST(CongkakRules, StartHasNSeedsPerHouseAndSouthMovesFirst) {
  const Rules r = rules_of("congkak");
  EXPECT_EQ(to_string(start_position(r)), "7-7-7-7-7-7-7-7-7-7-7-7-7-7-0-0-S");
  EXPECT_EQ(to_string(start_position(rules_of("congkak:3:2"))), "2-2-2-2-2-2-0-0-S");
  EXPECT_EQ(legal(r, "7-7-7-7-7-7-7-7-7-7-7-7-7-7-0-0-S"), "ABCDEFG");
  EXPECT_FALSE(is_game_over(r, start_position(r)));
}

// ------------------------------------------------------------------ rule 3: where the last seed
// lands

TEST(CongkakRules, LastSeedInOwnStoreGivesExtraTurn) {
  const Rules r = rules_of("congkak:3:2");
  const Played m = play(r, "2-2-2-2-2-2-0-0-S", 'B');
  EXPECT_EQ(m.position, "2-0-3-2-2-2-1-0-S");
  EXPECT_TRUE(m.effect.extra_turn);
  EXPECT_EQ(m.effect.last_slot, kSouthStore);
  EXPECT_EQ(m.effect.relays, 0);
  // Any of the mover's houses may be played next.
  EXPECT_EQ(legal(r, m.position), "AC");
}

TEST(CongkakRules, NorthLastSeedInOwnStoreGivesExtraTurn) {
  const Played m = play(rules_of("congkak:3:2"), "2-2-2-2-2-2-0-0-N", 'b');
  EXPECT_EQ(m.position, "2-2-2-2-0-3-0-1-N");
  EXPECT_TRUE(m.effect.extra_turn);
  EXPECT_EQ(m.effect.last_slot, kNorthStore);
}

TEST(CongkakRules, RelaySowingPicksUpNonEmptyHouse) {
  // A's seed makes B 2: B is picked up and sown on, C then the store: extra turn.
  const Played m = play(rules_of("congkak:3:2"), "1-1-0-3-3-3-1-0-S", 'A');
  EXPECT_EQ(m.position, "0-0-1-3-3-3-2-0-S");
  EXPECT_EQ(m.effect.relays, 1);
  EXPECT_TRUE(m.effect.extra_turn);
  EXPECT_EQ(m.effect.last_slot, kSouthStore);
  EXPECT_EQ(m.effect.captured, 0);
}

TEST(CongkakRules, RelayFromOpponentHouse) {
  // C sows store, a; a held 1, so its 2 are picked up: b, c. c was empty: the turn ends.
  const Played m = play(rules_of("congkak:3:2"), "3-1-2-1-2-0-2-1-S", 'C');
  EXPECT_EQ(m.position, "3-1-0-0-3-1-3-1-N");
  EXPECT_EQ(m.effect.relays, 1);
  EXPECT_EQ(m.effect.last_slot, kNc);
  EXPECT_FALSE(m.effect.extra_turn);
  EXPECT_EQ(m.effect.captured, 0);
}

TEST(CongkakRules, RelayChainsUntilLastSeedFallsInEmptyHouse) {
  // From the start, A: B C (C held 2) -> S a b (b held 2) -> c, skip N, A B (B held 3)
  // -> C S a b, and b was emptied by the second relay: the turn ends there.
  const Played m = play(rules_of("congkak:3:2"), "2-2-2-2-2-2-0-0-S", 'A');
  EXPECT_EQ(m.position, "1-0-1-4-1-3-2-0-N");
  EXPECT_EQ(m.effect.relays, 3);
  EXPECT_EQ(m.effect.last_slot, kNb);
  EXPECT_FALSE(m.effect.extra_turn);
  EXPECT_EQ(m.effect.captured, 0);
}

TEST(CongkakRules, LandingInOpponentEmptyHouseEndsTurn) {
  const Played m = play(rules_of("congkak:3:2"), "2-2-2-0-3-3-0-0-S", 'C');
  EXPECT_EQ(m.position, "2-2-0-1-3-3-1-0-N");
  EXPECT_EQ(m.effect.relays, 0);
  EXPECT_EQ(m.effect.captured, 0);
  EXPECT_EQ(m.effect.last_slot, kNa);
  EXPECT_FALSE(m.effect.extra_turn);
}

TEST(CongkakRules, CaptureInOwnEmptyHouse) {
  // A's seed falls in empty B; the seed and opposite b's 3 go to South's store.
  const Played m = play(rules_of("congkak:3:2"), "1-0-2-2-3-2-2-0-S", 'A');
  EXPECT_EQ(m.position, "0-0-2-2-0-2-6-0-N");
  EXPECT_EQ(m.effect.captured, 4);
  EXPECT_EQ(m.effect.captured_slots, (1u << kB) | (1u << kNb));
  EXPECT_EQ(m.effect.relays, 0);
  EXPECT_FALSE(m.effect.game_over);
}

TEST(CongkakRules, CaptureInOwnEmptyHouseTakesLoneSeedWhenOppositeEmpty) {
  const Played m = play(rules_of("congkak:3:2"), "1-0-2-2-0-4-3-0-S", 'A');
  EXPECT_EQ(m.position, "0-0-2-2-0-4-4-0-N");
  EXPECT_EQ(m.effect.captured, 1);
  EXPECT_TRUE(m.effect.captured_slots & (1u << kB));
}

TEST(CongkakRules, NorthCaptureInOwnEmptyHouse) {
  // a's seed falls in North's empty b; opposite B holds 3.
  const Played m = play(rules_of("congkak:3:2"), "2-3-1-1-0-2-1-2-N", 'a');
  EXPECT_EQ(m.position, "2-0-1-0-0-2-1-6-S");
  EXPECT_EQ(m.effect.captured, 4);
  EXPECT_EQ(m.effect.captured_slots, (1u << kNb) | (1u << kB));
}

TEST(CongkakRules, CaptureAfterRelayAroundTheRing) {
  // C: S a b (b held 1) -> c, skip N, A; A was empty: A's seed and c's 3 are captured.
  // South's row is then empty, but North is to move and has seeds: the game goes on.
  const Rules r = rules_of("congkak:3:2");
  const Played m = play(r, "0-0-3-2-1-2-2-2-S", 'C');
  EXPECT_EQ(m.position, "0-0-0-3-0-0-7-2-N");
  EXPECT_EQ(m.effect.relays, 1);
  EXPECT_EQ(m.effect.captured, 4);
  EXPECT_FALSE(m.effect.game_over);
  EXPECT_FALSE(is_game_over(r, pos(r, m.position)));
  EXPECT_EQ(legal(r, m.position), "a");
}

TEST(CongkakRules, NorthRelaySkipsSouthStoreAndCaptures) {
  // c: N A (A held 2) -> B C, skip South's store, a; a was empty: a's seed and C's 2 go to
  // North's store.
  const Played m = play(rules_of("congkak:3:2"), "2-1-1-0-2-2-2-2-N", 'c');
  EXPECT_EQ(m.position, "0-2-0-0-2-0-2-6-S");
  EXPECT_EQ(m.effect.relays, 1);
  EXPECT_EQ(m.effect.captured, 3);
  EXPECT_EQ(m.effect.captured_slots, (1u << kNa) | (1u << kC));
  EXPECT_FALSE(m.effect.game_over);
}

TEST(CongkakRules, LargeHouseLapsTheRingAndRelays) {
  // 9 seeds from A go once round (B C S a b c, skip N, A B C); C already got a seed on this
  // lap, so it is picked up: S a (a held 2) -> b c, skip N, A (A held 1) -> B C; C was emptied
  // by the first relay: C's seed is captured with the empty a.
  const Rules r = rules_of("congkak:3:2");
  const Played m = play(r, "9-0-0-1-1-0-1-0-S", 'A');
  EXPECT_EQ(m.position, "0-3-0-0-3-2-4-0-N");
  EXPECT_EQ(m.effect.relays, 3);
  EXPECT_EQ(m.effect.captured, 1);
  EXPECT_EQ(m.effect.last_slot, kC);
}

TEST(CongkakRules, StandardBoardRelayThenCapture) {
  // congkak:7:7, G: store a-f (f held 7) -> g, skip N, A-G; G was emptied: G's seed and the
  // opposite a's 8 are captured.
  const Played m = play(rules_of("congkak"), "7-7-7-7-7-7-7-7-7-7-7-7-7-7-0-0-S", 'G');
  EXPECT_EQ(m.position, "8-8-8-8-8-8-0-0-8-8-8-8-0-8-10-0-N");
  EXPECT_EQ(m.effect.relays, 1);
  EXPECT_EQ(m.effect.captured, 9);
  EXPECT_EQ(m.effect.last_slot, 6);
  EXPECT_EQ(m.effect.captured_slots, (1u << 6) | (1u << 8));
}

// ------------------------------------------------------------------ variant no-capture-first-lap

TEST(CongkakRules, NoCaptureFirstLapVariantIgnoresCaptureBeforePassingStore) {
  // Same board as CaptureInOwnEmptyHouse: the sowing never passed South's store, so the seed
  // simply stays in B and the turn ends.
  const Played m = play(rules_of("congkak:3:2:no-capture-first-lap"), "1-0-2-2-3-2-2-0-S", 'A');
  EXPECT_EQ(m.position, "0-1-2-2-3-2-2-0-N");
  EXPECT_EQ(m.effect.captured, 0);
  EXPECT_EQ(m.effect.captured_slots, 0u);
  EXPECT_FALSE(m.effect.extra_turn);
}

TEST(CongkakRules, NoCaptureFirstLapVariantCapturesAfterPassingStore) {
  // Same board as CaptureAfterRelayAroundTheRing: the sowing passed South's store first.
  const Played m = play(rules_of("congkak:3:2:no-capture-first-lap"), "0-0-3-2-1-2-2-2-S", 'C');
  EXPECT_EQ(m.position, "0-0-0-3-0-0-7-2-N");
  EXPECT_EQ(m.effect.captured, 4);
}

TEST(CongkakRules, NoCaptureFirstLapVariantNorthCapturesAfterPassingStore) {
  const Played m = play(rules_of("congkak:3:2:no-capture-first-lap"), "2-1-1-0-2-2-2-2-N", 'c');
  EXPECT_EQ(m.position, "0-2-0-0-2-0-2-6-S");
  EXPECT_EQ(m.effect.captured, 3);
}

TEST(CongkakRules, NoCaptureFirstLapVariantNorthNoCaptureBeforePassingStore) {
  const Played m = play(rules_of("congkak:3:2:no-capture-first-lap"), "2-3-1-1-0-2-1-2-N", 'a');
  EXPECT_EQ(m.position, "2-3-1-0-1-2-1-2-S");
  EXPECT_EQ(m.effect.captured, 0);
}

// ------------------------------------------------------------------ rule 5: end of the game

TEST(CongkakRules, PlayerWithNoSeedsEndsGameOpponentTakesOwnSeeds) {
  // South's capture takes North's last seeds; North, to move, has none: South takes C's 2.
  const Rules r = rules_of("congkak:3:2");
  const Played m = play(r, "1-0-2-0-2-0-3-4-S", 'A');
  EXPECT_EQ(m.position, "0-0-0-0-0-0-8-4-N");
  EXPECT_EQ(m.effect.captured, 3);
  EXPECT_TRUE(m.effect.game_over);
  const Position end = pos(r, m.position);
  EXPECT_TRUE(is_game_over(r, end));
  EXPECT_TRUE(generate_moves(r, end).empty());
  const Outcome o = final_outcome(r, end);
  EXPECT_EQ(o.south_store, 8);
  EXPECT_EQ(o.north_store, 4);
  EXPECT_EQ(o.winner, Winner::South);
}

TEST(CongkakRules, ExtraTurnWithNoSeedsLeftEndsGame) {
  // South's last seed goes to its store; South moves again but has no seeds: North takes its 6.
  const Rules r = rules_of("congkak:3:2");
  const Played m = play(r, "0-0-1-2-2-2-3-2-S", 'C');
  EXPECT_EQ(m.position, "0-0-0-0-0-0-4-8-S");
  EXPECT_TRUE(m.effect.game_over);
  EXPECT_FALSE(m.effect.extra_turn);
  const Outcome o = final_outcome(r, pos(r, m.position));
  EXPECT_EQ(o.south_store, 4);
  EXPECT_EQ(o.north_store, 8);
  EXPECT_EQ(o.winner, Winner::North);
}

TEST(CongkakRules, TypedPositionOverOnlyWhenMoverHasNoSeeds) {
  const Rules r = rules_of("congkak:3:2");
  const Position mover_empty = pos(r, "0-0-0-2-2-2-3-3-S");
  EXPECT_TRUE(is_game_over(r, mover_empty));
  EXPECT_TRUE(generate_moves(r, mover_empty).empty());
  const Outcome o = final_outcome(r, mover_empty);
  EXPECT_EQ(o.south_store, 3);
  EXPECT_EQ(o.north_store, 9);
  EXPECT_EQ(o.winner, Winner::North);
  // The opponent's row is empty but the mover has seeds: the game goes on.
  const Position opponent_empty = pos(r, "2-2-2-0-0-0-3-3-S");
  EXPECT_FALSE(is_game_over(r, opponent_empty));
  EXPECT_EQ(legal(r, "2-2-2-0-0-0-3-3-S"), "ABC");
}

TEST(CongkakRules, LargerStoreWinsEqualStoresDraw) {
  const Rules r = rules_of("congkak:3:2");
  EXPECT_EQ(final_outcome(r, pos(r, "0-0-0-0-0-0-6-6-S")).winner, Winner::Draw);
  EXPECT_EQ(final_outcome(r, pos(r, "0-0-0-0-0-0-5-7-N")).winner, Winner::North);
}

}  // namespace
}  // namespace mancala::congkak_rules_test
