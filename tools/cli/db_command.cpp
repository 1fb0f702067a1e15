// mancala db: the endgame-table subcommands, one file each (db_*_command.cpp).
#include <CLI/CLI.hpp>

#include "tools/cli/commands.h"
#include "tools/command_line/command_line.h"

namespace mancala::cli {

void add_db_command(CLI::App& app) {
  CLI::App* db = app.add_subcommand(
      "db", "Endgame databases: build, unpack, convert, info, verify, query, stats, bench");
  db->require_subcommand(1);
  add_db_build_command(*db);
  add_db_unpack_command(*db);
  add_db_convert_command(*db);
  add_db_info_command(*db);
  add_db_verify_command(*db);
  add_db_query_command(*db);
  add_db_bench_command(*db);
  add_db_stats_command(*db);
}

}  // namespace mancala::cli
