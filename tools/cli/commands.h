// The terminal's subcommands, one file each: what `mancala` offers besides serving and the engine.
#pragma once

#include <CLI/CLI.hpp>

namespace mancala::cli {

void add_perft_command(CLI::App& app);
void add_apply_command(CLI::App& app);
void add_play_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_db_command(CLI::App& app);  // the group; its subcommands below
void add_db_build_command(CLI::App& db);
void add_db_unpack_command(CLI::App& db);
void add_db_convert_command(CLI::App& db);
void add_db_info_command(CLI::App& db);
void add_db_verify_command(CLI::App& db);
void add_db_query_command(CLI::App& db);
void add_db_stats_command(CLI::App& db);
void add_db_bench_command(CLI::App& db);
void add_match_command(CLI::App& app);
void add_analyse_command(CLI::App& app);
void add_solve_command(CLI::App& app);
void add_puzzles_command(CLI::App& app);  // build and verify

}  // namespace mancala::cli
