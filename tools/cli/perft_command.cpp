// mancala perft GAME DEPTH [--position P] [--json]
#include <chrono>
#include <string>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "solver/rules/perft.h"
#include "solver/util/stopwatch.h"
#include "tools/cli/commands.h"
#include "tools/command_line/command_line.h"
#include "tools/service/json_output.h"

namespace mancala::cli {

using namespace command_line;  // the helpers every command line shares

namespace {

struct PerftOptions {
  std::string game;
  int depth = 0;
  std::string position;
  bool json = false;
};

void run_perft(const PerftOptions& options, const RulesAndPosition& parsed) {
  const Rules& rules = parsed.rules;
  const Position& start = parsed.position;
  if (!options.json) {
    fmt::print("perft {} from {}\n", rules.name(), to_string(start));
    fmt::print("{:>5} {:>16} {:>18} {:>10} {:>14}\n", "depth", "leaves", "moves applied", "seconds",
               "moves/s");
  }
  json_output::Json rows = json_output::Json::array();
  for (int depth = 1; depth <= options.depth; ++depth) {
    const auto t0 = std::chrono::steady_clock::now();
    const PerftCount count = perft(rules, start, depth);
    const double seconds = seconds_since(t0);
    const double rate = seconds > 0 ? static_cast<double>(count.moves_applied) / seconds : 0.0;
    if (options.json) {
      json_output::Json row;
      row["depth"] = depth;
      row["leaves"] = count.leaves;
      row["moves_applied"] = count.moves_applied;
      row["seconds"] = json_output::rounded(seconds, 6);
      rows.push_back(std::move(row));
    } else {
      fmt::print("{:>5} {:>16} {:>18} {:>10.3f} {:>13.1f}M\n", depth, count.leaves,
                 count.moves_applied, seconds, rate / 1e6);
      std::fflush(stdout);
    }
  }
  if (options.json) {
    json_output::Json out;
    out["game"] = rules.name();
    out["position"] = to_string(start);
    out["perft"] = std::move(rows);
    fmt::print("{}\n", json_output::dump(out));
  }
}

}  // namespace

void add_perft_command(CLI::App& app) {
  auto options = std::make_shared<PerftOptions>();
  CLI::App* cmd =
      app.add_subcommand("perft", "Count move sequences to each depth (rules check and speed)");
  cmd->add_option("GAME", options->game, "Game and variant, e.g. kalah, oware:4:awari")->required();
  cmd->add_option("DEPTH", options->depth, "Deepest ply to count (1-40)")
      ->required()
      ->check(integer_in(1, 40));
  cmd->add_option("--position,-p", options->position, "Start from this position string");
  cmd->add_flag("--json", options->json, "Print one JSON object");
  set_command(
      cmd, [options] { return require_rules_and_position(options->game, options->position); },
      [options](const RulesAndPosition& parsed) { run_perft(*options, parsed); });
}

}  // namespace mancala::cli
