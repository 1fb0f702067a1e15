// mancala db query GAME POSITION: a position's exact value and every move's, from the tables.
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "db/table_set.h"
#include "db/table_values.h"
#include "solver/rules/moves.h"
#include "solver/tables/exact_values.h"
#include "solver/tables/table_rules.h"
#include "tools/cli.h"

namespace mancala::cli {

namespace {

struct QueryOptions {
  std::string game;
  std::string position;
  std::string db;
  bool json = false;
};

void check_query(const QueryOptions& options) {
  require_position(require_rules(options.game), options.position);
}

void run_query(const QueryOptions& options) {
  const Rules rules = require_rules(options.game);
  const Position p = require_position(rules, options.position);
  Expected<std::shared_ptr<const db::TableSet>> tables =
      db::TableSet::open(database_directory(options.db), rules);
  if (!tables) throw Failure(tables.error());
  if (!(*tables)->gap_warning().empty()) warn((*tables)->gap_warning());
  const Rules table_rules = *table_rules_for(rules);
  const Side mover = p.side_to_move;
  const int stores = p.mover_lead();
  const int seeds = p.seeds_on_board();
  if (seeds > (*tables)->max_seeds())
    throw Failure(fmt::format(
        "{} has {} seeds on the board; the {} tables in {} hold up to {}{}", to_string(p), seeds,
        rules.table_name(), (*tables)->directory(), (*tables)->max_seeds(),
        (*tables)->max_seeds() < 0 ? " (none built: run mancala db build)" : ""));
  // Every move valued from the tables as they store values (play goes on until the board is
  // empty). A game already over by its own rules (the Oware majority, say) has no moves left and
  // is worth what those rules give, whatever the tables say about playing on.
  const db::TableValues values(*tables);
  const RootProbe probe = probe_root(is_game_over(rules, p) ? rules : table_rules, values, p);
  if (!probe.ok()) throw Failure(values.first_failure());
  std::vector<char> best;
  for (int i = 0; i < probe.count; ++i)
    if (probe.is_best(i)) best.push_back(move_letter(mover, probe.moves[static_cast<size_t>(i)]));

  if (options.json) {
    std::string move_list, best_list;
    for (int i = 0; i < probe.count; ++i)
      move_list +=
          fmt::format("{}{{\"move\": \"{}\", \"value\": {}}}", move_list.empty() ? "" : ", ",
                      move_letter(mover, probe.moves[static_cast<size_t>(i)]),
                      probe.move_values[static_cast<size_t>(i)]);
    for (char b : best) best_list += fmt::format("{}\"{}\"", best_list.empty() ? "" : ", ", b);
    fmt::print(
        "{{\"game\": {}, \"position\": {}, \"side_to_move\": \"{}\", \"seeds_on_board\": {}, "
        "\"value\": {}, \"score\": {}, \"moves\": [{}], \"best\": [{}]}}\n",
        json_string(rules.name()), json_string(to_string(p)), side_name(mover), seeds, probe.value,
        stores + probe.value, move_list, best_list);
    return;
  }
  fmt::print("position   {} ({} to move, {} seeds on the board)\n", to_string(p), side_name(mover),
             seeds);
  fmt::print("value      {:+}  (what {} will still gain minus what {} will, with perfect play)\n",
             probe.value, side_name(mover), side_name(opponent(mover)));
  fmt::print("score      {:+}  (predicted final store difference for {})\n", stores + probe.value,
             side_name(mover));
  if (probe.count == 0) {
    fmt::print("moves      none: the game is over\n");
    return;
  }
  fmt::print("moves\n");
  for (int i = 0; i < probe.count; ++i)
    fmt::print("  {}  {:+}{}\n", move_letter(mover, probe.moves[static_cast<size_t>(i)]),
               probe.move_values[static_cast<size_t>(i)], probe.is_best(i) ? "  best" : "");
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
      cmd, [query] { check_query(*query); }, [query] { run_query(*query); });
}

}  // namespace mancala::cli
