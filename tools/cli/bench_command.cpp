// mancala bench: fixed workloads whose counts are a signature of the engine's behaviour and whose
// rates measure its speed. Single-threaded.
#include <chrono>
#include <string>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "solver/rules/moves.h"
#include "solver/rules/perft.h"
#include "solver/search/match.h"
#include "solver/search/search.h"
#include "solver/search/solve.h"
#include "solver/util/random.h"
#include "solver/util/stopwatch.h"
#include "tools/cli/commands.h"
#include "tools/command_line/command_line.h"
#include "tools/service/json_output.h"

namespace mancala::cli {

using namespace command_line;  // the helpers every command line shares

namespace {

struct PerftWorkload {
  const char* game;
  int depth;
};

// Sized to take about a second each on a 2020s core.
constexpr PerftWorkload kPerftWorkloads[] = {
    {"kalah", 11},
    {"oware", 11},
    {"congkak", 9},
};

struct SearchWorkload {
  const char* game;
  int depth;
};

// Fixed-depth searches from the start and from positions a fixed random opening reaches.
constexpr SearchWorkload kSearchWorkloads[] = {
    {"kalah", 13},
    {"oware", 14},
    {"congkak", 7},
};
constexpr int kSearchPositions = 6;

// Whole games solved from the start, one thread, no tables: the node total is the signature of
// the solver's behaviour (move order, table use, bounds), as the search total is of the search's.
constexpr const char* kSolveWorkloads[] = {"kalah:4:4", "kalah:5:3", "congkak:6:3"};

struct SearchFigures {
  uint64_t nodes = 0;
  double seconds = 0;
};

SearchFigures run_search_workload(const SearchWorkload& work) {
  const Rules rules = require_rules(work.game);
  SearchFigures figures;
  Random random(2026);
  Position p = start_position(rules);
  for (int i = 0; i < kSearchPositions; ++i) {
    Search search(rules, 16);  // a fresh table per position keeps the count reproducible
    const auto t0 = std::chrono::steady_clock::now();
    search.search_depth(p, work.depth);
    figures.seconds += seconds_since(t0);
    figures.nodes += search.nodes();
    p = random_walk(rules, p, random, 3);  // the next position: three random plies on
  }
  return figures;
}

struct SolveFigures {
  int value = 0;
  uint64_t nodes = 0;
  double seconds = 0;
};

SolveFigures run_solve_workload(const char* game) {
  const Rules rules = require_rules(game);
  const auto t0 = std::chrono::steady_clock::now();
  Solver solver(rules, 16);  // a fresh table: the count is reproducible
  const SolveResult r = solver.solve(start_position(rules));
  return {r.value, r.nodes, seconds_since(t0)};
}

void run_bench(bool json) {
  if (!json) {
    fmt::print("perft workloads (single thread, every move applied, leaf ply included)\n");
    fmt::print("{:<10} {:>5} {:>14} {:>16} {:>9} {:>12}\n", "game", "depth", "leaves",
               "moves applied", "seconds", "moves/s");
  }
  using json_output::Json;
  using json_output::rounded;
  Json rows = Json::array();
  uint64_t total_applied = 0;
  for (const PerftWorkload& work : kPerftWorkloads) {
    const Rules rules = require_rules(work.game);
    const auto t0 = std::chrono::steady_clock::now();
    const PerftCount count = perft(rules, start_position(rules), work.depth);
    const double seconds = seconds_since(t0);
    const double rate = static_cast<double>(count.moves_applied) / seconds;
    total_applied += count.moves_applied;
    if (json) {
      Json row;
      row["game"] = rules.name();
      row["depth"] = work.depth;
      row["leaves"] = count.leaves;
      row["moves_applied"] = count.moves_applied;
      row["seconds"] = rounded(seconds, 6);
      row["moves_per_second"] = rounded(rate, 0);
      rows.push_back(std::move(row));
    } else {
      fmt::print("{:<10} {:>5} {:>14} {:>16} {:>9.3f} {:>11.1f}M\n", work.game, work.depth,
                 count.leaves, count.moves_applied, seconds, rate / 1e6);
      std::fflush(stdout);
    }
  }
  if (!json) {
    fmt::print("total moves applied: {}\n\n", total_applied);
    fmt::print("search workloads (single thread, {} positions each, fixed depth, no tables)\n",
               kSearchPositions);
    fmt::print("{:<10} {:>5} {:>14} {:>9} {:>12}\n", "game", "depth", "nodes", "seconds",
               "nodes/s");
  }
  Json search_rows = Json::array();
  uint64_t total_nodes = 0;
  for (const SearchWorkload& work : kSearchWorkloads) {
    const SearchFigures f = run_search_workload(work);
    total_nodes += f.nodes;
    if (json) {
      Json row;
      row["game"] = work.game;
      row["depth"] = work.depth;
      row["nodes"] = f.nodes;
      row["seconds"] = rounded(f.seconds, 6);
      search_rows.push_back(std::move(row));
    } else {
      fmt::print("{:<10} {:>5} {:>14} {:>9.3f} {:>11.2f}M\n", work.game, work.depth, f.nodes,
                 f.seconds, static_cast<double>(f.nodes) / f.seconds / 1e6);
      std::fflush(stdout);
    }
  }
  if (!json) {
    fmt::print("total search nodes (the signature of the search's behaviour): {}\n\n", total_nodes);
    fmt::print("solve workloads (single thread, whole games from the start, no tables)\n");
    fmt::print("{:<12} {:>5} {:>12} {:>9} {:>12}\n", "game", "value", "nodes", "seconds",
               "nodes/s");
  }
  Json solve_rows = Json::array();
  uint64_t solve_nodes = 0;
  for (const char* game : kSolveWorkloads) {
    const SolveFigures f = run_solve_workload(game);
    solve_nodes += f.nodes;
    if (json) {
      Json row;
      row["game"] = game;
      row["value"] = f.value;
      row["nodes"] = f.nodes;
      row["seconds"] = rounded(f.seconds, 6);
      solve_rows.push_back(std::move(row));
    } else {
      fmt::print("{:<12} {:>+5} {:>12} {:>9.3f} {:>11.2f}M\n", game, f.value, f.nodes, f.seconds,
                 static_cast<double>(f.nodes) / f.seconds / 1e6);
      std::fflush(stdout);
    }
  }
  if (json) {
    Json out;
    out["perft"] = std::move(rows);
    out["moves_applied"] = total_applied;
    out["search"] = std::move(search_rows);
    out["search_nodes"] = total_nodes;
    out["solve"] = std::move(solve_rows);
    out["solve_nodes"] = solve_nodes;
    fmt::print("{}\n", json_output::dump(out));
  } else
    fmt::print("total solve nodes (the signature of the solver's behaviour): {}\n", solve_nodes);
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd =
      app.add_subcommand("bench", "Run the fixed speed workloads and print their figures");
  cmd->add_flag("--json", *json, "Print one JSON object");
  set_command(cmd, [json] { run_bench(*json); });
}

}  // namespace mancala::cli
