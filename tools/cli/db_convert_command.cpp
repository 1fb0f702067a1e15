// mancala db convert GAME --to coded|zstd: the compressed layers rewritten in another encoding.
#include <algorithm>
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

struct ConvertOptions {
  std::string game;
  int max_seeds = -1;
  std::string db;
  int threads = 0;
  std::string to = "coded";
  bool quiet = false;
};

void run_convert(const ConvertOptions& options, const Rules& rules) {
  db::ConvertRequest request;
  request.rules = rules;
  request.max_seeds = options.max_seeds;
  request.database_dir = database_directory(options.db);
  request.threads = threads_or_all_cores(options.threads);
  request.write.encoding = options.to == "zstd" ? db::kZstdBlocks : db::kCodedBlocks;
  Expected<db::UnpackPlan> plan = db::plan_unpack(
      db::UnpackRequest{rules, options.max_seeds, request.database_dir, request.threads});
  if (!plan) throw Failure(with_build_advice(plan.error(), rules, request.database_dir));
  warn_layer_gap(plan->warning);
  fmt::print("converting {} layers 0..{} in {} to {} ({})\n", rules.table_name(), plan->last_layer,
             plan->directory, options.to, thread_count_text(request.threads));
  fmt::print("{:>5} {:>14} {:>13} {:>13} {:>9}\n", "seeds", "positions", "bytes before", "bytes",
             "seconds");
  ProgressBar bar(options.quiet);
  uint64_t before = 0, after = 0, positions = 0;
  Expected<bool> done = db::convert_tables(
      request,
      [&](const LayerProgress& p) {
        bar.update(fmt::format("layer {} {}", p.seeds, p.phase), p.done, p.total, "pos");
      },
      [&](const db::ConvertLayerReport& layer) {
        bar.finish();
        before += layer.old_size;
        after += layer.file_size;
        positions += layer.positions;
        fmt::print("{:>5} {:>14} {:>13} {:>13} {:>9.2f}  {}\n", layer.seeds, layer.positions,
                   layer.old_size, layer.file_size, layer.seconds,
                   layer.kept ? "kept (already in that encoding)" : "converted");
        std::fflush(stdout);
      });
  bar.finish();
  if (!done) throw Failure(done.error());
  const double n = static_cast<double>(std::max<uint64_t>(positions, 1));
  fmt::print("{} bytes before ({:.3f} bits/position), {} after ({:.3f} bits/position)\n", before,
             8.0 * static_cast<double>(before) / n, after, 8.0 * static_cast<double>(after) / n);
}

}  // namespace

void add_db_convert_command(CLI::App& db) {
  auto convert = std::make_shared<ConvertOptions>();
  CLI::App* cmd = db.add_subcommand(
      "convert",
      "Rewrite a game's compressed tables in another encoding: coded (format version 2) or zstd "
      "(format version 1, for older readers); resumes");
  cmd->add_option("GAME", convert->game, "Game whose tables to convert, e.g. kalah, oware")
      ->required();
  cmd->add_option("--to", convert->to, "coded (the default) or zstd")
      ->check(CLI::IsMember({"coded", "zstd"}));
  cmd->add_option("--max-seeds,-s", convert->max_seeds,
                  "Convert layers 0..S (default: every layer the directory has)")
      ->check(table_seeds());
  cmd->add_option("--db", convert->db,
                  "Database directory (default $MANCALA_DB or ~/.local/share/mancala/db)")
      ->check(path_name());
  cmd->add_option("--threads,-t", convert->threads,
                  "Threads decoding and coding (default: all cores)")
      ->check(thread_count());
  cmd->add_flag("--quiet,-q", convert->quiet, "No progress bar");
  set_command(
      cmd, [convert] { return require_rules(convert->game); },
      [convert](const Rules& rules) { run_convert(*convert, rules); });
}

}  // namespace mancala::cli
