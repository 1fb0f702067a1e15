// The root probe (solver/tables/exact_values.h): every move of a position valued from the tables,
// the one function the search, the Pro level, `db query` and the verifier use.
#include <gtest/gtest.h>

#include <optional>

#include "solver/search/search_budget.h"
#include "solver/tables/built_tables.h"
#include "solver/tables/exact_values.h"
#include "solver/tables/table_rules.h"
#include "solver/util/random.h"
#include "tests/test_positions.h"

// A namespace per file: the suite is compiled in unity batches.
namespace mancala::exact_values_test {
namespace {

// Tables that fail on one position (as a corrupt layer would), and answer elsewhere.
class FailingOn : public ExactValues {
 public:
  FailingOn(const ExactValues& tables, const Position& failing)
      : tables_(tables), failing_(failing) {}
  std::optional<int> value(const Position& p) const override {
    if (table_key(p).counts == table_key(failing_).counts &&
        p.side_to_move == failing_.side_to_move)
      return std::nullopt;
    return tables_.value(p);
  }
  int max_seeds() const override { return tables_.max_seeds(); }

 private:
  const ExactValues& tables_;
  Position failing_;
};

TEST(ProbeRoot, ValuesEveryMoveAsTheTablesDoAndMarksTheBest) {
  Random random(17);
  for (const char* game : {"kalah", "kalah:6:4:empty-capture", "oware:4:awari"}) {
    const Rules rules = *table_rules_for(*parse_rules(game));
    const BuiltTables tables(rules, 9);
    for (int i = 0; i < 200; ++i) {
      const Position p = scattered_position(rules, random, 1 + static_cast<int>(random.below(9)));
      const RootProbe probe = probe_root(rules, tables, p);
      ASSERT_TRUE(probe.ok()) << game << " " << to_string(p);
      EXPECT_EQ(probe.value, *tables.value(p)) << game << " " << to_string(p);
      const MoveList moves = generate_moves(rules, p);
      ASSERT_EQ(probe.count, moves.size());
      bool some_best = probe.count == 0;
      for (int k = 0; k < probe.count; ++k) {
        const Move m = probe.moves[static_cast<size_t>(k)];
        EXPECT_EQ(m, moves[k]);
        const Position after = apply_move(rules, p, m);
        const int expected = table_move_value(p, after, [&](const Position& q) {
          return q.seeds_on_board() == 0 ? 0 : *tables.value(q);
        });
        EXPECT_EQ(probe.move_values[static_cast<size_t>(k)], expected)
            << game << " " << to_string(p);
        EXPECT_LE(expected, probe.value);
        some_best = some_best || probe.is_best(k);
      }
      EXPECT_TRUE(some_best);
    }
  }
}

TEST(ProbeRoot, IsNotCoveredAboveTheTables) {
  const Rules rules = *table_rules_for(Rules::kalah());
  const BuiltTables tables(rules, 4);
  const Position p = *parse_position(Rules::kalah(), "1-1-1-0-0-0-1-1-0-0-0-0-22-21-S");
  EXPECT_EQ(probe_root(rules, tables, p).status, ProbeStatus::NotCovered);
}

TEST(ProbeRoot, FailsWhenAProbeOfAMoveFails) {
  const Rules rules = *table_rules_for(Rules::kalah());
  const BuiltTables tables(rules, 6);
  const Position p = *parse_position(Rules::kalah(), "0-0-0-0-2-1-0-0-1-1-1-0-21-21-S");
  const Position after_f = apply_move(rules, p, 5);  // F: one seed into the store, extra turn
  const FailingOn failing(tables, after_f);
  const RootProbe probe = probe_root(rules, failing, p);
  EXPECT_EQ(probe.status, ProbeStatus::Failed);
  EXPECT_EQ(probe.count, 0);
  EXPECT_FALSE(exact_move_value(rules, failing, p, 5).has_value());
  EXPECT_TRUE(exact_move_value(rules, failing, p, 4).has_value());
}

TEST(ProbeRoot, AnEndedGameIsWorthWhatItsEndGives) {
  // Kalah: South's row is empty, so the game is over and North's two seeds go to North.
  const Rules rules = Rules::kalah();
  const BuiltTables tables(rules, 4);
  const Position p = *parse_position(rules, "0-0-0-0-0-0-1-1-0-0-0-0-24-22-S");
  const RootProbe probe = probe_root(rules, tables, p);
  ASSERT_TRUE(probe.ok());
  EXPECT_EQ(probe.count, 0);
  EXPECT_EQ(probe.value, -2);
}

// A move that gives one side more than half of all seeds ends an Oware game by rule 6 with the
// seeds left on the board counting for nobody. Under the game's rules the root probe scores the
// move so; under the table rules play goes on and the seeds left are played out.
TEST(ProbeRoot, ScoresAnOwareMajorityByTheRulesItIsGiven) {
  const Rules game = Rules::oware(4);
  const Rules table_rules = *table_rules_for(game);
  const BuiltTables tables(game, 6);
  // North to move, 1 ahead (23 to 22). `f` sows its seed into South's A, which then holds 2:
  // North captures them and holds 25 of the 48 seeds, a majority. South's F keeps its seed.
  const Position p = *parse_position(game, "1-0-0-0-0-1-0-0-0-0-0-1-22-23-N");
  const Move f = 5;
  const Position after = apply_move(game, p, f);
  ASSERT_EQ(after.store(Side::North), 25);
  ASSERT_TRUE(generate_moves(game, after).empty());
  // The game's rules end it there: 25 to 22, North's lead grows from 1 to 3.
  EXPECT_EQ(exact_move_value(game, tables, p, f), 2);
  // The table rules play on: South must feed North with F; North's one seed cannot feed back,
  // so North takes it (Oware 5). North gains 2 + 1 in all.
  EXPECT_EQ(exact_move_value(table_rules, tables, p, f), 3);
  const RootProbe by_game = probe_root(game, tables, p);
  ASSERT_TRUE(by_game.ok());
  EXPECT_EQ(by_game.value, 2);
}

TEST(SearchBudget, IsExhaustedByNodesByTimeOrByAStop) {
  SearchBudget budget;
  budget.start(100, 0);
  EXPECT_FALSE(budget.exhausted(99));
  EXPECT_TRUE(budget.exhausted(100));
  budget.remove_limits();
  EXPECT_FALSE(budget.exhausted(1000000));
  budget.request_stop();
  EXPECT_TRUE(budget.exhausted(0));
  budget.start(0, 1e-9);  // a fresh start forgets the stop; the time limit has passed at once
  EXPECT_TRUE(budget.exhausted(0));
  budget.start(0, 0);
  EXPECT_FALSE(budget.exhausted(1u << 30));
}

}  // namespace
}  // namespace mancala::exact_values_test
