// mancala db verify DIR: checksums, then every stored value against its moves.
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

void run_verify(const std::string& path, int threads, bool quiet) {
  Expected<std::vector<std::string>> found = db::table_directories(path);
  if (!found) throw Failure(found.error());
  const std::vector<std::string>& tables = *found;
  if (tables.empty()) throw Failure(path + ": no tables found (no seeds-00.mtb)");
  bool all_ok = true;
  for (const std::string& dir : tables) {
    ProgressBar bar(quiet);
    Expected<db::VerifyReport> report = db::verify_table_directory(
        dir,
        [&](const LayerProgress& p) {
          bar.update(fmt::format("layer {} {}", p.seeds, p.phase), p.done, p.total, "pos");
        },
        threads, 10, verify_memory_room());
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
    fmt::print("{}: {} {} layers{}, {} positions, {} mismatches\n", dir,
               report->ok() ? "OK" : "FAILED", report->layers, plain_note, report->positions,
               report->mismatch_count);
    all_ok = all_ok && report->ok();
  }
  if (!all_ok) throw Failure("verification failed");
}

struct VerifyOptions {
  std::string path;
  int threads = 0;
  bool quiet = false;
};

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
  set_command(cmd, [verify] {
    run_verify(verify->path, threads_or_all_cores(verify->threads), verify->quiet);
  });
}

}  // namespace mancala::cli
