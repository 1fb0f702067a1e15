// mancala db unpack GAME [--max-seeds S]: plain copies of a game's table layers.
#include <cstdio>
#include <memory>
#include <string>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "db/table_unpack.h"
#include "solver/util/thread_count.h"
#include "tools/cli/commands.h"
#include "tools/command_line/command_line.h"
#include "tools/command_line/endgame_tables.h"
#include "tools/command_line/progress.h"

namespace mancala::cli {

using namespace command_line;  // the helpers every command line shares

namespace {

struct UnpackOptions {
  std::string game;
  int max_seeds = -1;  // -1: every layer there is
  std::string db;
  int threads = 0;
  bool quiet = false;
};

void run_unpack(const UnpackOptions& options, const Rules& rules) {
  const db::UnpackRequest request{rules, options.max_seeds, database_directory(options.db),
                                  threads_or_all_cores(options.threads)};
  Expected<db::UnpackPlan> plan = db::plan_unpack(request);
  if (!plan) throw Failure(with_build_advice(plan.error(), rules, request.database_dir));
  warn_layer_gap(plan->warning);
  fmt::print("unpacking {} layers 0..{} in {} ({})\n", rules.table_name(), plan->last_layer,
             plan->directory, thread_count_text(request.threads));
  fmt::print("{:>5} {:>14} {:>13} {:>9}\n", "seeds", "positions", "bytes", "seconds");
  ProgressBar bar(options.quiet);
  int written = 0, kept = 0;
  uint64_t written_bytes = 0;
  double seconds = 0;
  Expected<bool> done = db::unpack_tables(
      request,
      [&](const LayerProgress& p) {
        bar.update(fmt::format("layer {} {}", p.seeds, p.phase), p.done, p.total, "pos");
      },
      [&](const db::UnpackLayerReport& layer) {
        bar.finish();
        (layer.kept ? kept : written) += 1;
        if (!layer.kept) written_bytes += layer.file_size;
        seconds += layer.seconds;
        fmt::print("{:>5} {:>14} {:>13} {:>9.2f}  {}\n", layer.seeds, layer.positions,
                   layer.file_size, layer.seconds,
                   layer.kept ? "kept (already unpacked)" : "written");
        std::fflush(stdout);
      });
  bar.finish();
  if (!done) throw Failure(done.error());
  fmt::print("{} layers written ({} bytes), {} kept, {:.2f} s\n", written, written_bytes, kept,
             seconds);
}

}  // namespace

void add_db_unpack_command(CLI::App& db) {
  auto unpack = std::make_shared<UnpackOptions>();
  CLI::App* cmd = db.add_subcommand(
      "unpack",
      "Plain (uncompressed) copies of a game's tables, read in place by probes: faster solves, "
      "~1 byte a position on disk (resumes)");
  cmd->add_option("GAME", unpack->game, "Game whose tables to unpack, e.g. kalah, oware")
      ->required();
  cmd->add_option("--max-seeds,-s", unpack->max_seeds,
                  "Unpack layers 0..S (default: every layer the directory has)")
      ->check(table_seeds());
  cmd->add_option("--db", unpack->db,
                  "Database directory (default $MANCALA_DB or ~/.local/share/mancala/db)")
      ->check(path_name());
  cmd->add_option("--threads,-t", unpack->threads, "Threads decoding (default: all cores)")
      ->check(thread_count());
  cmd->add_flag("--quiet,-q", unpack->quiet, "No progress bar");
  set_command(
      cmd, [unpack] { return require_rules(unpack->game); },
      [unpack](const Rules& rules) { run_unpack(*unpack, rules); });
}

}  // namespace mancala::cli
