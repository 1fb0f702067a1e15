// mancala db build GAME --max-seeds S: a game's endgame tables, layer by layer, resumable.
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "db/table_build.h"
#include "tools/cli.h"
#include "tools/progress.h"

namespace mancala::cli {

namespace {

struct BuildOptions {
  std::string game;
  int max_seeds = -1;
  std::string out;
  int threads = 0;
  uint32_t block_size = db::WriteOptions{}.block_size;
  int level = db::WriteOptions{}.compression_level;
  bool quiet = false;
};

void run_build(const BuildOptions& options) {
  const Rules rules = require_rules(options.game);
  set_thread_count(options.threads);
  if (options.block_size < 64 || options.block_size > (1u << 24))
    throw UsageError("--block-size must be from 64 to 16777216 positions");
  db::BuildRequest request{rules, options.max_seeds, database_directory(options.out), {}};
  request.write.block_size = options.block_size;
  request.write.compression_level = options.level;
  fmt::print("building {} tables up to {} seeds in {} ({} threads)\n", rules.table_name(),
             options.max_seeds, request.database_dir, omp_get_max_threads());
  // "build" is the builder's time for the layer: one pass (Kalah), or its exits and levels
  // phases (Oware). "write" ran alongside the build of the layers above.
  fmt::print("{:>5} {:>14} {:>7} {:>9} {:>8} {:>8} {:>8} {:>13} {:>9}  {}\n", "seeds", "positions",
             "levels", "build", "exits", "levels", "write", "bytes", "bits/pos", "");
  ProgressBar bar(options.quiet);
  uint64_t total_positions = 0, total_bytes = 0;
  const auto start = std::chrono::steady_clock::now();
  Expected<bool> done = db::build_tables(
      request,
      [&](const LayerProgress& p) {
        bar.update(fmt::format("layer {} {}", p.seeds, p.phase), p.done, p.total, "pos");
      },
      [&](const db::LayerReport& layer) {
        bar.finish();
        total_positions += layer.positions;
        total_bytes += layer.file_size;
        const std::string levels = layer.resumed       ? "-"
                                   : layer.levels == 0 ? "1 pass"
                                                       : std::to_string(layer.levels);
        fmt::print(
            "{:>5} {:>14} {:>7} {:>9.2f} {:>8.2f} {:>8.2f} {:>8.2f} {:>13} {:>9.3f}  {}\n",
            layer.seeds, layer.positions, levels, layer.seconds, layer.exits_seconds,
            layer.levels_seconds, layer.write_seconds, layer.file_size,
            8.0 * static_cast<double>(layer.file_size) / static_cast<double>(layer.positions),
            layer.resumed ? "(kept from an earlier build)" : "");
        std::fflush(stdout);
      });
  if (!done) throw Failure(done.error());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print("total {} positions, {} bytes ({:.3f} bits/position), {:.1f} s\n", total_positions,
             total_bytes,
             8.0 * static_cast<double>(total_bytes) / static_cast<double>(total_positions),
             seconds);
}

}  // namespace

void add_db_build_command(CLI::App& db) {
  auto build = std::make_shared<BuildOptions>();
  CLI::App* cmd =
      db.add_subcommand("build", "Build a game's endgame tables (resumes an interrupted build)");
  cmd->add_option("GAME", build->game, "kalah[:H:N[:empty-capture]] (H <= 6) or oware[:N[:RULES]]")
      ->required();
  cmd->add_option("--max-seeds,-s", build->max_seeds,
                  "Build every layer up to this many seeds on the board")
      ->required();
  cmd->add_option("--out,-o", build->out,
                  "Database directory (default $MANCALA_DB or ~/.local/share/mancala/db)");
  cmd->add_option("--threads,-t", build->threads,
                  "Threads that build a layer; as many again compress and write the finished "
                  "layer below alongside (default: all cores)");
  cmd->add_option("--block-size", build->block_size, "Positions per compressed block");
  cmd->add_option("--level", build->level, "zstd compression level (1-22)");
  cmd->add_flag("--quiet,-q", build->quiet, "No progress bar");
  cmd->callback([build] { run_build(*build); });
}

}  // namespace mancala::cli
