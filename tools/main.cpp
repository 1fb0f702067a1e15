// mancala: one command with subcommands; `mancala SUBCOMMAND --help` describes each.
#include <cstdio>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "tools/cli.h"

int main(int argc, char** argv) {
  CLI::App app{"mancala: play, count, solve and analyse Kalah, Oware and Congkak"};
  app.require_subcommand(1);
  app.footer("GAME strings:\n" + std::string(mancala::game_string_forms()));
  mancala::cli::add_play_command(app);
  mancala::cli::add_perft_command(app);
  mancala::cli::add_apply_command(app);
  mancala::cli::add_bench_command(app);
  mancala::cli::add_db_command(app);
  mancala::cli::add_match_command(app);
  mancala::cli::add_analyse_command(app);
  mancala::cli::add_solve_command(app);
  mancala::cli::add_serve_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const mancala::cli::UsageError& e) {
    fmt::print(stderr, "mancala: error: {}\n", e.what());
    return 2;
  } catch (const mancala::cli::Failure& e) {
    fmt::print(stderr, "mancala: error: {}\n", e.what());
    return 1;
  }
  return 0;
}
