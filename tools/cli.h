// Helpers shared by the subcommands: turning user input into library values with clear errors,
// JSON output, and terminal detection. Only the command line prints; the library never does.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "solver/rules/position.h"
#include "solver/rules/rules.h"

namespace CLI {
class App;
}

namespace mancala::cli {

// Bad input from the user: printed as "mancala: error: ..." with exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A request that cannot be carried out (an illegal move, a missing file): exit status 1.
struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

Rules require_rules(const std::string& game);
// The start position when `text` is empty.
Position require_position(const Rules& rules, const std::string& text);

// The database directory of a --db / --out option: the option, else the default directory
// ($MANCALA_DB, else ~/.local/share/mancala/db).
std::string database_directory(const std::string& option);
// Sets the OpenMP threads of a --threads option (0: all cores); a negative count is a usage error.
void set_thread_count(int threads);

// True when standard output is a terminal and NO_COLOR is unset.
bool stdout_is_color_terminal();
bool stderr_is_terminal();

// A line of moves as letters, a turn's sowings together, turns apart: "CF be A".
std::string format_line(const Rules& rules, const Position& from, const std::vector<Move>& moves);

// Subcommands, one file each.
void add_perft_command(CLI::App& app);
void add_apply_command(CLI::App& app);
void add_play_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_db_command(CLI::App& app);  // the group; its subcommands below
void add_db_build_command(CLI::App& db);
void add_db_unpack_command(CLI::App& db);
void add_db_info_command(CLI::App& db);
void add_db_verify_command(CLI::App& db);
void add_db_query_command(CLI::App& db);
void add_db_stats_command(CLI::App& db);
void add_db_bench_command(CLI::App& db);
void add_match_command(CLI::App& app);
void add_analyse_command(CLI::App& app);
void add_solve_command(CLI::App& app);
void add_serve_command(CLI::App& app);

}  // namespace mancala::cli
