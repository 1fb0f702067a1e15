// mancala db bench GAME: probes per second, uniform random positions and random playouts.
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "db/table_set.h"
#include "solver/rules/moves.h"
#include "solver/tables/table_index.h"
#include "solver/tables/table_rules.h"
#include "solver/util/random.h"
#include "solver/util/stopwatch.h"
#include "solver/util/thread_count.h"
#include "tools/cli/commands.h"
#include "tools/command_line/command_line.h"
#include "tools/command_line/endgame_tables.h"
#include "tools/service/json_output.h"

namespace mancala::cli {

using namespace command_line;  // the helpers every command line shares

namespace {

// A billion probes take minutes a run; more is a typo.
constexpr uint64_t kMaxProbes = 1000000000;

struct ProbeBenchOptions {
  std::string game;
  std::string db;
  uint64_t probes = 1000000;
  int threads = 0;
  bool json = false;
};

struct ProbeSample {
  int seeds;
  TableKey key;
};

// Probes per second over `samples`, with `threads` threads.
double time_probes(const db::TableSet& tables, const std::vector<ProbeSample>& samples,
                   int threads) {
  std::atomic<uint64_t> failures{0};
  int64_t checksum = 0;
  const auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : checksum)
  for (size_t i = 0; i < samples.size(); ++i) {
    const db::ProbeResult r = tables.probe_key(samples[i].seeds, samples[i].key);
    if (!r.ok()) failures.fetch_add(1);
    checksum += r.value;
  }
  const double seconds = seconds_since(t0);
  if (failures.load()) throw Failure(fmt::format("{} probes failed", failures.load()));
  volatile int64_t sink = checksum;
  (void)sink;
  return static_cast<double>(samples.size()) / seconds;
}

void run_probe_bench(const ProbeBenchOptions& options, const Rules& rules) {
  // The samples: two lists of `probes` positions.
  require_memory(2 * options.probes * sizeof(ProbeSample),
                 fmt::format("--probes {}", options.probes));
  Expected<std::shared_ptr<const db::TableSet>> opened =
      db::TableSet::open(database_directory(options.db), rules);
  if (!opened) throw Failure(opened.error());
  warn_layer_gap((*opened)->gap_warning());
  const db::TableSet& tables = **opened;
  const int top = tables.max_seeds();
  if (top < 0) throw Failure("no " + rules.table_name() + " tables in " + tables.directory());
  const TableIndex index(2 * rules.houses, top);
  // Warm cache: open every layer and read all of its bytes once.
  uint64_t total = 0, bytes = 0;
  for (int s = 0; s <= top; ++s) {
    Expected<std::shared_ptr<const db::TableFile>> file = tables.layer(s);
    if (!file) throw Failure(file.error());
    if (!(*file)->data_checksum_ok()) throw Failure((*file)->path() + ": corrupt data");
    total += index.layer_size(s);
    bytes += (*file)->header().file_size;
  }
  // Uniform: every position of every layer equally likely.
  Random random(12345);
  std::vector<ProbeSample> uniform(options.probes);
  for (ProbeSample& sample : uniform) {
    uint64_t i = (random.next() >> 11) % total;
    int s = 0;
    while (i >= index.layer_size(s)) i -= index.layer_size(s++);
    sample.seeds = s;
    index.unrank(i, s, sample.key.counts.data());
  }
  // Playouts: the positions of random games inside the tables, in order, as a search meets
  // them (each near the one before).
  const Rules table_rules = *table_rules_for(rules);
  std::vector<ProbeSample> playout;
  playout.reserve(options.probes);
  while (playout.size() < options.probes) {
    const ProbeSample& from = uniform[playout.size() % uniform.size()];
    Position p = position_from_key(from.key.counts.data(), rules.houses);
    while (playout.size() < options.probes) {
      playout.push_back({p.seeds_on_board(), table_key(p)});
      const MoveList moves = generate_moves(table_rules, p);
      if (moves.empty()) break;
      p = apply_move(table_rules, p,
                     moves[static_cast<int>(random.below(static_cast<uint32_t>(moves.size())))]);
      p.slots[p.store_slot(Side::South)] = 0;  // table positions have empty stores
      p.slots[p.store_slot(Side::North)] = 0;
    }
  }
  const int threads = threads_or_all_cores(options.threads);
  time_probes(tables, uniform, 1);  // fill this thread's cache state fairly for both runs
  const double uniform_one = time_probes(tables, uniform, 1);
  const double playout_one = time_probes(tables, playout, 1);
  const double uniform_all = time_probes(tables, uniform, threads);
  const double playout_all = time_probes(tables, playout, threads);
  if (options.json) {
    json_output::Json out;
    out["table"] = rules.table_name();
    out["max_seeds"] = top;
    out["positions"] = total;
    out["bytes"] = bytes;
    out["probes"] = options.probes;
    out["threads"] = threads;
    out["uniform_per_second_one_thread"] = json_output::rounded(uniform_one, 0);
    out["uniform_per_second_all_threads"] = json_output::rounded(uniform_all, 0);
    out["playout_per_second_one_thread"] = json_output::rounded(playout_one, 0);
    out["playout_per_second_all_threads"] = json_output::rounded(playout_all, 0);
    fmt::print("{}\n", json_output::dump(out));
    return;
  }
  fmt::print("{} tables 0..{} seeds: {} positions, {} bytes ({:.3f} bits/position)\n",
             rules.table_name(), top, total, bytes,
             8.0 * static_cast<double>(bytes) / static_cast<double>(total));
  fmt::print("{} probes, files in the page cache\n", options.probes);
  fmt::print("  uniform random   1 thread: {:>12.0f} probes/s   {} threads: {:>12.0f} probes/s\n",
             uniform_one, threads, uniform_all);
  fmt::print("  random playouts  1 thread: {:>12.0f} probes/s   {} threads: {:>12.0f} probes/s\n",
             playout_one, threads, playout_all);
}

}  // namespace

void add_db_bench_command(CLI::App& db) {
  auto bench = std::make_shared<ProbeBenchOptions>();
  CLI::App* cmd =
      db.add_subcommand("bench", "Probes per second: uniform random positions and random playouts");
  cmd->add_option("GAME", bench->game, "Game whose tables to probe, e.g. kalah, oware")->required();
  cmd->add_option("--db", bench->db,
                  "Database directory (default $MANCALA_DB or ~/.local/share/mancala/db)")
      ->check(path_name());
  cmd->add_option("--probes,-n", bench->probes, "Probes per run (default 1000000)")
      ->check(unsigned_in(1, kMaxProbes));
  cmd->add_option("--threads,-t", bench->threads,
                  "Threads for the all-threads run (default: all cores)")
      ->check(thread_count());
  cmd->add_flag("--json", bench->json, "Print one JSON object");
  set_command(
      cmd, [bench] { return require_rules(bench->game); },
      [bench](const Rules& rules) { run_probe_bench(*bench, rules); });
}

}  // namespace mancala::cli
