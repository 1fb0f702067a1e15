// mancala apply GAME [--position P] MOVES...
#include <string>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "solver/rules/game.h"
#include "tools/cli/commands.h"
#include "tools/command_line/command_line.h"
#include "tools/service/json_output.h"
#include "tools/service/move_text.h"

namespace mancala::cli {

using namespace command_line;  // the helpers every command line shares

namespace {

struct ApplyOptions {
  std::string game;
  std::string position;
  std::vector<std::string> moves;
  bool json = false;
};

void run_apply(const ApplyOptions& options, const RulesAndPosition& parsed) {
  const Rules& rules = parsed.rules;
  Game game(rules, parsed.position);
  // Moves may be given one per argument or run together ("CFd").
  int number = 0;
  for (const std::string& word : options.moves) {
    for (char c : word) {
      ++number;
      const std::string letter(1, c);
      if (game.is_over())
        throw Failure(fmt::format("move {} '{}': the game is already over in {}", number, letter,
                                  to_string(game.position())));
      Expected<Move> move = parse_move_letter(game.position(), letter);
      if (!move || !game.play(*move)) {
        throw Failure(fmt::format("move {} '{}' is illegal in {}{}; legal moves: {}", number,
                                  letter, to_string(game.position()),
                                  move ? "" : " (" + move.error() + ")",
                                  service::legal_moves_text(game)));
      }
    }
  }
  const Position& p = game.position();
  if (!options.json) {
    fmt::print("{}\n", to_string(p));
    return;
  }
  json_output::Json out;
  out["game"] = rules.name();
  out["position"] = to_string(p);
  out["stores"]["south"] = p.store(Side::South);
  out["stores"]["north"] = p.store(Side::North);
  out["side_to_move"] = side_name(p.side_to_move);
  out["game_over"] = game.is_over();
  out["result"] = game.is_over()
                      ? json_output::outcome_json(game.outcome(), game.ended_by_repetition())
                      : json_output::Json(nullptr);
  fmt::print("{}\n", json_output::dump(out));
}

}  // namespace

void add_apply_command(CLI::App& app) {
  auto options = std::make_shared<ApplyOptions>();
  CLI::App* cmd = app.add_subcommand("apply", "Play moves and print the resulting position");
  cmd->add_option("GAME", options->game, "Game and variant, e.g. kalah, oware")->required();
  cmd->add_option("MOVES", options->moves, "Move letters (A.. for South, a.. for North)");
  cmd->add_option("--position,-p", options->position, "Start from this position string");
  cmd->add_flag("--json", options->json,
                "Print position, stores, side to move, game-over flag and result as JSON");
  set_command(
      cmd, [options] { return require_rules_and_position(options->game, options->position); },
      [options](const RulesAndPosition& parsed) { run_apply(*options, parsed); });
}

}  // namespace mancala::cli
