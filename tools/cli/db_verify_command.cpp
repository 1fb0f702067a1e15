// mancala db verify DIR: checksums, then every stored value against its moves (or, with --sample,
// the values of positions drawn at random from each layer).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "db/table_set.h"
#include "db/table_verify.h"
#include "solver/util/thread_count.h"
#include "tools/cli/commands.h"
#include "tools/command_line/command_line.h"
#include "tools/command_line/progress.h"
#include "tools/service/validation.h"

namespace mancala::cli {

using namespace command_line;  // the helpers every command line shares

namespace {

// Nine tenths of the machine's memory (its control group's limit when lower), the rest left to
// the system: every layer's values are held at once, and refused up front when they cannot be.
uint64_t verify_memory_room() {
  return service::machine_memory_bytes() / 10 * 9;
}

// A layer's draws are held sorted, 8 bytes each: at most 0.8 GB.
constexpr uint64_t kMaxSample = 100000000;

struct VerifyOptions {
  std::string path;
  int threads = 0;
  bool quiet = false;
  uint64_t sample = 0;  // 0: every position
  uint64_t seed = 1;
};

void run_verify(const VerifyOptions& options) {
  Expected<std::vector<std::string>> found = db::table_directories(options.path);
  if (!found) throw Failure(found.error());
  const std::vector<std::string>& tables = *found;
  if (tables.empty()) throw Failure(options.path + ": no tables found (no seeds-00.mtb)");
  const int threads = threads_or_all_cores(options.threads);
  bool all_ok = true;
  for (const std::string& dir : tables) {
    if (options.sample == 0) {
      // Refused before anything is read, in this door's words (the library refuses too).
      const Expected<uint64_t> needed = db::verify_memory_needed(dir);
      if (needed && *needed > verify_memory_room())
        throw Failure(fmt::format(
            "{}: verifying every position holds every layer's values at once, {} MB, more than "
            "the {} MB of memory there is room for; --sample N checks N positions of each layer "
            "in place",
            dir, (*needed + (1 << 20) - 1) >> 20, verify_memory_room() >> 20));
    }
    ProgressBar bar(options.quiet);
    const auto progress = [&](const LayerProgress& p) {
      bar.update(fmt::format("layer {} {}", p.seeds, p.phase), p.done, p.total, "pos");
    };
    Expected<db::VerifyReport> report =
        options.sample == 0
            ? db::verify_table_directory(dir, progress, threads, 10, verify_memory_room())
            : db::verify_table_sample(dir, {options.sample, options.seed}, progress, threads, 10);
    bar.finish();
    if (!report) throw Failure(report.error());
    for (const std::string& error : report->errors) fmt::print("FAILED {}\n", error);
    for (const db::VerifyMismatch& m : report->first_mismatches)
      fmt::print("MISMATCH layer {} rank {} position {}: stored {}, recomputed {}\n", m.seeds,
                 m.rank, m.position, m.stored, m.recomputed);
    // The note only where the values were checked: a layer that failed stops the verify early.
    const std::string plain_note =
        report->plain_layers && report->layers
            ? fmt::format(" ({} with plain copies, checked too)", report->plain_layers)
            : "";
    const std::string drawn = options.sample == 0 ? ""
                                                  : fmt::format(" drawn from {} (seed {})",
                                                                report->sampled_from, options.seed);
    fmt::print("{}: {} {} layers{}, {} positions{}, {} mismatches\n", dir,
               report->ok() ? "OK" : "FAILED", report->layers, plain_note, report->positions, drawn,
               report->mismatch_count);
    all_ok = all_ok && report->ok();
  }
  if (!all_ok) throw Failure("verification failed");
}

}  // namespace

void add_db_verify_command(CLI::App& db) {
  auto verify = std::make_shared<VerifyOptions>();
  CLI::App* cmd =
      db.add_subcommand("verify", "Check checksums and that every stored value is consistent");
  cmd->add_option("DIR", verify->path, "A table directory or a database directory")
      ->required()
      ->check(path_name());
  cmd->add_option("--threads,-t", verify->threads, "Threads (default: all cores)")
      ->check(thread_count());
  cmd->add_flag("--quiet,-q", verify->quiet, "No progress bar");
  cmd->add_option("--sample", verify->sample,
                  "Check N positions drawn at random from each layer (every position of a layer "
                  "of no more), its files read in place rather than held in memory: for tables "
                  "larger than the memory (default: every position)")
      ->check(unsigned_in(1, kMaxSample));
  cmd->add_option("--seed", verify->seed,
                  "With --sample: the draws (the same seed draws the same positions; default 1)")
      ->check(unsigned_in(0, UINT64_MAX))
      ->needs("--sample");
  set_command(cmd, [verify] { run_verify(*verify); });
}

}  // namespace mancala::cli
