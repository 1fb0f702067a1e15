// mancala engine: the UCI dialect of the Aualé board on standard input and output
// (tools/engine/engine_session.h has the protocol).
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "solver/search/players.h"
#include "tools/command_line/command_line.h"
#include "tools/engine/engine_command.h"
#include "tools/engine/engine_session.h"

namespace mancala::engine {

namespace {

using command_line::computer_level;
using command_line::database_directory;
using command_line::path_name;
using command_line::require_rules;
using command_line::set_command;

struct EngineCommandOptions {
  std::string game = "oware";
  int level = kMaxLevel;
  std::string db;
};

void run_engine(const EngineCommandOptions& o, const Rules& rules) {
  EngineDefaults defaults;
  defaults.rules = rules;
  defaults.level = o.level;
  defaults.tables_path = database_directory(o.db);
  EngineSession session(defaults, [](const std::string& line) {
    std::fputs(line.c_str(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);  // a GUI reads each line as it comes
  });
  session.run(std::cin);
}

}  // namespace

void add_engine_command(CLI::App& app) {
  auto o = std::make_shared<EngineCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "engine", "Play as an engine of the Aualé board (its UCI dialect on stdin/stdout)");
  cmd->add_option("--game", o->game,
                  "The game until the GUI sets another with 'setoption name Game value GAME' "
                  "(default oware, abapa rules)");
  cmd->add_option("--level", o->level, "Computer level 1-6 (default 6, Pro; option Level)")
      ->check(computer_level());
  cmd->add_option("--db", o->db,
                  "Endgame table directory (default $MANCALA_DB or ~/.local/share/mancala/db; "
                  "option TablesPath)")
      ->check(path_name());
  cmd->footer(
      "Commands: uci, isready, ucinewgame, setoption name Hash|Game|Level|UseTables|TablesPath "
      "value V, position startpos|fen POSITION [moves LETTERS], go [depth D] [nodes N] "
      "[movetime MS] [wtime MS btime MS winc MS binc MS movestogo N] [infinite|ponder], stop, "
      "ponderhit, quit. Answers: info depth D score cp S nodes N time MS nps X pv LETTERS, "
      "bestmove LETTER (0000 when the game is over), info string MESSAGE.");
  set_command(
      cmd, [o] { return require_rules(o->game); },
      [o](const Rules& rules) { run_engine(*o, rules); });
}

}  // namespace mancala::engine
