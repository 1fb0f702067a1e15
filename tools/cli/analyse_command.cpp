// mancala analyse GAME POSITION [--depth D | --time T]: every legal move's score and the best line.
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "solver/rules/moves.h"
#include "tools/cli/commands.h"
#include "tools/command_line/command_line.h"
#include "tools/command_line/endgame_tables.h"
#include "tools/service/analysis.h"
#include "tools/service/json_output.h"

namespace mancala::cli {

using namespace command_line;  // the helpers every command line shares

namespace {

struct AnalyseOptions {
  std::string game;
  std::string position;
  int depth = 0;
  double seconds = 0;
  std::string db;
  bool no_tables = false;
  bool json = false;
};

void run_analyse(const AnalyseOptions& o, const RulesAndPosition& parsed) {
  const Rules& rules = parsed.rules;
  const Position& p = parsed.position;
  if (generate_moves(rules, p).empty()) throw Failure(to_string(p) + ": the game is over");
  std::unique_ptr<db::TableValues> tables;
  if (!o.no_tables && rules.kind != GameKind::Congkak) {
    std::string why_not;
    bool unreadable = false;
    tables = open_table_values(rules, o.db, &why_not,
                               "positions the tables should value are searched instead (their "
                               "scores are not exact unless the search proves them)",
                               &unreadable);
    if (unreadable) warn("endgame tables not used: " + why_not);
  }
  service::AnalysisLimits limits;
  limits.depth = o.depth;
  if (o.seconds > 0) limits.seconds = o.seconds;
  const service::Analysis analysis = service::analyse(rules, p, limits, tables.get());
  if (o.json) {
    fmt::print("{}\n", json_output::dump(json_output::analysis_json(rules, p, analysis)));
    return;
  }
  const service::MoveAnalysis& best = analysis.best();
  const std::string note =
      tables ? tables_note(tables->tables().max_seeds(), tables->failures()) : "";
  fmt::print("position {} ({} to move){}\n", to_string(p), side_name(p.side_to_move), note);
  const bool counted = analysis.margin == service::Margin::TablesCount;
  if (counted)
    fmt::print(
        "move  score  (the tables' count for {}: the final store difference if play went on past "
        "a majority until the board is empty; its sign is the result)\n",
        side_name(p.side_to_move));
  else
    fmt::print("move  score  (predicted final store difference for {})\n",
               side_name(p.side_to_move));
  for (const service::MoveAnalysis& m : analysis.moves) {
    const std::string how = m.provenance == service::Provenance::Tables ? "  exact (tables)"
                            : m.provenance == service::Provenance::Proven
                                ? "  exact"
                                : fmt::format("  depth {}", m.depth);
    // Where the count is not the game's own margin, a move that ends the game says its real end.
    const std::string end = counted && m.ends_game && m.final_score != m.score
                                ? fmt::format("  (ends the game: {:+})", m.final_score)
                                : "";
    fmt::print("  {}  {:+4}{}{}{}\n", move_letter(p.side_to_move, m.move), m.score, how, end,
               m.score == best.score ? "  best" : "");
  }
  fmt::print("best line: {}\n", line_by_turns(rules, p, best.line));
}

}  // namespace

void add_analyse_command(CLI::App& app) {
  auto o = std::make_shared<AnalyseOptions>();
  CLI::App* cmd = app.add_subcommand("analyse", "The score of every legal move and the best line");
  cmd->add_option("GAME", o->game, "Game and variant, e.g. kalah, oware")->required();
  cmd->add_option("POSITION", o->position, "Position string")->required();
  auto* depth = cmd->add_option("--depth,-d", o->depth, "Search each move to this depth")
                    ->check(integer_in(1, service::kMaxAnalysisDepth));
  cmd->add_option("--time", o->seconds, "Seconds for the whole analysis (default 2)")
      ->excludes(depth)
      ->check(positive_seconds());
  cmd->add_option("--db", o->db,
                  "Endgame table directory (default $MANCALA_DB or ~/.local/share/mancala/db)")
      ->check(path_name());
  cmd->add_flag("--no-tables", o->no_tables, "Do not use endgame tables");
  cmd->add_flag("--json", o->json, "Print one JSON object");
  set_command(
      cmd, [o] { return require_rules_and_position(o->game, o->position); },
      [o](const RulesAndPosition& parsed) { run_analyse(*o, parsed); });
}

}  // namespace mancala::cli
