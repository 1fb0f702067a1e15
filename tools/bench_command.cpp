// mancala bench: fixed workloads whose counts are a signature of the engine's behaviour and whose
// rates measure its speed. Single-threaded.
#include <chrono>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "solver/perft.h"
#include "tools/cli.h"

namespace mancala::cli {

namespace {

struct PerftWorkload {
  const char* game;
  int depth;
};

// Sized to take about a second each on a 2020s core.
constexpr PerftWorkload kPerftWorkloads[] = {
    {"kalah", 10},
    {"oware", 10},
    {"congkak", 8},
};

void run_bench(bool json) {
  if (!json) {
    fmt::print("perft workloads (single thread, every move applied, leaf ply included)\n");
    fmt::print("{:<10} {:>5} {:>14} {:>16} {:>9} {:>12}\n", "game", "depth", "leaves",
               "moves applied", "seconds", "moves/s");
  }
  std::string rows;
  uint64_t total_applied = 0;
  for (const PerftWorkload& work : kPerftWorkloads) {
    const Rules rules = require_rules(work.game);
    const auto t0 = std::chrono::steady_clock::now();
    const PerftCount count = perft(rules, start_position(rules), work.depth);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double rate = static_cast<double>(count.moves_applied) / seconds;
    total_applied += count.moves_applied;
    if (json) {
      rows += fmt::format("{}{{\"game\": {}, \"depth\": {}, \"leaves\": {}, \"moves_applied\": {}, "
                          "\"seconds\": {:.6f}, \"moves_per_second\": {:.0f}}}",
                          rows.empty() ? "" : ", ", json_string(rules.name()), work.depth,
                          count.leaves, count.moves_applied, seconds, rate);
    } else {
      fmt::print("{:<10} {:>5} {:>14} {:>16} {:>9.3f} {:>11.1f}M\n", work.game, work.depth,
                 count.leaves, count.moves_applied, seconds, rate / 1e6);
      std::fflush(stdout);
    }
  }
  if (json) fmt::print("{{\"perft\": [{}], \"moves_applied\": {}}}\n", rows, total_applied);
  else fmt::print("total moves applied: {}\n", total_applied);
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("bench", "Run the fixed speed workloads and print their figures");
  cmd->add_flag("--json", *json, "Print one JSON object");
  cmd->callback([json] { run_bench(*json); });
}

}  // namespace mancala::cli
