// mancala analyse GAME POSITION [--depth D | --time T]: every legal move's score and the best line.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "solver/search/search.h"
#include "tools/cli/commands.h"
#include "tools/command_line/cli.h"
#include "tools/command_line/endgame_tables.h"
#include "tools/service/json_output.h"

namespace mancala::cli {

namespace {

// One root move's score for the mover: the move, then a search of what follows.
struct MoveScore {
  Move move;
  int score;  // predicted final store difference for the mover
  bool exact;
  std::vector<Move> line;
};

MoveScore score_move(Search& search, const Rules& rules, const Position& p, Move m,
                     const SearchLimits& limits) {
  const Side mover = p.side_to_move;
  const Position child = apply_move(rules, p, m);
  MoveScore result{m, 0, true, {m}};
  if (generate_moves(rules, child).empty()) {
    result.score = final_outcome(rules, child).lead(mover);
    return result;
  }
  const SearchResult r = search.run(child, limits);
  result.score = child.side_to_move == mover ? r.score : -r.score;
  result.exact = r.proven;
  result.line.insert(result.line.end(), r.pv.begin(), r.pv.end());
  return result;
}

// Deeper than any game here lasts.
constexpr int kMaxAnalyseDepth = 200;

struct AnalyseOptions {
  std::string game;
  std::string position;
  int depth = 0;
  double seconds = 0;
  std::string db;
  bool no_tables = false;
  bool json = false;
};

void check_analyse(const AnalyseOptions& o) {
  require_position(require_rules(o.game), o.position);
}

void run_analyse(const AnalyseOptions& o) {
  const Rules rules = require_rules(o.game);
  const Position p = require_position(rules, o.position);
  const MoveList moves = generate_moves(rules, p);
  if (moves.empty()) throw Failure(to_string(p) + ": the game is over");
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
  SearchLimits limits;
  if (o.depth)
    limits.max_depth = o.depth;
  else
    limits.max_seconds = (o.seconds > 0 ? o.seconds : 2.0) / moves.size();
  Search search(rules, 64, tables.get());
  std::vector<MoveScore> scores;
  for (Move m : moves) scores.push_back(score_move(search, rules, p, m, limits));
  std::stable_sort(scores.begin(), scores.end(),
                   [](const MoveScore& a, const MoveScore& b) { return a.score > b.score; });
  const MoveScore& best = scores.front();
  if (o.json) {
    json_output::Json move_list = json_output::Json::array(),
                      best_list = json_output::Json::array();
    for (const MoveScore& m : scores) {
      const std::string letter(1, move_letter(p.side_to_move, m.move));
      json_output::Json entry;
      entry["move"] = letter;
      entry["score"] = m.score;
      entry["exact"] = m.exact;
      move_list.push_back(std::move(entry));
      if (m.score == best.score) best_list.push_back(letter);
    }
    json_output::Json out;
    out["game"] = rules.name();
    out["position"] = to_string(p);
    out["score"] = best.score;
    out["exact"] = best.exact;
    out["moves"] = std::move(move_list);
    out["best"] = std::move(best_list);
    out["line"] = format_line(rules, p, best.line);
    fmt::print("{}\n", json_output::dump(out));
    return;
  }
  const std::string note =
      tables ? tables_note(tables->tables().max_seeds(), tables->failures()) : "";
  fmt::print("position {} ({} to move){}\n", to_string(p), side_name(p.side_to_move), note);
  fmt::print("move  score  (predicted final store difference for {})\n", side_name(p.side_to_move));
  for (const MoveScore& m : scores)
    fmt::print("  {}  {:+4}{}{}\n", move_letter(p.side_to_move, m.move), m.score,
               m.exact ? "  exact" : "", m.score == best.score ? "  best" : "");
  fmt::print("best line: {}\n", format_line(rules, p, best.line));
}

}  // namespace

void add_analyse_command(CLI::App& app) {
  auto o = std::make_shared<AnalyseOptions>();
  CLI::App* cmd = app.add_subcommand("analyse", "The score of every legal move and the best line");
  cmd->add_option("GAME", o->game, "Game and variant, e.g. kalah, oware")->required();
  cmd->add_option("POSITION", o->position, "Position string")->required();
  auto* depth = cmd->add_option("--depth,-d", o->depth, "Search each move to this depth")
                    ->check(integer_in(1, kMaxAnalyseDepth));
  cmd->add_option("--time", o->seconds, "Seconds for the whole analysis (default 2)")
      ->excludes(depth)
      ->check(positive_seconds());
  cmd->add_option("--db", o->db,
                  "Endgame table directory (default $MANCALA_DB or ~/.local/share/mancala/db)")
      ->check(path_name());
  cmd->add_flag("--no-tables", o->no_tables, "Do not use endgame tables");
  cmd->add_flag("--json", o->json, "Print one JSON object");
  set_command(
      cmd, [o] { check_analyse(*o); }, [o] { run_analyse(*o); });
}

}  // namespace mancala::cli
