// mancala play [GAME]: a game in the terminal, human against computer or human against human.
#include <chrono>
#include <ctime>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "db/file_io.h"
#include "solver/rules/game.h"
#include "solver/rules/record.h"
#include "solver/search/players.h"
#include "tools/cli/board_view.h"
#include "tools/cli/commands.h"
#include "tools/command_line/command_line.h"
#include "tools/command_line/endgame_tables.h"
#include "tools/service/analysis.h"

namespace mancala::cli {

using namespace command_line;  // the helpers every command line shares

namespace {

struct PlayOptions {
  std::string game = "kalah";
  std::string position;
  int level = 2;
  double seconds = 1.0;
  std::string db;
  bool think = false;
  bool human_vs_human = false;
  bool computer_first = false;
  bool no_color = false;
  uint64_t seed = 0;
};

constexpr const char* kHelp =
    "  A..  a..      play the move in that house (several letters play in turn: CF)\n"
    "  undo          take back your last move (and the computer's reply)\n"
    "  save FILE     save the game as a record\n"
    "  load FILE     load a game record (also Aualé .ogn) and go on from its end\n"
    "  moves         list the legal moves\n"
    "  new           start again\n"
    "  help          this list\n"
    "  quit          leave (so does end of input)\n";

std::string today() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  return fmt::format("{:04}.{:02}.{:02}", local.tm_year + 1900, local.tm_mon + 1, local.tm_mday);
}

class TerminalGame {
 public:
  TerminalGame(const PlayOptions& options, const Rules& rules, const Position& start)
      : options_(options),
        game_(rules, start),
        color_(!options.no_color && stdout_is_color_terminal()) {
    computer_side_ = options.computer_first ? Side::South : Side::North;
    set_up_computer(rules);
  }

  int run() {
    fmt::print("{} - {}. Type 'help' for commands.\n", game_.rules().name(), players_line());
    show();
    std::string line;
    while (true) {
      if (game_.is_over()) {
        if (!announced_end_) announce_end();
      } else if (is_computer(game_.position().side_to_move)) {
        computer_move();
        continue;
      }
      fmt::print("{}", prompt());
      std::fflush(stdout);
      bool too_long = false;
      if (!read_bounded_line(std::cin, line, too_long)) {
        fmt::print("\n");
        return 0;  // end of input: leave quietly
      }
      if (too_long) {
        fmt::print("line too long (more than {} characters): ignored\n", kMaxInputLine);
        continue;
      }
      if (!handle(line)) return 0;
    }
  }

 private:
  // The computer for `rules`: its level, and for level 6 that game's endgame tables. Called again
  // when a record of another game is loaded, so that nothing of the old game is kept.
  void set_up_computer(const Rules& rules) {
    computer_.reset();  // it reads the old tables: gone before they are
    tables_.reset();
    if (options_.level == 6 && !options_.human_vs_human) {
      std::string why_not;
      tables_ = open_table_values(rules, options_.db, &why_not,
                                  "the computer searches instead of reading the tables");
      if (!tables_)
        fmt::print(stderr, "note: level 6 plays without endgame tables: {}\n", printable(why_not));
    }
    computer_ = std::make_unique<Player>(
        rules,
        PlayerOptions{options_.level,
                      options_.seed ? options_.seed : static_cast<uint64_t>(std::time(nullptr)),
                      options_.seconds, 0, tables_.get()});
  }

  bool is_computer(Side side) const { return !options_.human_vs_human && side == computer_side_; }

  std::string player_name(Side side) const {
    return is_computer(side) ? "mancala " + level_name(computer_->level(), game_.rules()) : "Human";
  }

  std::string players_line() const {
    return fmt::format("South: {}, North: {}", player_name(Side::South), player_name(Side::North));
  }

  std::string prompt() const {
    if (game_.is_over()) return "game over (undo, save, load, new, quit)> ";
    const Side side = game_.position().side_to_move;
    const char first = side == Side::South ? 'A' : 'a';
    return fmt::format("{} to move ({}-{})> ", side_name(side), first,
                       static_cast<char>(first + game_.rules().houses - 1));
  }

  void show() { fmt::print("\n{}\n", render_board(game_.position(), last_, color_)); }

  void report_move(Side mover, Move move, const MoveEffect& effect) {
    std::string text = fmt::format("{} plays {}", side_name(mover), move_letter(mover, move));
    if (effect.captured) text += fmt::format(", captures {}", effect.captured);
    if (effect.grand_slam && effect.captured == 0) text += " (grand slam: nothing captured)";
    if (effect.relays)
      text += fmt::format(", {} relay{}", effect.relays, effect.relays > 1 ? "s" : "");
    if (effect.extra_turn) text += fmt::format(", and moves again");
    fmt::print("{}\n", text);
  }

  void play(Move move) {
    const Side mover = game_.position().side_to_move;
    MoveEffect effect;
    game_.play(move, &effect);
    last_ = LastMove{mover, move, effect};
    report_move(mover, move, effect);
    show();
  }

  void computer_move() {
    Thinking thinking;
    const Move move = computer_->choose(game_, &thinking);
    if (options_.think && computer_->level() >= 3) {
      const Side mover = game_.position().side_to_move;
      const std::string line = line_by_turns(game_.rules(), game_.position(), thinking.pv);
      if (thinking.from_tables && service::table_move_margin(game_.rules(), game_.position(),
                                                             move) == service::Margin::TablesCount)
        // Oware: the tables play on past a majority; their count is not the game's own margin.
        fmt::print(
            "  [tables: exact result, {:+} for {} by the tables' count (play going on "
            "past a majority)]\n",
            thinking.score, side_name(mover));
      else if (thinking.from_tables)
        fmt::print("  [tables: exact final score {:+} for {}]\n", thinking.score, side_name(mover));
      else
        fmt::print("  [depth {}, score {:+}{} for {}, {} nodes in {:.2f} s, line {}]\n",
                   thinking.depth, thinking.score, thinking.exact ? " (exact)" : "",
                   side_name(mover), thinking.nodes, thinking.seconds, line);
    }
    play(move);
  }

  void announce_end() {
    announced_end_ = true;
    const Outcome outcome = game_.outcome();
    std::string how =
        game_.ended_by_repetition() ? " (third repetition: the seeds left are shared)" : "";
    std::string verdict = outcome.winner == Winner::Draw
                              ? "a draw"
                              : (outcome.winner == Winner::South ? "South wins" : "North wins");
    fmt::print("Game over{}: South {} - North {}, {}.\n", how, outcome.south_store,
               outcome.north_store, verdict);
  }

  std::string legal_list() const {
    std::string out;
    for (Move m : game_.legal_moves())
      out += fmt::format("{} ", move_letter(game_.position().side_to_move, m));
    return out.empty() ? "none" : out;
  }

  // One line of input. Returns false to leave.
  bool handle(const std::string& raw) {
    std::istringstream words(raw);
    std::string command, argument;
    words >> command;
    std::getline(words >> std::ws, argument);
    if (command.empty()) return true;
    if (command == "quit" || command == "exit" || command == "q") return false;
    if (command == "help" || command == "?") {
      fmt::print("{}", kHelp);
    } else if (command == "moves") {
      fmt::print("legal moves: {}\n", legal_list());
    } else if (command == "undo") {
      undo();
    } else if (command == "new") {
      game_ = Game(game_.rules(), game_.start());
      last_.reset();
      announced_end_ = false;
      show();
    } else if (command == "save") {
      save(argument);
    } else if (command == "load") {
      load(argument);
    } else {
      play_letters(command);
    }
    return true;
  }

  void play_letters(const std::string& letters) {
    for (char c : letters) {
      if (game_.is_over()) {
        fmt::print("the game is over\n");
        return;
      }
      if (is_computer(game_.position().side_to_move)) return;  // the rest is not ours to play
      Expected<Move> move = parse_move_letter(game_.position(), std::string(1, c));
      if (!move) {
        fmt::print("{}; legal moves: {}(type 'help' for commands)\n", printable(move.error()),
                   legal_list());
        return;
      }
      if (!game_.legal_moves().contains(*move)) {
        fmt::print("{} is not legal here; legal moves: {}\n", printable(std::string(1, c)),
                   legal_list());
        return;
      }
      play(*move);
    }
  }

  void undo() {
    if (game_.moves().empty()) {
      fmt::print("nothing to undo\n");
      return;
    }
    // Take back the computer's replies too, back to the last position where a human moved.
    do {
      game_.undo();
    } while (!game_.moves().empty() && is_computer(game_.position().side_to_move));
    last_.reset();
    announced_end_ = false;
    show();
  }

  // The record goes through the atomic writer: on a full disk or any failed write the message says
  // so and the file keeps what it held.
  void save(const std::string& file) {
    if (file.empty()) {
      fmt::print("usage: save FILE\n");
      return;
    }
    RecordTags tags = {{"South", player_name(Side::South)},
                       {"North", player_name(Side::North)},
                       {"Date", today()}};
    const Expected<std::string> record = write_record(game_, tags);
    Expected<bool> saved =
        record ? db::write_file_atomically(file, *record) : Error{record.error()};
    if (!saved)
      fmt::print("could not save: {}\n", printable(saved.error()));
    else
      fmt::print("saved {} moves to {}\n", game_.moves().size(), printable(file));
  }

  // A record of another game switches everything to it: the rules, the computer and its tables.
  void load(const std::string& file) {
    if (file.empty()) {
      fmt::print("usage: load FILE\n");
      return;
    }
    Expected<std::string> text = db::read_whole_file(file, kMaxRecordBytes);
    if (!text) {
      fmt::print("could not load: {}\n", printable(text.error()));
      return;
    }
    Expected<GameRecord> record = read_record(*text);
    if (!record) {
      fmt::print("could not load {}: {}\n", printable(file), printable(record.error()));
      return;
    }
    const bool other_game = !(record->game.rules() == game_.rules());
    game_ = record->game;
    last_.reset();
    announced_end_ = false;
    fmt::print("loaded {} ({}, {} moves)\n", printable(file), game_.rules().name(),
               game_.moves().size());
    if (other_game) {
      set_up_computer(game_.rules());
      fmt::print("now playing {}: {}\n", game_.rules().name(), players_line());
    }
    show();
  }

  const PlayOptions& options_;
  Game game_;
  std::unique_ptr<db::TableValues> tables_;  // level 6's, for the game being played
  std::unique_ptr<Player> computer_;
  bool color_;
  Side computer_side_ = Side::North;
  std::optional<LastMove> last_;
  bool announced_end_ = false;
};

void run_play(const PlayOptions& options, const RulesAndPosition& parsed) {
  TerminalGame(options, parsed.rules, parsed.position).run();
}

}  // namespace

void add_play_command(CLI::App& app) {
  auto options = std::make_shared<PlayOptions>();
  CLI::App* cmd = app.add_subcommand("play", "Play a game in the terminal");
  cmd->add_option("GAME", options->game, "Game and variant (default kalah)");
  cmd->add_option("--level,-l", options->level,
                  "Computer level: 1 random, 2 greedy, 3-4 search, 5 timed search, 6 Pro with "
                  "endgame tables (default 2)")
      ->check(computer_level());
  cmd->add_option("--seconds", options->seconds,
                  "Thinking time per move for levels 5 and 6 (default 1)")
      ->check(positive_seconds());
  cmd->add_option(
         "--db", options->db,
         "Endgame table directory for level 6 (default $MANCALA_DB or ~/.local/share/mancala/db)")
      ->check(path_name());
  cmd->add_flag("--think", options->think,
                "Show the computer's thinking (depth, score, best line)");
  cmd->add_flag("--human-vs-human,-2", options->human_vs_human, "Two people at one terminal");
  cmd->add_flag("--computer-first", options->computer_first, "The computer plays South and opens");
  cmd->add_option("--position,-p", options->position, "Start from this position string");
  cmd->add_option("--seed", options->seed, "Seed for the computer's random choices")
      ->check(unsigned_in(0, UINT64_MAX));
  cmd->add_flag("--no-color", options->no_color, "No ANSI colours");
  set_command(
      cmd, [options] { return require_rules_and_position(options->game, options->position); },
      [options](const RulesAndPosition& parsed) { run_play(*options, parsed); });
}

}  // namespace mancala::cli
