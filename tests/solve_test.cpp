// The whole-game solver against exhaustive minimax and against the endgame tables.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <fstream>
#include <map>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "solver/search/solve.h"
#include "solver/tables/built_tables.h"
#include "solver/tables/retrograde.h"
#include "solver/util/random.h"
#include "tests/test_positions.h"

// A namespace per file: the suite is compiled in unity batches.
namespace mancala::solve_test {
namespace {

int move_value(const Rules& rules, const Position& p, Move m, std::map<std::string, int>& memo) {
  const Position c = apply_move(rules, p, m);
  const int v = exhaustive_value(rules, c, memo);
  return c.side_to_move == p.side_to_move ? v : -v;
}

// With one thread and with two sharing the table (the second one also tries moves in another
// order): the same values, best moves and valid lines.
class SolverThreads : public ::testing::TestWithParam<int> {};

TEST_P(SolverThreads, ValueBestMovesAndLineAgreeWithExhaustiveSearch) {
  Random random(3);
  for (const char* game : {"kalah:3:2", "kalah:3:3:empty-capture", "kalah:2:4", "kalah:4:2",
                           "congkak:3:2", "congkak:3:3:no-capture-first-lap"}) {
    const Rules rules = *parse_rules(game);
    Solver solver(rules, 4, nullptr, GetParam());  // a small table: replacements happen
    std::map<std::string, int> memo;
    for (int i = 0; i < 25; ++i) {
      const Position p =
          random_position(rules, random, i == 0 ? 0 : static_cast<int>(random.below(8)));
      const SolveResult r = solver.solve(p);
      ASSERT_TRUE(r.solved);
      const int expected = exhaustive_value(rules, p, memo);
      ASSERT_EQ(r.value, expected) << game << " " << to_string(p);
      EXPECT_EQ(r.lower, expected);
      EXPECT_EQ(r.upper, expected);
      // Exactly the moves of the best value are reported best.
      for (Move m : generate_moves(rules, p)) {
        const bool best = std::find(r.best.begin(), r.best.end(), m) != r.best.end();
        EXPECT_EQ(best, move_value(rules, p, m, memo) == expected)
            << game << " " << to_string(p) << " move " << int(m);
      }
      // Every move of the line keeps the value, and the line runs to the end of the game.
      Position q = p;
      int value = expected;
      for (Move m : r.pv) {
        ASSERT_TRUE(generate_moves(rules, q).contains(m));
        ASSERT_EQ(move_value(rules, q, m, memo), value) << game << " " << to_string(q);
        const Position next = apply_move(rules, q, m);
        if (next.side_to_move != q.side_to_move) value = -value;
        q = next;
      }
      EXPECT_TRUE(generate_moves(rules, q).empty()) << game << " line ends early";
    }
  }
}

TEST(Solver, NullWindowTestsGiveProvenBounds) {
  const Rules rules = *parse_rules("kalah:3:3");
  Solver solver(rules, 4);
  std::map<std::string, int> memo;
  const Position start = start_position(rules);
  const int value = exhaustive_value(rules, start, memo);
  for (int beta = value - 6; beta <= value + 6; ++beta) {
    const int r = solver.test(start, beta);
    if (r >= beta)
      EXPECT_LE(r, value) << "fail high at " << beta << " must be a lower bound";
    else
      EXPECT_GE(r, value) << "fail low at " << beta << " must be an upper bound";
    EXPECT_EQ(r >= beta, value >= beta) << beta;
  }
}

// The first guess only decides which tests MTD(f) makes (and outside in, the order of the
// tests): from far below, far above, at the value or off its parity, the value and best moves
// come out the same, and a limit stops the solve with bounds that hold.
TEST_P(SolverThreads, AnyFirstGuessGivesTheSameAnswer) {
  for (const char* game : {"kalah:3:3", "kalah:4:2:empty-capture", "congkak:3:3"}) {
    const Rules rules = *parse_rules(game);
    std::map<std::string, int> memo;
    const Position start = start_position(rules);
    const int expected = exhaustive_value(rules, start, memo);
    for (int guess : {-100, -expected - 5, expected - 1, expected, expected + 1, 7, 100})
      for (bool outside_in : {false, true}) {
        Solver solver(rules, 4, nullptr, GetParam());
        SolveOptions options;
        options.guess = guess;
        options.outside_in = outside_in;
        const SolveResult r = solver.solve(start, {}, {}, options);
        ASSERT_TRUE(r.solved) << game << " guess " << guess;
        EXPECT_EQ(r.value, expected) << game << " guess " << guess;
        for (Move m : generate_moves(rules, start)) {
          const bool best = std::find(r.best.begin(), r.best.end(), m) != r.best.end();
          EXPECT_EQ(best, move_value(rules, start, m, memo) == expected)
              << game << " guess " << guess << " move " << int(m);
        }
        Solver limited(rules, 4, nullptr, GetParam());
        SolveLimits limits;
        limits.max_nodes = 30;
        const SolveResult stopped = limited.solve(start, limits, {}, options);
        EXPECT_LE(stopped.lower, expected) << game << " guess " << guess;
        EXPECT_GE(stopped.upper, expected) << game << " guess " << guess;
      }
  }
}

TEST(Solver, KnownSmallKalahValues) {
  // Values that earlier, independent runs of the depth-limited search also proved.
  const std::pair<const char*, int> known[] = {{"kalah:3:3", 2}, {"kalah:4:3", 6}};
  for (const auto& [game, value] : known) {
    const Rules rules = *parse_rules(game);
    Solver solver(rules, 16);
    EXPECT_EQ(solver.solve(start_position(rules)).value, value) << game;
  }
}

// Solving from nothing (docs/solving.md): the layers a solve builds first are those worth
// building (none for a small game or a position with few seeds, more as the seeds grow), and a
// solve over tables built in memory gives the value the search alone gives.
TEST(Solver, TablesBuiltFirstArePaidForAndKeepTheValue) {
  const auto worth_building = [](const char* game) {
    const Rules rules = *parse_rules(game);
    return seeds_worth_building(rules, start_position(rules));
  };
  EXPECT_EQ(worth_building("kalah:4:3"), -1);
  EXPECT_EQ(worth_building("congkak"), -1);
  EXPECT_EQ(worth_building("kalah:8:4"), -1);
  EXPECT_GE(worth_building("kalah"), 12);
  EXPECT_LE(worth_building("kalah"), worth_building("kalah:6:5"));
  // The standard rule's larger search pays for a layer more than empty-capture's.
  EXPECT_GE(worth_building("kalah"), worth_building("kalah:6:4:empty-capture"));
  for (const char* game : {"kalah:4:3", "kalah:4:3:empty-capture", "kalah:3:3"}) {
    const Rules rules = *parse_rules(game);
    const BuiltTables tables(rules, 8, 1);
    EXPECT_EQ(tables.bytes(), [&] {
      uint64_t n = 0;
      for (int s = 0; s <= 8; ++s) n += TableIndex(2 * rules.houses, 8).layer_size(s);
      return n;
    }());
    Solver over_tables(rules, 8, &tables, 1);
    Solver without(rules, 8, nullptr, 1);
    const SolveResult a = over_tables.solve(start_position(rules));
    const SolveResult b = without.solve(start_position(rules));
    ASSERT_TRUE(a.solved && b.solved);
    EXPECT_EQ(a.value, b.value) << game;
    EXPECT_EQ(a.best, b.best) << game;
  }
}

// Positions with 10 to 12 seeds on the board, solved with tables up to 8 seeds, must get the
// values that tables up to 12 seeds hold. (Oware above the tables is too slow for a test: see
// solve.h; OwareInsideTheTables checks it where the tables answer.)
TEST_P(SolverThreads, TableBackedSolveAgreesWithLargerTables) {
  Random random(9);
  for (const char* game : {"kalah", "kalah:6:4:empty-capture", "kalah:5:4"}) {
    const Rules rules = *parse_rules(game);
    const Rules table_rules = *table_rules_for(rules);
    const BuiltTables small(rules, 8), large(rules, 11);
    Solver solver(table_rules, 8, &small, GetParam());
    for (int i = 0; i < 15; ++i) {
      const int seeds = 10 + static_cast<int>(random.below(2));
      const Position p = scattered_position(table_rules, random, seeds);
      if (generate_moves(table_rules, p).empty()) continue;
      const SolveResult r = solver.solve(p);
      ASSERT_TRUE(r.solved);
      ASSERT_EQ(r.value, *large.value(p)) << game << " " << to_string(p);
    }
  }
}

// Over small tables, positions far above them are searched with enhanced transposition cutoffs
// at the top and with the transposition table's move first near the tables (solve.h): both parts
// of such a search must give the value a solve without tables gives.
TEST_P(SolverThreads, FarAboveTheTablesTheValueIsTheOneWithoutTables) {
  Random random(12);
  for (const char* game : {"kalah:4:3", "kalah:4:3:empty-capture"}) {
    const Rules rules = *parse_rules(game);
    const Rules table_rules = *table_rules_for(rules);
    const BuiltTables tables(rules, 5);
    Solver over_tables(table_rules, 8, &tables, GetParam());
    Solver without(table_rules, 8, nullptr, 1);
    for (int i = 0; i < 10; ++i) {
      // 5-seed tables: cutoffs from children's bounds from 16 seeds on, the table's move first
      // below.
      const int seeds = 17 + static_cast<int>(random.below(4));
      const Position p = scattered_position(table_rules, random, seeds);
      if (generate_moves(table_rules, p).empty()) continue;
      const SolveResult r = over_tables.solve(p);
      ASSERT_TRUE(r.solved);
      ASSERT_EQ(r.value, without.solve(p).value) << game << " " << to_string(p);
    }
  }
}

// Inside the tables the value is the table's and every best move and the whole line keep it.
TEST_P(SolverThreads, OwareInsideTheTables) {
  Random random(4);
  for (const char* game : {"oware", "oware:4:grand-slam-captures"}) {
    const Rules rules = *parse_rules(game);
    const Rules table_rules = *table_rules_for(rules);
    const BuiltTables tables(rules, 8);
    Solver solver(table_rules, 8, &tables, GetParam());
    for (int i = 0; i < 12; ++i) {
      const Position p = scattered_position(table_rules, random, 8);
      if (generate_moves(table_rules, p).empty()) continue;
      const SolveResult r = solver.solve(p);
      ASSERT_TRUE(r.solved);
      ASSERT_EQ(r.value, *tables.value(p)) << game << " " << to_string(p);
      ASSERT_FALSE(r.best.empty());
      for (Move m : r.best) {
        const std::optional<int> v = exact_move_value(table_rules, tables, p, m);
        ASSERT_TRUE(v.has_value());
        EXPECT_EQ(*v, r.value) << game << " " << to_string(p);
      }
      for (Move m : generate_moves(table_rules, p)) {
        if (std::find(r.best.begin(), r.best.end(), m) == r.best.end()) {
          EXPECT_LT(*exact_move_value(table_rules, tables, p, m), r.value);
        }
      }
    }
  }
}

TEST_P(SolverThreads, StopsAtTheNodeLimitWithValidBounds) {
  const Rules rules = *parse_rules("kalah:4:4");
  Solver solver(rules, 4, nullptr, GetParam());
  SolveLimits limits;
  limits.max_nodes = 20000;
  const SolveResult r = solver.solve(start_position(rules), limits);
  EXPECT_FALSE(r.solved);
  // Each thread checks in every 1024 nodes.
  EXPECT_LE(r.nodes, 20000u + 1024u * static_cast<unsigned>(GetParam()));
  // kalah:4:4 is worth +2 (KnownSmallKalahValues' method, one size up).
  EXPECT_LE(r.lower, 2);
  EXPECT_GE(r.upper, 2);
  EXPECT_TRUE(r.best.empty());
}

// Every move's value, as exhaustive search values it, and the best of them is the position's.
TEST_P(SolverThreads, EachMoveIsValuedAsExhaustiveSearchValuesIt) {
  Random random(11);
  for (const char* game : {"kalah:3:3", "kalah:4:2:empty-capture", "congkak:3:2"}) {
    const Rules rules = *parse_rules(game);
    Solver solver(rules, 4, nullptr, GetParam());
    std::map<std::string, int> memo;
    for (int i = 0; i < 10; ++i) {
      const Position p =
          random_position(rules, random, i == 0 ? 0 : static_cast<int>(random.below(6)));
      const MoveList legal = generate_moves(rules, p);
      int seen = 0;
      const EachMoveResult result =
          solver.solve_each_move(p, {}, [&](const MoveBounds&) { ++seen; });
      const std::vector<MoveBounds>& moves = result.moves;
      ASSERT_EQ(moves.size(), legal.size()) << game << " " << to_string(p);
      EXPECT_EQ(seen, static_cast<int>(legal.size()));
      int best = INT_MIN;
      for (size_t k = 0; k < moves.size(); ++k) {
        EXPECT_EQ(moves[k].move, legal[k]);
        ASSERT_TRUE(moves[k].solved);
        const int expected = move_value(rules, p, legal[k], memo);
        EXPECT_EQ(moves[k].lower, expected) << game << " " << to_string(p) << " " << k;
        EXPECT_EQ(moves[k].upper, expected);
        best = std::max(best, expected);
      }
      EXPECT_EQ(best, exhaustive_value(rules, p, memo));
      EXPECT_TRUE(result.solved);
      EXPECT_EQ(result.lower, best);
      EXPECT_EQ(result.upper, best);
    }
  }
}

// A node limit for all the moves together: each move's bounds still hold, and the total stays
// within the limit.
TEST_P(SolverThreads, EachMoveStoppedByALimitKeepsBoundsThatHold) {
  const Rules rules = *parse_rules("kalah:4:3");
  const Position start = start_position(rules);
  // The moves' values, by a solve without limits (the test above checks those against
  // exhaustive search, which takes a minute here).
  Solver unlimited(rules, 4);
  const std::vector<MoveBounds> values = unlimited.solve_each_move(start).moves;
  const int value = unlimited.solve(start).lower;
  Solver solver(rules, 4, nullptr, GetParam());
  SolveLimits limits;
  limits.max_nodes = 6000;
  const EachMoveResult result = solver.solve_each_move(start, limits);
  const std::vector<MoveBounds>& moves = result.moves;
  ASSERT_EQ(moves.size(), 4u);
  uint64_t nodes = 0;
  bool some_unsolved = false;
  for (size_t k = 0; k < moves.size(); ++k) {
    const MoveBounds& m = moves[k];
    ASSERT_TRUE(values[k].solved);
    const int expected = values[k].lower;
    EXPECT_LE(m.lower, expected) << int(m.move);
    EXPECT_GE(m.upper, expected) << int(m.move);
    EXPECT_EQ(m.solved, m.lower == m.upper);
    some_unsolved |= !m.solved;
    nodes += m.nodes;
  }
  EXPECT_TRUE(some_unsolved) << "the limit should stop at least one move";
  // The position's bounds come from its moves' and hold too.
  EXPECT_LE(result.lower, value);
  EXPECT_GE(result.upper, value);
  EXPECT_EQ(result.solved, result.lower == result.upper);
  EXPECT_EQ(result.nodes, nodes);
  // Each thread checks in every 1024 nodes, once per move.
  EXPECT_LE(nodes, limits.max_nodes + 4u * 1024u * static_cast<unsigned>(GetParam()));
}

// A copy of the table taken while the solver searches (by another thread, again and again), put
// back into a new solver: every entry it holds is proven, so the new solver's value is the value,
// and it goes on from what the first proved rather than from nothing.
TEST_P(SolverThreads, ATranspositionTableCopiedWhileSearchingAndPutBackGoesOnFromThere) {
  const Rules rules = *parse_rules("kalah:4:3");
  const Position start = start_position(rules);
  Solver fresh(rules, 4);
  const SolveResult reference = fresh.solve(start);
  ASSERT_TRUE(reference.solved);

  Solver first(rules, 4, nullptr, GetParam());
  std::vector<uint64_t> copy(first.transposition_words());
  std::atomic<bool> done{false};
  int copies = 0;
  std::thread copier([&] {
    while (!done.load()) {
      first.copy_transposition(0, copy);
      ++copies;
    }
  });
  SolveLimits limits;
  limits.max_nodes = reference.nodes / 2;
  const SolveResult stopped = first.solve(start, limits);
  done = true;
  copier.join();
  first.copy_transposition(0, copy);  // and once more, after
  ASSERT_FALSE(stopped.solved);
  EXPECT_GE(copies, 1);

  Solver second(rules, 4, nullptr, GetParam());
  ASSERT_EQ(second.transposition_words(), copy.size());
  second.restore_transposition(0, copy);
  const SolveResult resumed = second.solve(start);
  ASSERT_TRUE(resumed.solved);
  EXPECT_EQ(resumed.value, reference.value);
  if (GetParam() == 1) {
    EXPECT_LT(resumed.nodes, reference.nodes);
  }
  // A copy is cut at the table's end.
  EXPECT_THROW(second.copy_transposition(copy.size() - 1, std::span<uint64_t>(copy).first(2)),
               std::out_of_range);
  EXPECT_THROW(second.restore_transposition(copy.size() + 1, {}), std::out_of_range);
}

INSTANTIATE_TEST_SUITE_P(OneAndTwo, SolverThreads, ::testing::Values(1, 2),
                         [](const ::testing::TestParamInfo<int>& param) {
                           return std::to_string(param.param) + "Threads";
                         });

// An each-move solve that goes on from an earlier run: the moves it finished are reported as they
// were, the rest are solved, and the time and nodes count every run's.
TEST(Solver, AResumedEachMoveSolveReportsTheMovesDoneAndSolvesTheRest) {
  const Rules rules = *parse_rules("kalah:4:3");
  const Position start = start_position(rules);
  const EachMoveResult whole = Solver(rules, 4).solve_each_move(start);
  ASSERT_EQ(whole.moves.size(), 4u);
  EachMoveResume resume;
  resume.done = {whole.moves[0], whole.moves[1]};
  resume.done[0].nodes = 12345;  // marks what is passed through
  resume.seconds_before_next = 5;
  resume.seconds_on_next = 2;
  resume.nodes_on_next = 100;
  int reported = 0;
  const EachMoveResult resumed = Solver(rules, 4).solve_each_move(
      start, {}, [&](const MoveBounds&) { ++reported; }, {}, resume);
  EXPECT_EQ(reported, 4);
  ASSERT_EQ(resumed.moves.size(), 4u);
  EXPECT_EQ(resumed.moves[0].nodes, 12345u);
  for (size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(resumed.moves[k].move, whole.moves[k].move);
    EXPECT_TRUE(resumed.moves[k].solved);
    EXPECT_EQ(resumed.moves[k].lower, whole.moves[k].lower) << k;
  }
  EXPECT_GE(resumed.moves[2].nodes, 100u);
  EXPECT_GE(resumed.moves[2].seconds, 2);
  EXPECT_GE(resumed.seconds, 7);
  EXPECT_EQ(resumed.lower, whole.lower);
  // Moves done that are not this position's are refused.
  EachMoveResume wrong;
  wrong.done = {whole.moves[1]};
  EXPECT_THROW(Solver(rules, 4).solve_each_move(start, {}, {}, {}, wrong), std::invalid_argument);
}

// The limit of a resumed solve counts the earlier runs' time: with all but a hundredth of a second
// of ten spent before, the moves left get a moment each and stop unproven (alone, Kalah(4,4)'s
// moves are solved well within ten seconds).
TEST(Solver, AResumedEachMoveSolveCountsTheEarlierRunsTimeAgainstItsLimit) {
  const Rules rules = *parse_rules("kalah:4:4");
  const Position start = start_position(rules);
  EachMoveResume resume;
  resume.seconds_before_next = 9.99;
  SolveLimits limits;
  limits.max_seconds = 10;
  const auto started = std::chrono::steady_clock::now();
  const EachMoveResult r = Solver(rules, 4).solve_each_move(start, limits, {}, {}, resume);
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_LT(took, 3.0);
  EXPECT_FALSE(r.solved);
  EXPECT_GE(r.seconds, 9.99);
}

// A transposition entry keeps its bounds in 10 bits: futures up to the 288 seeds of
// Kalah(12,12) must come back whole. In both positions South has one move, which ends the game:
// it empties South's houses and North's 280 seeds go to North (a future of -279: South's lead
// falls from -1 to -280), or it captures them (+281). Each is solved twice by one solver: the
// second solve starts from the root's stored bounds.
TEST(Solver, FuturesBeyondAByteComeBackWholeFromTheTable) {
  const Rules rules = *parse_rules("kalah:12:12");
  const std::string north = "280-0-0-0-0-0-0-0-0-0-0-0-3-4-S";
  for (const auto& [south, value] :
       {std::pair{"0-0-0-0-0-0-0-0-0-0-0-1-", -280}, std::pair{"0-0-0-0-0-0-0-0-0-0-1-0-", 280}}) {
    const Position p = *parse_position(rules, south + north);
    std::map<std::string, int> memo;
    ASSERT_EQ(exhaustive_value(rules, p, memo), value) << south;
    Solver solver(rules, 1);
    for (int run = 0; run < 2; ++run) {
      const SolveResult result = solver.solve(p, {});
      ASSERT_TRUE(result.solved) << south << run;
      EXPECT_EQ(result.value, value) << south << run;
    }
  }
}

// Games whose futures the entries cannot hold are refused, not solved wrongly.
TEST(Solver, AGameBeyondWhatTheEntriesHoldIsRefused) {
  EXPECT_THROW(Solver(Rules::kalah(12, 22), 1), std::invalid_argument);
  EXPECT_NO_THROW(Solver(Rules::kalah(12, 21), 1));  // 504 seeds
}

// Issue 11: a transposition size near 2^43 MB once overflowed while the constructor sized the
// table, and spun forever. Any size now either fits or fails with bad_alloc, at once.
TEST(Solver, ATranspositionSizeBeyondTheAddressSpaceIsBadAllocNotALoop) {
  const Rules rules = *parse_rules("kalah:3:3");
  for (const size_t megabytes : {size_t{1} << 43, (size_t{1} << 44) - 1, SIZE_MAX})
    EXPECT_THROW(Solver(rules, megabytes), std::bad_alloc) << megabytes;
}

// Resident memory of this process, in bytes (Linux: /proc/self/statm, in pages).
uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
}

// Issue 11: a large table was faulted in page by page before the first node (64 GiB: minutes).
// Constructing a solver with 2 GiB of table now leaves its pages untouched.
TEST(Solver, ConstructingDoesNotTouchTheTranspositionTable) {
  const Rules rules = *parse_rules("kalah:3:3");
  const uint64_t before = resident_bytes();
  Solver solver(rules, 2048);
  EXPECT_LT(resident_bytes() - std::min(before, resident_bytes()), uint64_t{64} << 20);
}

}  // namespace
}  // namespace mancala::solve_test
