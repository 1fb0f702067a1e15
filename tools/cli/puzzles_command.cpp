// mancala puzzles build GAME --out FILE, mancala puzzles verify FILE: a library of puzzles made
// from the endgame tables (tools/service/puzzles.h), the one the web board's trainer ships.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "db/file_io.h"
#include "solver/util/stopwatch.h"
#include "tools/cli/commands.h"
#include "tools/command_line/command_line.h"
#include "tools/command_line/endgame_tables.h"
#include "tools/service/puzzles.h"

namespace mancala::cli {

using namespace command_line;  // the helpers every command line shares

namespace {

// A library file is small (a few hundred bytes a puzzle); anything far larger is not one.
constexpr size_t kMaxLibraryBytes = 64u << 20;

struct BuildOptions {
  std::string game;
  std::string db;
  std::string out;
  int count = 300;
  uint64_t seed = 1;
  int min_seeds = 5;
  int max_seeds = 12;
  int max_moves = 3;
};

struct VerifyOptions {
  std::string file;
  std::string db;
};

std::unique_ptr<db::TableValues> require_tables(const Rules& rules, const std::string& db_dir) {
  std::string why_not;
  std::unique_ptr<db::TableValues> tables =
      open_table_values(rules, db_dir, &why_not, "the puzzles cannot be judged");
  if (!tables) throw Failure(why_not);
  return tables;
}

void run_build(const BuildOptions& options, const Rules& rules) {
  const std::unique_ptr<db::TableValues> tables = require_tables(rules, options.db);
  service::PuzzleBuildRequest request;
  request.count = options.count;
  request.seed = options.seed;
  request.min_seeds = options.min_seeds;
  request.max_seeds = options.max_seeds;
  request.max_player_moves = options.max_moves;
  if (Expected<bool> ok = service::check_puzzle_request(rules, *tables, request); !ok)
    throw Failure(ok.error());
  const auto started = std::chrono::steady_clock::now();
  const Expected<service::PuzzleLibrary> library = service::build_library(rules, *tables, request);
  if (!library) throw Failure(library.error());
  const std::string text = service::library_json(*library);
  if (Expected<bool> written = db::write_file_atomically(options.out, text); !written)
    throw Failure(written.error());
  fmt::print("{} puzzles of {} in {} ({} bytes): {} positions tried, {:.1f} s\n",
             library->puzzles.size(), rules.name(), db::shown_path(options.out), text.size(),
             library->tries, seconds_since(started));
}

void run_verify(const VerifyOptions& options) {
  const Expected<std::string> text = db::read_whole_file(options.file, kMaxLibraryBytes);
  if (!text) throw Failure(text.error());
  const Expected<service::PuzzleLibrary> library = service::parse_library(*text);
  if (!library) throw Failure(db::shown_path(options.file) + ": " + library.error());
  const std::unique_ptr<db::TableValues> tables = require_tables(library->rules, options.db);
  const auto started = std::chrono::steady_clock::now();
  if (Expected<bool> ok = service::verify_library(*library, *tables); !ok)
    throw Failure(db::shown_path(options.file) + ": " + ok.error());
  fmt::print("{}: {} puzzles of {}, each with exactly one answer at every step ({:.1f} s)\n",
             db::shown_path(options.file), library->puzzles.size(), library->rules.name(),
             seconds_since(started));
}

}  // namespace

void add_puzzles_command(CLI::App& app) {
  CLI::App* puzzles =
      app.add_subcommand("puzzles", "Puzzle libraries from the endgame tables: build, verify");
  puzzles->require_subcommand(1);
  const std::string db_help =
      "Database directory (default $MANCALA_DB or ~/.local/share/mancala/db)";

  auto build = std::make_shared<BuildOptions>();
  CLI::App* build_cmd = puzzles->add_subcommand(
      "build", "Make a library of puzzles, each with exactly one winning or saving move a step");
  build_cmd->add_option("GAME", build->game, "Game and variant, e.g. kalah, oware")->required();
  build_cmd->add_option("--db", build->db, db_help)->check(path_name());
  build_cmd->add_option("-o,--out", build->out, "The library file to write (JSON)")
      ->required()
      ->check(path_name());
  build_cmd->add_option("-n,--count", build->count, "Puzzles to make (default 300)")
      ->check(integer_in(1, 100000));
  build_cmd->add_option("--seed", build->seed, "The generator's seed (default 1)")
      ->check(unsigned_in(0, UINT64_MAX));
  build_cmd
      ->add_option("--min-seeds", build->min_seeds,
                   "Fewest seeds on the board of a start (default 5)")
      ->check(integer_in(2, 64));
  build_cmd
      ->add_option("--max-seeds", build->max_seeds,
                   "Most seeds on the board of a start, within the tables (default 12)")
      ->check(integer_in(2, 64));
  build_cmd
      ->add_option("--max-moves", build->max_moves,
                   "Most moves of the player's in a line (default 3)")
      ->check(integer_in(1, 20));
  set_command(
      build_cmd,
      [build] {
        if (build->min_seeds > build->max_seeds)
          throw UsageError(fmt::format("--min-seeds {} is above --max-seeds {}", build->min_seeds,
                                       build->max_seeds));
        return require_rules(build->game);
      },
      [build](const Rules& rules) { run_build(*build, rules); });

  auto verify = std::make_shared<VerifyOptions>();
  CLI::App* verify_cmd = puzzles->add_subcommand(
      "verify", "Check every step of every puzzle of a library against the tables");
  verify_cmd->add_option("FILE", verify->file, "The library file")->required()->check(path_name());
  verify_cmd->add_option("--db", verify->db, db_help)->check(path_name());
  set_command(verify_cmd, [verify] { run_verify(*verify); });
}

}  // namespace mancala::cli
