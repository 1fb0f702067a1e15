#include "tools/mancala_command.h"

#include "tools/cli/commands.h"
#include "tools/engine/engine_command.h"
#include "tools/http/serve_command.h"

namespace mancala::cli {

void add_commands(CLI::App& app) {
  add_play_command(app);
  add_perft_command(app);
  add_apply_command(app);
  add_bench_command(app);
  add_db_command(app);
  add_match_command(app);
  add_analyse_command(app);
  add_solve_command(app);
  add_serve_command(app);
  engine::add_engine_command(app);
}

int run_command_line(int argc, const char* const* argv, CommandMode mode) {
  CLI::App app{"mancala: play, count, solve and analyse Kalah, Oware and Congkak"};
  app.require_subcommand(1);
  add_commands(app);
  return run_command_line(app, argc, argv, mode);
}

}  // namespace mancala::cli
