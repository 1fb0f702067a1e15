// mancala apply GAME [--position P] MOVES...
#include <string>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "solver/rules/game.h"
#include "tools/cli.h"

namespace mancala::cli {

namespace {

struct ApplyOptions {
  std::string game;
  std::string position;
  std::vector<std::string> moves;
  bool json = false;
};

std::string legal_letters(const Game& game) {
  std::string out;
  for (Move m : game.legal_moves()) {
    if (!out.empty()) out += ' ';
    out += move_letter(game.position().side_to_move, m);
  }
  return out.empty() ? "none: the game is over" : out;
}

void run_apply(const ApplyOptions& options) {
  const Rules rules = require_rules(options.game);
  Game game(rules, require_position(rules, options.position));
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
                                  move ? "" : " (" + move.error() + ")", legal_letters(game)));
      }
    }
  }
  const Position& p = game.position();
  if (!options.json) {
    fmt::print("{}\n", to_string(p));
    return;
  }
  std::string result = "null";
  if (game.is_over()) {
    const Outcome outcome = game.outcome();
    const char* winner = outcome.winner == Winner::South   ? "South"
                         : outcome.winner == Winner::North ? "North"
                                                           : "draw";
    result =
        fmt::format("{{\"winner\": \"{}\", \"south\": {}, \"north\": {}, \"repetition\": {}}}",
                    winner, outcome.south_store, outcome.north_store, game.ended_by_repetition());
  }
  fmt::print(
      "{{\"game\": {}, \"position\": {}, \"stores\": {{\"south\": {}, \"north\": {}}}, "
      "\"side_to_move\": \"{}\", \"game_over\": {}, \"result\": {}}}\n",
      json_string(rules.name()), json_string(to_string(p)), p.store(Side::South),
      p.store(Side::North), side_name(p.side_to_move), game.is_over(), result);
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
      cmd, [options] { require_position(require_rules(options->game), options->position); },
      [options] { run_apply(*options); });
}

}  // namespace mancala::cli
