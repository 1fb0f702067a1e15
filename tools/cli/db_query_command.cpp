// mancala db query GAME POSITION: a position's exact value and every move's, from the tables.
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "db/table_answer.h"
#include "db/table_set.h"
#include "db/table_values.h"
#include "solver/rules/moves.h"
#include "tools/cli/commands.h"
#include "tools/command_line/command_line.h"
#include "tools/command_line/endgame_tables.h"
#include "tools/service/json_output.h"

namespace mancala::cli {

using namespace command_line;  // the helpers every command line shares

namespace {

struct QueryOptions {
  std::string game;
  std::string position;
  std::string db;
  bool json = false;
};

void run_query(const QueryOptions& options, const RulesAndPosition& parsed) {
  const Rules& rules = parsed.rules;
  const Position& p = parsed.position;
  Expected<std::shared_ptr<const db::TableSet>> tables =
      db::TableSet::open(database_directory(options.db), rules);
  if (!tables) throw Failure(tables.error());
  warn_layer_gap((*tables)->gap_warning());
  const Side mover = p.side_to_move;
  const int stores = p.mover_lead();
  const int seeds = p.seeds_on_board();
  // Every move valued from the tables as they store values (play goes on until the board is
  // empty); a game already over by its own rules is worth what they give (table_answer.h).
  const db::TableAnswer probe = db::value_every_move(rules, db::TableValues(*tables), p);
  if (!probe.ok())
    throw Failure((*tables)->max_seeds() < 0 ? probe.message + build_advice(rules) : probe.message);

  if (options.json) {
    fmt::print("{}\n", json_output::dump(json_output::table_answer_json(rules, p, probe,
                                                                        is_game_over(rules, p))));
    return;
  }
  fmt::print("position   {} ({} to move, {} seeds on the board)\n", to_string(p), side_name(mover),
             seeds);
  fmt::print("value      {:+}  (what {} will still gain minus what {} will, with perfect play)\n",
             probe.value, side_name(mover), side_name(opponent(mover)));
  fmt::print("score      {:+}  (predicted final store difference for {})\n", stores + probe.value,
             side_name(mover));
  if (probe.moves.empty()) {
    fmt::print("moves      none: the game is over\n");
    return;
  }
  fmt::print("moves\n");
  for (const db::TableMoveValue& m : probe.moves)
    fmt::print("  {}  {:+}{}\n", move_letter(mover, m.move), m.value,
               m.value == probe.value ? "  best" : "");
}

}  // namespace

void add_db_query_command(CLI::App& db) {
  auto query = std::make_shared<QueryOptions>();
  CLI::App* cmd =
      db.add_subcommand("query", "A position's exact value and the value of every move");
  cmd->add_option("GAME", query->game, "Game and variant, e.g. kalah, oware")->required();
  cmd->add_option("POSITION", query->position, "Position string")->required();
  cmd->add_option("--db", query->db,
                  "Database directory (default $MANCALA_DB or ~/.local/share/mancala/db)")
      ->check(path_name());
  cmd->add_flag("--json", query->json, "Print one JSON object");
  set_command(
      cmd, [query] { return require_rules_and_position(query->game, query->position); },
      [query](const RulesAndPosition& parsed) { run_query(*query, parsed); });
}

}  // namespace mancala::cli
