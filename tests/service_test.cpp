// The service layer every door stands on (tools/service/): the checks of values from outside, move
// letters and replays, the catalogue, and the one analysis.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <string>

#include "db/table_build.h"
#include "db/table_format.h"
#include "db/table_set.h"
#include "db/table_values.h"
#include "solver/rules/moves.h"
#include "solver/rules/rules.h"
#include "solver/tables/built_tables.h"
#include "solver/tables/table_index.h"
#include "tests/scratch_directory.h"
#include "tests/test_positions.h"
#include "tools/service/analysis.h"
#include "tools/service/catalogue.h"
#include "tools/service/move_text.h"
#include "tools/service/solve_checkpoint.h"
#include "tools/service/solving.h"
#include "tools/service/validation.h"

namespace mancala::service {
namespace {

Rules rules_of(const char* game) {
  return *parse_rules(game);
}

TEST(Validation, IntegersAreDecimalDigitsWithinTheRange) {
  EXPECT_EQ(*read_integer("42", 1, 100), 42);
  EXPECT_EQ(*read_integer("-3", -5, 5), -3);
  EXPECT_FALSE(read_integer("101", 1, 100));
  EXPECT_FALSE(read_integer("4x", 1, 100));
  EXPECT_FALSE(read_integer("", 1, 100));
  EXPECT_FALSE(read_integer(" 4", 1, 100));
  EXPECT_FALSE(read_integer("0x10", 0, 100));
  // Too large for 64 bits is out of range, not a wrapped-around number.
  const Expected<int64_t> huge = read_integer("99999999999999999999", 0, 100);
  ASSERT_FALSE(huge);
  EXPECT_NE(huge.error().find("must be from 0 to 100"), std::string::npos) << huge.error();
  EXPECT_FALSE(read_unsigned("-1", 0, 100));
}

TEST(Validation, NumbersRefuseNanInfinityAndHexadecimal) {
  EXPECT_DOUBLE_EQ(*read_number("1.5", 0, 10), 1.5);
  EXPECT_DOUBLE_EQ(*read_number("2e-1", 0, 10), 0.2);
  for (const char* text : {"nan", "NaN", "inf", "-inf", "infinity", "0x1p3", "1e999", "", "1.5s"})
    EXPECT_FALSE(read_number(text, -1e300, 1e300)) << text;
  EXPECT_FALSE(read_number("0", 0, 10, true));
}

TEST(Validation, SecondsMustBeFinitePositiveAndAtMostAYear) {
  EXPECT_DOUBLE_EQ(*check_seconds(0.5), 0.5);
  EXPECT_FALSE(check_seconds(0));
  EXPECT_FALSE(check_seconds(-1));
  EXPECT_FALSE(check_seconds(std::nan("")));
  EXPECT_FALSE(check_seconds(std::numeric_limits<double>::infinity()));
  EXPECT_FALSE(check_seconds(kMaxSeconds * 2));
}

TEST(Validation, MegabytesAreCappedAtTheMachinesMemoryWithoutOverflow) {
  EXPECT_EQ(*megabytes_to_bytes(16), uint64_t{16} << 20);
  EXPECT_FALSE(megabytes_to_bytes(0));
  // 2^60 MB would overflow 64 bits as bytes: refused as more than the machine has.
  EXPECT_FALSE(megabytes_to_bytes(uint64_t{1} << 60));
  EXPECT_FALSE(megabytes_to_bytes(std::numeric_limits<uint64_t>::max()));
  EXPECT_FALSE(megabytes_to_bytes((machine_memory_bytes() >> 20) + 1));
}

// A container's memory limit counts as the machine's memory: the cgroup files' texts.
TEST(Validation, ControlGroupMemoryLimitsReadAsBytesAndMaxAsNoLimit) {
  EXPECT_EQ(read_memory_limit("12884901888\n"), uint64_t{12884901888});
  EXPECT_EQ(read_memory_limit("9223372036854771712"), uint64_t{9223372036854771712u});
  EXPECT_FALSE(read_memory_limit("max\n"));
  EXPECT_FALSE(read_memory_limit(""));
  EXPECT_FALSE(read_memory_limit("0"));
  EXPECT_FALSE(read_memory_limit("12 GB"));
  EXPECT_FALSE(read_memory_limit("-1"));
  EXPECT_GT(machine_memory_bytes(), 0u);
}

// A one-machine build needs its last layer and the three below it in memory (the writer's bytes
// too), or for Kalah, valued pair of sub-layers by pair over scratch files in sub-layer order, its
// last layer, the one below, the writer's bytes and what one pair reads further down; it is
// refused up front when the machine cannot hold them, naming the deepest that fits.
TEST(Validation, ATableBuildTooDeepForThisMachineIsRefusedNamingTheDeepestThatFits) {
  const Rules kalah = Rules::kalah();
  // Layers 7..10 of 12 houses (10 seeds: 352 716 positions), and half of layer 9 for the writer;
  // Oware's level algorithm takes three bytes a position of the layer it builds.
  EXPECT_EQ(db::build_memory_needed(Rules::oware(), 10),
            3 * 352716u + 167960u + 75582u + 31824u + 167960u / 2);
  EXPECT_FALSE(db::build_memory_by_pairs(Rules::oware(), 10));
  // Kalah: layers 10 and 9, half of 9, and the largest part of layers 0..8 that a pair reads,
  // which is less than layers 8 and 7 whole.
  const std::optional<db::BuildMemoryByPairs> by_pairs = db::build_memory_by_pairs(kalah, 10);
  ASSERT_TRUE(by_pairs);
  EXPECT_EQ(by_pairs->pair_reads,
            kalah_largest_pair_working_set(*table_rules_for(kalah), 10, 9).read_positions);
  EXPECT_LT(by_pairs->pair_reads, 75582u + 31824u);
  EXPECT_EQ(by_pairs->bytes, 352716u + 167960u + 167960u / 2 + by_pairs->pair_reads);
  EXPECT_EQ(db::build_memory_needed(kalah, 10), by_pairs->bytes);
  // A Kalah layer that does not fit in the bound beside the layer below is built in a scratch
  // file (under a bound of 0, every one): the build then holds the largest pair's working set,
  // its own positions and what it reads of every layer below (9 included), and the writer's
  // bytes of layer 9.
  EXPECT_FALSE(db::built_in_scratch(kalah, 10, std::nullopt));
  EXPECT_TRUE(db::built_in_scratch(kalah, 10, 352716u + 167960u - 1));
  EXPECT_FALSE(db::built_in_scratch(kalah, 10, 352716u + 167960u));
  EXPECT_FALSE(db::built_in_scratch(Rules::oware(), 10, 0));
  const std::optional<db::BuildMemoryByPairs> in_scratch =
      db::build_memory_by_pairs(kalah, 10, uint64_t{0});
  ASSERT_TRUE(in_scratch);
  EXPECT_TRUE(in_scratch->in_scratch);
  const PairWorkingSet all = kalah_largest_pair_working_set(*table_rules_for(kalah), 10, 10);
  EXPECT_EQ(in_scratch->pair_writes, all.pair_positions);
  EXPECT_EQ(in_scratch->pair_reads, all.read_positions);
  EXPECT_EQ(in_scratch->bytes, 167960u / 2 + all.pair_positions + all.read_positions);
  EXPECT_LT(in_scratch->bytes, by_pairs->bytes);
  EXPECT_EQ(db::build_memory_needed(kalah, 10, uint64_t{0}), in_scratch->bytes);
  EXPECT_TRUE(check_build_fits_machine(kalah, 20));
  // 64 seeds: some 10^12 positions in the last layer, terabytes.
  const Expected<bool> deep = check_build_fits_machine(kalah, 64);
  ASSERT_FALSE(deep);
  EXPECT_NE(deep.error().find("layers up to 64 seeds need about"), std::string::npos)
      << deep.error();
  EXPECT_NE(deep.error().find("the layers further down that its largest pair of sub-layers, ("),
            std::string::npos)
      << deep.error();
  const size_t at = deep.error().find("the deepest build that fits here goes to ");
  ASSERT_NE(at, std::string::npos) << deep.error();
  const int deepest = std::stoi(deep.error().substr(at + 41));
  EXPECT_GE(deepest, 20);
  EXPECT_TRUE(check_build_fits_machine(kalah, deepest));
  EXPECT_FALSE(check_build_fits_machine(kalah, deepest + 1));
}

// A rank of the distributed build keeps its part of every layer and of the last layer's work;
// the rule agrees with the peaks measured (docs/cluster.md): Kalah 0..20 on 1, 2 and 4 ranks
// within 7%, Oware 0..19 on one rank within 12% (above it: the rule errs on the safe side).
TEST(Validation, ADistributedBuildsRankNeedsItsPartOfEveryLayerAsMeasured) {
  const Rules kalah = Rules::kalah();
  // Layers 0..10 of 12 houses: 646 646 positions; layer 10: 352 716, three bytes each.
  EXPECT_EQ(db::distributed_build_memory_per_rank(kalah, 10, 1),
            static_cast<uint64_t>(1.5 * (646646 + 3 * 352716)) + 60'000'000u);
  for (const auto& [ranks, measured] : {std::pair{1, 775e6}, {2, 418e6}, {4, 256e6}}) {
    const double rule =
        static_cast<double>(db::distributed_build_memory_per_rank(kalah, 20, ranks));
    EXPECT_NEAR(rule / measured, 1.0, 0.07) << ranks << " ranks: " << rule;
  }
  const double oware =
      static_cast<double>(db::distributed_build_memory_per_rank(Rules::oware(), 19, 1));
  EXPECT_GE(oware / 412e6, 1.0);
  EXPECT_LE(oware / 412e6, 1.12);
}

TEST(Validation, PathsAndTextsRefuseNulBytesAndExcessLength) {
  EXPECT_EQ(*check_path("/tmp/db"), "/tmp/db");
  EXPECT_FALSE(check_path(""));
  EXPECT_FALSE(check_path(std::string("/tmp/a\0b", 8)));
  EXPECT_FALSE(check_path(std::string(kMaxPathBytes + 1, 'a')));
  EXPECT_EQ(*check_text("Ann", 10), "Ann");
  EXPECT_FALSE(check_text(std::string("A\0n", 3), 10));
  EXPECT_FALSE(check_text("0123456789A", 10));
}

// A solve's choices, the same for every door that solves (`mancala solve`, Python's solve).
TEST(Solving, LayersAreBuiltFirstOnlyWhenTheTablesAtHandStopBelowThoseWorthBuilding) {
  const Rules kalah = rules_of("kalah");
  const Position start = start_position(kalah);
  const int worth = seeds_worth_building(kalah, start);
  ASSERT_GE(worth, 12);
  EXPECT_EQ(seeds_to_build_before_solving(kalah, start, -1, std::nullopt), worth);
  EXPECT_EQ(seeds_to_build_before_solving(kalah, start, worth - 1, std::nullopt), worth);
  EXPECT_EQ(seeds_to_build_before_solving(kalah, start, worth, std::nullopt), -1);  // at hand
  // A depth asked for is built when deeper than the tables at hand; -1 builds none.
  EXPECT_EQ(seeds_to_build_before_solving(kalah, start, 10, 12), 12);
  EXPECT_EQ(seeds_to_build_before_solving(kalah, start, 12, 12), -1);
  EXPECT_EQ(seeds_to_build_before_solving(kalah, start, -1, -1), -1);
  // Small games build nothing unless asked; games without tables never.
  const Rules small = rules_of("kalah:4:3");
  EXPECT_EQ(seeds_to_build_before_solving(small, start_position(small), -1, std::nullopt), -1);
  EXPECT_EQ(seeds_to_build_before_solving(small, start_position(small), -1, 8), 8);
  const Rules congkak = rules_of("congkak");
  EXPECT_EQ(seeds_to_build_before_solving(congkak, start_position(congkak), -1, 8), -1);
}

TEST(Solving, TheTranspositionTableFitsTheJobUnlessAskedFor) {
  const auto megabytes = [](const char* game, std::optional<size_t> asked, bool over_built) {
    const Rules rules = rules_of(game);
    return solve_transposition_megabytes(asked, over_built, rules, start_position(rules));
  };
  // Large searches: Kalah(6,4), Kalah(5,5), Congkak; Oware whatever its size.
  EXPECT_EQ(megabytes("kalah", std::nullopt, false), kSolveTranspositionMegabytes);
  EXPECT_EQ(megabytes("kalah:5:5", std::nullopt, false), kSolveTranspositionMegabytes);
  EXPECT_EQ(megabytes("congkak", std::nullopt, false), kSolveTranspositionMegabytes);
  EXPECT_EQ(megabytes("oware:2", std::nullopt, false), kSolveTranspositionMegabytes);
  // Small ones, up to Kalah(6,3), (5,4) and (4,6).
  for (const char* game : {"kalah:6:3", "kalah:5:4", "kalah:4:6", "kalah:4:3", "kalah:3:3"})
    EXPECT_EQ(megabytes(game, std::nullopt, false), kSmallSolveTranspositionMegabytes) << game;
  EXPECT_LT(kSmallSolveTranspositionMegabytes, kSolveTranspositionMegabytes);
  // Over tables built in memory.
  EXPECT_EQ(megabytes("kalah", std::nullopt, true), kTranspositionMegabytesOverBuiltTables);
  EXPECT_LT(kTranspositionMegabytesOverBuiltTables, kSolveTranspositionMegabytes);
  // A size asked for is the size.
  EXPECT_EQ(megabytes("kalah", 1024, true), 1024u);
  EXPECT_EQ(megabytes("kalah:4:3", 512, false), 512u);
}

// What a solve over disk tables keeps in memory: the decoded layers (those that fit the budget,
// lowest first), the files of the others, probed in place, and the transposition table's words.
TEST(Solving, TheMemoryASolveNeedsCountsTheDecodedLayersTheFilesProbedInPlaceAndTheTable) {
  const std::filesystem::path dir = testing_helpers::fresh_test_directory("solve_memory");
  const Rules kalah = Rules::kalah();
  ASSERT_TRUE(db::build_tables({kalah, 6, dir.string(), {}}, {}, {}));
  Expected<std::shared_ptr<const db::TableSet>> set = db::TableSet::open(dir.string(), kalah);
  ASSERT_TRUE(set) << set.error();
  const TableIndex index(12, 6);
  uint64_t files = 0;
  for (int s = 0; s <= 6; ++s) {
    const uint64_t bytes = std::filesystem::file_size(dir / "kalah-6" / db::layer_file_name(s));
    EXPECT_EQ((*set)->layer_file_bytes(s), bytes) << s;
    files += bytes;
  }
  const Solver solver(kalah, 1);
  const auto need = [&](uint64_t budget) {
    return solve_memory(db::DecodedTableValues(*set, budget), solver);
  };
  const uint64_t table = solver.transposition_words() * sizeof(uint64_t);
  EXPECT_GT(table, 0u);
  // Nothing decoded: every file is probed in place.
  SolveMemory none = need(0);
  EXPECT_EQ(none.decoded_tables, 0u);
  EXPECT_EQ(none.table_files, files);
  EXPECT_EQ(none.transposition, table);
  EXPECT_EQ(none.total(), files + table);
  // Layers 0..3 decoded (one byte a position): the files of 4..6 are still probed in place.
  uint64_t low = 0;
  for (int s = 0; s <= 3; ++s) low += index.layer_size(s);
  SolveMemory some = need(low);
  EXPECT_EQ(some.decoded_tables, low);
  EXPECT_EQ(some.table_files, (*set)->layer_file_bytes(4) + (*set)->layer_file_bytes(5) +
                                  (*set)->layer_file_bytes(6));
  // Everything decoded: no file needs to stay in memory.
  SolveMemory all = need(uint64_t{1} << 30);
  EXPECT_EQ(all.decoded_tables, index.layer_size(0) + index.layer_size(1) + index.layer_size(2) +
                                    index.layer_size(3) + index.layer_size(4) +
                                    index.layer_size(5) + index.layer_size(6));
  EXPECT_EQ(all.table_files, 0u);
  std::filesystem::remove_all(dir);
}

TEST(MoveText, LegalLettersAreInHouseOrderAndNoneOnceOver) {
  const Rules kalah = rules_of("kalah");
  const Position start = start_position(kalah);
  EXPECT_EQ(legal_move_letters(kalah, start),
            (std::vector<std::string>{"A", "B", "C", "D", "E", "F"}));
  EXPECT_EQ(legal_moves_text(kalah, start), "A B C D E F");
  const Position over = *parse_position(kalah, "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S");
  EXPECT_TRUE(legal_move_letters(kalah, over).empty());
  EXPECT_EQ(legal_moves_text(kalah, over), "none: the game is over");
}

TEST(MoveText, LinesGroupTurnsAndStopAtAnIllegalMove) {
  const Rules kalah = rules_of("kalah");
  const Position start = start_position(kalah);
  // C earns an extra turn (its last seed lands in the store): C and F are one turn.
  const std::vector<Move> line{2, 5, 1};
  EXPECT_EQ(line_by_turns(kalah, start, line), "CF b");
  EXPECT_EQ(line_word(kalah, start, line), "CFb");
  // From the start, a second C (house 2, now empty after C) is illegal: the line stops there.
  EXPECT_EQ(line_letters(kalah, start, {2, 2}), (std::vector<std::string>{"C"}));
}

TEST(MoveText, ReplayStopsAtTheFirstProblemNamingTheMove) {
  const Rules kalah = rules_of("kalah");
  const Position start = start_position(kalah);
  const Replay fine = replay_moves(kalah, start, "C F, b", 100);
  ASSERT_TRUE(fine.ok()) << fine.message;
  EXPECT_EQ(fine.game.moves().size(), 3u);
  EXPECT_EQ(fine.before.size(), 3u);
  const Replay illegal = replay_moves(kalah, start, "CC", 100);
  EXPECT_EQ(illegal.problem, ReplayProblem::Illegal);
  EXPECT_NE(illegal.message.find("move 2"), std::string::npos) << illegal.message;
  EXPECT_EQ(illegal.game.moves().size(), 1u);
  EXPECT_EQ(replay_moves(kalah, start, "C?", 100).problem, ReplayProblem::NotALetter);
  EXPECT_EQ(replay_moves(kalah, start, "CFb", 2).problem, ReplayProblem::TooManyMoves);
}

TEST(Catalogue, EveryGameWithTablesComesFromTheRuleBook) {
  std::vector<std::string> names;
  for (const Rules& rules : games_with_tables()) names.push_back(rules.table_name());
  // Each table once: Kalah's seeds do not change its tables.
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  EXPECT_NE(std::find(names.begin(), names.end(), rules_of("kalah").table_name()), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), rules_of("oware").table_name()), names.end());
  for (const Rules& rules : games_with_tables()) EXPECT_NE(rules.kind, GameKind::Congkak);
}

TEST(Analysis, AtADepthEveryMoveIsValuedBestFirstTheSameEachTime) {
  const Rules kalah = rules_of("kalah:4:3");
  const Position start = start_position(kalah);
  AnalysisLimits limits;
  limits.depth = 6;
  const Analysis first = analyse(kalah, start, limits, nullptr);
  const Analysis again = analyse(kalah, start, limits, nullptr);
  ASSERT_EQ(first.moves.size(), 4u);
  for (size_t i = 0; i < first.moves.size(); ++i) {
    EXPECT_EQ(first.moves[i].move, again.moves[i].move);
    EXPECT_EQ(first.moves[i].score, again.moves[i].score);
    EXPECT_EQ(first.moves[i].provenance, again.moves[i].provenance);
    if (i > 0) {
      EXPECT_GE(first.moves[i - 1].score, first.moves[i].score);
    }
    EXPECT_EQ(first.moves[i].line.front(), first.moves[i].move);
    EXPECT_EQ(first.moves[i].exact(), first.moves[i].provenance != Provenance::Estimate);
    EXPECT_EQ(first.moves[i].depth > 0, !first.moves[i].exact());
  }
  EXPECT_FALSE(first.from_tables);
}

TEST(Analysis, ASmallGameIsProvenByTheSolver) {
  // Kalah(3,2) is solved within each move's node budget: every value is proven.
  const Rules small = rules_of("kalah:3:2");
  AnalysisLimits limits;
  limits.depth = 2;
  const Analysis a = analyse(small, start_position(small), limits, nullptr);
  for (const MoveAnalysis& m : a.moves) EXPECT_EQ(m.provenance, Provenance::Proven);
}

// A proven move's line is one that plays its score out: every move legal, and a line that
// reaches the game's end ends with that score. (Proven moves' lines came from the search, which
// need not follow the proof: here 3 of the 69 lines that reached the end ended elsewhere, 11 of
// 79 in a wider sample of kalah:4:3; the solver's lines, now 202 of them here, all end right.)
TEST(Analysis, AProvenMovesLineEndsWithItsScore) {
  Random random(7);
  int ended = 0;
  for (const char* game : {"kalah:4:3", "kalah:5:3:empty-capture", "congkak:4:3"}) {
    const Rules rules = rules_of(game);
    for (int i = 0; i < 25; ++i) {
      const Position p = random_position(rules, random, 2 + static_cast<int>(random.below(12)));
      AnalysisLimits limits;
      limits.depth = 6;
      const Analysis a = analyse(rules, p, limits, nullptr);
      for (const MoveAnalysis& m : a.moves) {
        if (!m.exact()) continue;
        Position q = p;
        for (const Move move : m.line) {
          ASSERT_TRUE(generate_moves(rules, q).contains(move)) << game << " " << to_string(p);
          q = apply_move(rules, q, move);
        }
        if (!generate_moves(rules, q).empty()) continue;
        ++ended;
        EXPECT_EQ(final_outcome(rules, q).lead(p.side_to_move), m.score)
            << game << " " << to_string(p) << " move " << int(m.move);
      }
    }
  }
  EXPECT_GE(ended, 100);
}

TEST(Analysis, ADepthIsStoppedByTheTimeCap) {
  const Rules big = rules_of("congkak:9:10");
  AnalysisLimits limits;
  limits.depth = kMaxAnalysisDepth;
  limits.max_seconds = 0.2;
  const auto started = std::chrono::steady_clock::now();
  const Analysis a = analyse(big, start_position(big), limits, nullptr);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(a.moves.size(), 9u);
  EXPECT_LT(seconds, 20.0);  // a cap of 0.2 s, far from the hours depth 200 would take
  for (const MoveAnalysis& m : a.moves) {
    if (!m.exact()) {
      EXPECT_LT(m.depth, kMaxAnalysisDepth);
    }
  }
}

// A checkpoint written while a solve stands halfway is read back into a new solver whole: the same
// state, the same table words; the table it replaced is removed once it is in place.
TEST(SolveCheckpoints, AreReadBackWholeAndReplaceTheOneBefore) {
  const std::filesystem::path dir = testing_helpers::fresh_test_directory("checkpoint");
  const Rules rules = *parse_rules("kalah:4:3");
  const Position start = start_position(rules);
  Solver solver(rules, 4);
  SolveLimits limits;
  limits.max_nodes = 20000;
  SolveCheckpoint c;
  c.game = rules.name();
  c.position = to_string(start);
  c.each_move = true;
  c.each = EachMoveResume{};
  c.each.done = solver.solve_each_move(start, limits).moves;
  c.each.done.pop_back();
  c.each.seconds_before_next = 1.5;
  c.each.seconds_on_next = 0.25;
  c.each.nodes_on_next = 77;
  c.seconds = 1.75;
  c.nodes = 20077;
  Solver empty(rules, 4);
  ASSERT_TRUE(save_solve_checkpoint(dir, c, empty));
  ASSERT_TRUE(save_solve_checkpoint(dir, c, solver));
  EXPECT_FALSE(std::filesystem::exists(dir / "transposition-0.bin"));
  EXPECT_TRUE(std::filesystem::exists(dir / "transposition-1.bin"));

  Solver other(rules, 4);
  const Expected<std::optional<SolveCheckpoint>> read =
      load_solve_checkpoint(dir, rules, start, true, other);
  ASSERT_TRUE(read) << read.error();
  ASSERT_TRUE(read->has_value());
  const SolveCheckpoint& back = **read;
  EXPECT_EQ(back.seconds, 1.75);
  EXPECT_EQ(back.nodes, 20077u);
  ASSERT_EQ(back.each.done.size(), 3u);
  for (size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(back.each.done[k].move, c.each.done[k].move);
    EXPECT_EQ(back.each.done[k].lower, c.each.done[k].lower);
    EXPECT_EQ(back.each.done[k].upper, c.each.done[k].upper);
    EXPECT_EQ(back.each.done[k].nodes, c.each.done[k].nodes);
  }
  EXPECT_EQ(back.each.seconds_on_next, 0.25);
  EXPECT_EQ(back.each.nodes_on_next, 77u);
  std::vector<uint64_t> a(solver.transposition_words()), b(other.transposition_words());
  solver.copy_transposition(0, a);
  other.copy_transposition(0, b);
  EXPECT_EQ(a, b);
  EXPECT_NE(std::count(a.begin(), a.end(), 0u), static_cast<long>(a.size()));
  std::filesystem::remove_all(dir);
}

// A directory without a checkpoint has none; another solve's, another table size's and a damaged
// one are refused, and a damaged table leaves nothing of itself in the solver.
TEST(SolveCheckpoints, OnlyTheSameSolvesWholeCheckpointIsTakenUp) {
  const std::filesystem::path dir = testing_helpers::fresh_test_directory("checkpoint");
  const Rules rules = *parse_rules("kalah:4:3");
  const Position start = start_position(rules);
  Solver solver(rules, 4);
  {
    Solver none(rules, 4);
    const Expected<std::optional<SolveCheckpoint>> read =
        load_solve_checkpoint(dir, rules, start, false, none);
    ASSERT_TRUE(read);
    EXPECT_FALSE(read->has_value());
  }
  SolveLimits limits;
  limits.max_nodes = 20000;
  const SolveResult r = solver.solve(start, limits);
  SolveCheckpoint c;
  c.game = rules.name();
  c.position = to_string(start);
  c.lower = r.lower;
  c.upper = r.upper;
  ASSERT_TRUE(save_solve_checkpoint(dir, c, solver));
  const auto refused = [&](const Rules& asked_rules, const Position& asked, bool each_move,
                           size_t megabytes, const std::string& words) {
    Solver s(asked_rules, megabytes);
    const Expected<std::optional<SolveCheckpoint>> read =
        load_solve_checkpoint(dir, asked_rules, asked, each_move, s);
    ASSERT_FALSE(read) << words;
    EXPECT_NE(read.error().find(words), std::string::npos) << read.error();
    std::vector<uint64_t> table(s.transposition_words());
    s.copy_transposition(0, table);
    EXPECT_EQ(std::count(table.begin(), table.end(), 0u), static_cast<long>(table.size()));
  };
  refused(rules, start, true, 4, "another solve");
  refused(rules, apply_move(rules, start, 0), false, 4, "another solve");
  const Rules other = *parse_rules("kalah:4:4");
  refused(other, start_position(other), false, 4, "another solve");
  refused(rules, start, false, 8, "8 MB");
  // One byte of the table changed.
  {
    std::fstream table(dir / "transposition-0.bin",
                       std::ios::in | std::ios::out | std::ios::binary);
    table.seekp(12345);
    table.put('\x55');
  }
  refused(rules, start, false, 4, "checksum");
  std::filesystem::resize_file(dir / "transposition-0.bin", 100);
  refused(rules, start, false, 4, "100 bytes");
  {
    std::ofstream state(dir / "solve.json");
    state << "{\"format\": 1, \"game\": ";
  }
  refused(rules, start, false, 4, "not a checkpoint");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace mancala::service
