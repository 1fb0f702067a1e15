#include "tools/mancala_command.h"

#include <string>

#include "mancala_version.h"
#include "tools/cli/commands.h"
#include "tools/command_line/command_line.h"
#include "tools/engine/engine_command.h"
#include "tools/http/serve_command.h"

namespace mancala {

void add_commands(CLI::App& app) {
  cli::add_play_command(app);
  cli::add_perft_command(app);
  cli::add_apply_command(app);
  cli::add_bench_command(app);
  cli::add_db_command(app);
  cli::add_match_command(app);
  cli::add_analyse_command(app);
  cli::add_solve_command(app);
  cli::add_puzzles_command(app);
  http::add_serve_command(app);
  engine::add_engine_command(app);
}

int run_command_line(int argc, const char* const* argv, command_line::CommandMode mode) {
  // Named, so that help reads "Usage: mancala ..." wherever the binary was started from (as the
  // manual pages generated from it must).
  CLI::App app{"mancala: play, count, solve and analyse Kalah, Oware and Congkak", "mancala"};
  app.require_subcommand(1);
  // "mancala 0.1.0": the form help2man reads the version from, for the manual pages.
  app.set_version_flag("--version", "mancala " + std::string(kVersion),
                       "Print the version and exit");
  add_commands(app);
  return command_line::run_command_line(app, argc, argv, mode);
}

int run_command_line(int argc, const char* const* argv) {
  return run_command_line(argc, argv, command_line::CommandMode::Execute);
}

}  // namespace mancala
