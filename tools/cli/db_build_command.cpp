// mancala db build GAME --max-seeds S: a game's endgame tables, layer by layer, resumable.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "db/table_build.h"
#include "db/table_build_mpi.h"
#include "solver/util/stopwatch.h"
#include "solver/util/thread_count.h"
#include "tools/cli/commands.h"
#include "tools/command_line/command_line.h"
#include "tools/command_line/progress.h"

namespace mancala::cli {

using namespace command_line;  // the helpers every command line shares

namespace {

struct BuildOptions {
  std::string game;
  int max_seeds = -1;
  std::string out;
  int threads = 0;
  uint32_t block_size = 0;  // 0: the encoding's default
  std::string encoding = "coded";
  int level = db::WriteOptions{}.compression_level;
  bool quiet = false;
  bool mpi = false;
  std::string partition = "interleaved";
  double layer_memory_gib = -1;  // -1: two thirds of this machine's memory
};

// What the check step parsed: the request as the library takes it, threads included.
struct ParsedBuild {
  db::BuildRequest request;
  db::DistributedOptions distributed;
};

ParsedBuild parse_build(const BuildOptions& options) {
  ParsedBuild parsed;
  db::BuildRequest& request = parsed.request;
  request.rules = require_rules(options.game);
  request.max_seeds = options.max_seeds;
  request.database_dir = database_directory(options.out);
  request.write.block_size = options.block_size;
  request.write.encoding = options.encoding == "zstd" ? db::kZstdBlocks : db::kCodedBlocks;
  if (request.write.encoding == db::kCodedBlocks && options.block_size > db::kMaxCodedBlockSize)
    throw UsageError(fmt::format("--block-size: a coded block holds at most {} positions",
                                 db::kMaxCodedBlockSize));
  request.write.compression_level = options.level;
  // --threads 0 (the default) is all cores, read here once; with --mpi the ranks on one machine
  // share them out (below).
  request.threads = options.mpi ? options.threads : threads_or_all_cores(options.threads);
  request.layer_memory = options.layer_memory_gib < 0
                             ? service::default_layer_memory_bytes()
                             : static_cast<uint64_t>(options.layer_memory_gib * (1ull << 30));
  // Over MPI every machine holds a share of each layer; on one machine the last layers must fit.
  if (!options.mpi)
    if (Expected<bool> fits = service::check_build_fits_machine(request.rules, request.max_seeds,
                                                                request.layer_memory);
        !fits)
      throw UsageError(fits.error() + " (more with --mpi, over several machines)");
  parsed.distributed.partition = options.partition == "ranges"
                                     ? db::PartitionPolicy::Ranges
                                     : db::PartitionPolicy::Interleaved;  // the validator's two
  parsed.distributed.machine_memory = service::machine_memory_bytes();
  return parsed;
}

double megabytes(uint64_t bytes) {
  return static_cast<double>(bytes) / 1e6;
}

// The build shared out over the ranks of an MPI job (`mpirun -np N mancala db build ... --mpi`).
// Rank 0 prints; every rank builds. An error the ranks agreed on (the build's every failure is
// agreed on by a collective) is printed by rank 0 while MPI still runs; a barrier then holds every
// rank until it is printed, so that no rank can exit first and have mpiexec end rank 0 before it
// spoke; then MPI ends on every rank and each exits with status 1. An error on one rank alone (an
// exception: it cannot reach the others) is printed by that rank, marked with its rank, before
// MPI_Abort stops the whole job.
void run_distributed_build(const BuildOptions& options, const ParsedBuild& parsed) {
  if (!db::MpiSession::available())
    throw Failure(
        "--mpi is not available: this mancala was built without MPI (install libopenmpi-dev and "
        "openmpi-bin, then configure with -DMANCALA_MPI=ON)");
  db::BuildRequest request = parsed.request;
  bool failed = false;
  {
    Expected<std::unique_ptr<db::MpiSession>> started = db::MpiSession::start();
    if (!started) throw Failure(started.error());
    const db::MpiSession& session = **started;
    const int rank = session.rank();
    // By default the ranks on one machine share its cores out between them.
    if (request.threads == 0)
      request.threads = std::max(1, all_cores() / session.ranks_on_this_machine());
    try {
      // Rank 0 prints the table, unless --quiet; the others never print but errors.
      const bool printer = rank == 0 && !options.quiet;
      // A build some machine cannot hold is refused before the table starts.
      Expected<bool> done = db::check_distributed_build_fits(session, request, parsed.distributed);
      if (printer && done) {
        fmt::print("building {} tables up to {} seeds in {} ({} ranks x {}, {} parts)\n",
                   request.rules.table_name(), request.max_seeds, request.database_dir,
                   session.size(), thread_count_text(request.threads), options.partition);
        fmt::print(
            "{:>5} {:>14} {:>7} {:>9} {:>8} {:>8} {:>8} {:>13} {:>9} {:>12} {:>12} {:>10} {:>9} "
            "{:>8} {:>9} {:>10}  {}\n",
            "seeds", "positions", "levels", "seconds", "exits", "levels", "write", "bytes",
            "bits/pos", "values asked", "updates", "msg MB", "exchanges", "exch s", "imbalance",
            "peak MB", "");
        std::fflush(stdout);
      }
      ProgressBar bar(!printer);
      uint64_t total_positions = 0, total_bytes = 0, total_messages = 0, total_message_bytes = 0;
      double total_seconds = 0;
      uint64_t peak = 0;
      if (done)
        done = db::build_tables_distributed(
            session, request, parsed.distributed,
            [&](const db::DistributedProgress& p) {
              bar.update(fmt::format("layer {} {}", p.seeds, p.phase), p.done, p.total, "pos",
                         fmt::format("{} messages ({:.1f} MB)",
                                     format_count(static_cast<double>(p.messages)),
                                     megabytes(p.message_bytes)));
            },
            [&](const db::DistributedLayerReport& report) {
              const db::LayerReport& layer = report.layer;
              bar.finish();
              total_positions += layer.positions;
              total_bytes += layer.file_size;
              total_seconds += layer.seconds;
              total_messages += report.messages();
              total_message_bytes += report.message_bytes;
              peak = std::max(peak, report.peak_memory_max);
              if (!printer) return;
              fmt::print(
                  "{:>5} {:>14} {:>7} {:>9.2f} {:>8.2f} {:>8.2f} {:>8.2f} {:>13} {:>9.3f} {:>12} "
                  "{:>12} {:>10.1f} {:>9} {:>8.2f} {:>8.0f}% {:>10.1f}  {}\n",
                  layer.seeds, layer.positions, layer.resumed ? "-" : std::to_string(layer.levels),
                  layer.seconds, layer.exits_seconds, layer.levels_seconds, layer.write_seconds,
                  layer.file_size,
                  8.0 * static_cast<double>(layer.file_size) / static_cast<double>(layer.positions),
                  report.value_requests, report.level_updates, megabytes(report.message_bytes),
                  report.exchanges, report.exchange_seconds, 100 * report.imbalance,
                  megabytes(report.peak_memory_max),
                  layer.from_plain_copy ? "(kept from an earlier build, read from its plain copy)"
                  : layer.resumed       ? "(kept from an earlier build)"
                                        : "");
              std::fflush(stdout);
            });
      if (!done) {
        // Every rank holds the same agreed error: rank 0 speaks for all of them.
        failed = true;
        if (rank == 0) report_error(done.error());
      } else if (printer) {
        fmt::print(
            "total {} positions, {} bytes ({:.3f} bits/position), {:.1f} s, {} messages "
            "({:.1f} MB), peak memory of a rank {:.1f} MB\n",
            total_positions, total_bytes,
            8.0 * static_cast<double>(total_bytes) / static_cast<double>(total_positions),
            total_seconds, total_messages, megabytes(total_message_bytes), megabytes(peak));
        std::fflush(stdout);
      }
      session.barrier();
    } catch (const std::exception& e) {
      report_error(fmt::format("rank {}: {}", rank, e.what()));
      session.abort(1);
    }
  }  // MPI ends here, on every rank alike
  if (failed) throw ReportedFailure{};
}

void run_build(const BuildOptions& options, const ParsedBuild& parsed) {
  if (options.mpi) return run_distributed_build(options, parsed);
  const db::BuildRequest& request = parsed.request;
  const bool printer = !options.quiet;
  if (printer) {
    // The builder's threads, and as many again writing alongside.
    fmt::print("building {} tables up to {} seeds in {} ({})\n", request.rules.table_name(),
               request.max_seeds, request.database_dir, thread_count_text(request.threads));
    // "build" is the builder's time for the layer: one pass (Kalah), or its exits and levels
    // phases (Oware). "write" ran alongside the build of the layers above.
    fmt::print("{:>5} {:>14} {:>7} {:>9} {:>8} {:>8} {:>8} {:>13} {:>9}  {}\n", "seeds",
               "positions", "levels", "build", "exits", "levels", "write", "bytes", "bits/pos", "");
  }
  ProgressBar bar(options.quiet);
  uint64_t total_positions = 0, total_bytes = 0, mapped_bytes = 0;
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
        mapped_bytes = layer.mapped_bytes;
        if (!printer) return;
        const std::string levels = layer.resumed       ? "-"
                                   : layer.levels == 0 ? "1 pass"
                                                       : std::to_string(layer.levels);
        fmt::print(
            "{:>5} {:>14} {:>7} {:>9.2f} {:>8.2f} {:>8.2f} {:>8.2f} {:>13} {:>9.3f}  {}\n",
            layer.seeds, layer.positions, levels, layer.seconds, layer.exits_seconds,
            layer.levels_seconds, layer.write_seconds, layer.file_size,
            8.0 * static_cast<double>(layer.file_size) / static_cast<double>(layer.positions),
            layer.from_plain_copy ? "(kept from an earlier build, read from its plain copy)"
            : layer.resumed       ? "(kept from an earlier build)"
                                  : "");
        std::fflush(stdout);
      });
  if (!done) throw Failure(done.error());
  if (!printer) return;
  const double seconds = seconds_since(start);
  fmt::print("total {} positions, {} bytes ({:.3f} bits/position), {:.1f} s\n", total_positions,
             total_bytes,
             8.0 * static_cast<double>(total_bytes) / static_cast<double>(total_positions),
             seconds);
  if (mapped_bytes > 0)
    fmt::print(
        "{:.1f} GB of the layers below were read from scratch files (--layer-memory {:.1f})\n",
        static_cast<double>(mapped_bytes) / 1e9,
        static_cast<double>(*request.layer_memory) / (1ull << 30));
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
      ->required()
      ->check(table_seeds());
  cmd->add_option("--out,-o", build->out,
                  "Database directory (default $MANCALA_DB or ~/.local/share/mancala/db)")
      ->check(path_name());
  cmd->add_option("--threads,-t", build->threads,
                  "Threads that build a layer; as many again compress and write the finished "
                  "layer below alongside (default: all cores)")
      ->check(thread_count());
  cmd->add_option("--encoding", build->encoding,
                  "coded (format version 2, the default: Huffman codes in small blocks, smaller "
                  "and faster to probe) or zstd (format version 1)")
      ->check(CLI::IsMember({"coded", "zstd"}));
  cmd->add_option("--block-size", build->block_size,
                  "Positions per compressed block (default 128 coded, at most 512; 1024 zstd)")
      ->check(integer_in(64, db::kMaxBlockSize));
  cmd->add_option("--level", build->level,
                  "zstd compression level, 1-22 (default 12; 19 writes about 6% smaller files, "
                  "in twice the time for Kalah)")
      ->check(integer_in(1, 22));
  CLI::Option* layer_memory =
      cmd->add_option("--layer-memory", build->layer_memory_gib,
                      "Gibibytes the layers may take in memory: the layer being built and the "
                      "finished layers below it (default: two thirds of this machine's memory); "
                      "beyond it the lowest finished layers are copied to scratch files in the "
                      "output directory and read through memory maps, whose pages the system "
                      "can drop and read back; a Kalah layer that does not fit beside the one "
                      "below is built in such a file itself (0: every layer)")
          ->check(memory_gibibytes());
  cmd->add_flag("--quiet,-q", build->quiet, "Print nothing but errors (no progress, no table)");
  cmd->add_flag("--mpi", build->mpi,
                "Share the build out over the ranks of an MPI job: mpirun -np N mancala db build "
                "... --mpi (the output directory must be shared by every rank; same files as "
                "without --mpi; --threads is then per rank, by default the machine's cores shared "
                "out between its ranks)")
      ->excludes(layer_memory);
  cmd->add_option("--partition", build->partition,
                  "With --mpi: how a layer is cut between ranks: interleaved (chunks of at least "
                  "16384 positions dealt round-robin, the default: the work evens out) or ranges "
                  "(one range of positions each)")
      ->check(CLI::IsMember({"interleaved", "ranges"}));
  set_command(
      cmd, [build] { return parse_build(*build); },
      [build](const ParsedBuild& parsed) { run_build(*build, parsed); });
}

}  // namespace mancala::cli
