#include "tools/engine/engine_session.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <exception>
#include <string_view>
#include <thread>

#include <fmt/core.h>

#include "solver/tables/table_rules.h"
#include "tools/command_line/command_line.h"
#include "tools/command_line/endgame_tables.h"
#include "tools/service/move_text.h"
#include "tools/service/validation.h"

namespace mancala::engine {

namespace {

constexpr size_t kMaxHashMegabytes = 65536;
constexpr int kMaxDepth = 64;
// Moves left in the game when a clock is given without movestogo (an Oware game lasts about 50
// moves a side, but most of the thinking pays early).
constexpr int kDefaultMovesToGo = 25;
// A go with no limit at all (nothing a GUI sends, but what a person typing `go` means): level 5's
// default budget.
constexpr double kDefaultSeconds = 1.0;

// What the reader queues for a line longer than command_line::kMaxInputLine: a line feed, which no
// line read can hold.
const std::string kOverlongLine = "\n";

std::vector<std::string> split_words(const std::string& line) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    size_t j = i;
    while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
    if (j > i) words.push_back(line.substr(i, j - i));
    i = j;
  }
  return words;
}

std::string_view first_word(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
  size_t j = i;
  while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
  return line.substr(i, j - i);
}

// Joins words[from, to) with single spaces.
std::string join(const std::vector<std::string>& words, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to && i < words.size(); ++i) out += (out.empty() ? "" : " ") + words[i];
  return out;
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

Expected<GoRequest> parse_go(const std::vector<std::string>& words) {
  GoRequest go;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (word == "infinite" || word == "ponder") {
      go.infinite = true;
      continue;
    }
    const bool takes_number = word == "depth" || word == "nodes" || word == "movetime" ||
                              word == "wtime" || word == "btime" || word == "winc" ||
                              word == "binc" || word == "movestogo";
    if (!takes_number) return Error{"unknown go parameter '" + word + "'"};
    if (i + 1 >= words.size()) return Error{"go " + word + ": a number must follow"};
    const std::string& text = words[++i];
    const Expected<int64_t> n = service::read_integer(text, INT64_MIN, INT64_MAX);
    if (!n) return Error{"go " + word + " '" + text + "': not a whole number"};
    if (*n < 0) return Error{"go " + word + " " + text + ": must not be negative"};
    if (word == "depth") {
      if (*n < 1 || *n > kMaxDepth)
        return Error{fmt::format("go depth must be 1 to {}", kMaxDepth)};
      go.depth = static_cast<int>(*n);
    } else if (word == "nodes") {
      if (*n < 1) return Error{"go nodes must be at least 1"};
      go.nodes = static_cast<uint64_t>(*n);
    } else if (word == "movetime") {
      if (*n < 1) return Error{"go movetime must be at least 1 (milliseconds)"};
      go.movetime = *n;
    } else if (word == "wtime") {
      go.time[index(Side::South)] = *n;
    } else if (word == "btime") {
      go.time[index(Side::North)] = *n;
    } else if (word == "winc") {
      go.increment[index(Side::South)] = *n;
    } else if (word == "binc") {
      go.increment[index(Side::North)] = *n;
    } else {
      if (*n < 1) return Error{"go movestogo must be at least 1"};
      go.movestogo = static_cast<int>(*n);
    }
  }
  return go;
}

double move_budget_seconds(const GoRequest& go, Side mover) {
  double budget = 0;
  if (go.movetime) budget = static_cast<double>(*go.movetime) / 1000;
  if (const std::optional<int64_t>& clock = go.time[index(mover)]) {
    const double left = static_cast<double>(*clock) / 1000;
    const double increment = static_cast<double>(go.increment[index(mover)].value_or(0)) / 1000;
    const double share =
        std::min(left / 2, left / go.movestogo.value_or(kDefaultMovesToGo) + 0.75 * increment);
    const double clock_budget = std::max(share, 0.001);
    budget = budget > 0 ? std::min(budget, clock_budget) : clock_budget;
  }
  return budget;
}

EngineSession::EngineSession(const EngineDefaults& defaults,
                             std::function<void(const std::string&)> write)
    : defaults_(defaults),
      write_(std::move(write)),
      settings_(defaults),
      game_(std::make_unique<Game>(defaults.rules)) {}

EngineSession::~EngineSession() = default;

void EngineSession::say(const std::string& line) {
  // Every answer may echo what was read (a command, a value, a path): a control byte in it would
  // reach the GUI's parser or a terminal as itself, a line feed would forge a line.
  const std::string escaped = command_line::printable_line(line);
  const std::lock_guard<std::mutex> lock(write_mutex_);
  write_(escaped);
}

bool EngineSession::stopped(uint64_t go_id, bool infinite) const {
  return quitting_ || go_id <= stopped_through_ || (infinite && input_closed_);
}

void EngineSession::run(std::istream& in) {
  bool executor_done = false;
  std::thread executor([this, &executor_done] {
    executor_loop();
    const std::lock_guard<std::mutex> lock(mutex_);
    executor_done = true;
    changed_.notify_all();
  });
  // Until `done` holds: tells the running search or solver to stop whenever its go has been told
  // to. Asked again and again because a search that is just starting resets its stop flag.
  const auto enforce_stops = [this](const std::function<bool()>& done) {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!done()) {
      if (searching_ && stopped(current_go_, current_infinite_)) {
        if (running_player_) running_player_->stop();
      }
      changed_.wait_for(lock, std::chrono::milliseconds(1));
    }
  };

  std::string line;
  bool too_long = false;
  while (command_line::read_bounded_line(in, line, too_long)) {
    if (too_long) {
      // Reported in turn with the commands before it, by the executor.
      const std::lock_guard<std::mutex> lock(mutex_);
      queue_.emplace_back(kOverlongLine, 0);
      changed_.notify_all();
      continue;
    }
    // The first word alone: a line the reader drops costs no allocation.
    const std::string_view command = first_word(line);
    if (command.empty()) continue;
    if (command == "quit") {
      // The commands before it are answered; a search still running or waiting is stopped (it
      // answers its bestmove); then the engine exits.
      const std::lock_guard<std::mutex> lock(mutex_);
      quitting_ = true;
      queue_.emplace_back("quit", 0);
      changed_.notify_all();
      break;
    }
    if (command == "stop" || command == "ponderhit") {
      uint64_t target;
      {
        const std::lock_guard<std::mutex> lock(mutex_);
        target = stopped_through_ = last_go_;
        changed_.notify_all();
      }
      enforce_stops([this, target] { return finished_go_ >= target; });
      continue;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    if (command == "isready" && searching_) {
      lock.unlock();  // UCI: answered at once while the engine thinks
      say("readyok");
      continue;
    }
    if (queue_.size() >= kMaxWaitingCommands) {
      const bool first = !dropping_;
      dropping_ = true;
      lock.unlock();
      if (first)
        report(fmt::format(
            "more than {} commands wait for the one running; those read meanwhile are dropped "
            "(stop ends a search)",
            kMaxWaitingCommands));
      continue;
    }
    if (queue_.empty()) dropping_ = false;  // caught up: a later flood is said again
    queue_.emplace_back(line, command == "go" ? ++last_go_ : 0);
    changed_.notify_all();
  }
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    input_closed_ = true;
    changed_.notify_all();
  }
  enforce_stops([&executor_done] { return executor_done; });
  executor.join();
}

void EngineSession::executor_loop() {
  for (;;) {
    std::pair<std::string, uint64_t> item;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [this] { return input_closed_ || !queue_.empty(); });
      if (queue_.empty()) return;
      item = std::move(queue_.front());
      queue_.pop_front();
    }
    if (item.first == "quit") return;
    if (item.first == kOverlongLine) {
      report(fmt::format("a line longer than {} bytes (ignored)", command_line::kMaxInputLine));
      continue;
    }
    const std::vector<std::string> words = split_words(item.first);
    try {
      if (words[0] == "go") {
        command_go(words, item.second);
      } else {
        execute(item.first);
      }
    } catch (const std::exception& e) {
      report(fmt::format("error: {}", e.what()));
    }
    if (item.second != 0) {
      const std::lock_guard<std::mutex> lock(mutex_);
      finished_go_ = std::max(finished_go_, item.second);
      searching_ = false;
      changed_.notify_all();
    }
  }
}

void EngineSession::execute(const std::string& line) {
  const std::vector<std::string> words = split_words(line);
  const std::string& command = words[0];
  if (command == "uci")
    command_uci();
  else if (command == "isready") {
    prepare_player();  // the search's tables are made now, not in the next go
    say("readyok");
  } else if (command == "ucinewgame")
    command_newgame();
  else if (command == "setoption")
    command_setoption(words);
  else if (command == "position")
    command_position(words);
  else
    report(fmt::format("unknown command '{}' (ignored)", line));
}

void EngineSession::command_uci() {
  say("id name mancala");
  say("id author the mancala project");
  say(fmt::format("option name Hash type spin default {} min 1 max {}", defaults_.hash_megabytes,
                  kMaxHashMegabytes));
  say(fmt::format("option name Game type string default {}", defaults_.rules.name()));
  say(fmt::format("option name Level type spin default {} min {} max {}", defaults_.level,
                  kMinLevel, kMaxLevel));
  say(fmt::format("option name UseTables type check default {}",
                  defaults_.use_tables ? "true" : "false"));
  say(fmt::format("option name TablesPath type string default {}", defaults_.tables_path));
  say("uciok");
}

void EngineSession::command_newgame() {
  game_ = std::make_unique<Game>(settings_.rules);
  if (player_) player_->new_game();
}

void EngineSession::command_setoption(const std::vector<std::string>& words) {
  // setoption name <name words> [value <value words>]
  const auto value_at = std::find(words.begin(), words.end(), "value");
  if (words.size() < 3 || words[1] != "name" || value_at == words.begin() + 2) {
    report("setoption: expected 'setoption name <option> value <value>' (ignored)");
    return;
  }
  const size_t value_index = static_cast<size_t>(value_at - words.begin());
  const std::string name = join(words, 2, value_index);
  const std::string value =
      value_at == words.end() ? "" : join(words, value_index + 1, words.size());
  const std::string key = lower(name);
  const auto bad = [&](const std::string& why) {
    report(fmt::format("setoption {}: {} (ignored)", name, why));
  };
  if (key == "hash") {
    const Expected<uint64_t> mb = service::read_unsigned(value, 1, kMaxHashMegabytes);
    if (!mb)
      return bad(
          fmt::format("'{}' is not a size from 1 to {} (megabytes)", value, kMaxHashMegabytes));
    // Level 6 makes two tables of this size (the search's and its solver's): both must fit.
    const uint64_t fits = service::machine_memory_bytes() / 2 >> 20;
    if (*mb > fits)
      return bad(
          fmt::format("{} MB twice (the search's and the solver's) is more than this "
                      "machine's memory; at most {}",
                      *mb, fits));
    settings_.hash_megabytes = static_cast<size_t>(*mb);
    player_stale_ = true;
  } else if (key == "game") {
    const Expected<Rules> rules = parse_rules(value);
    if (!rules) return bad(rules.error().substr(0, rules.error().find('\n')));
    settings_.rules = *rules;
    game_ = std::make_unique<Game>(*rules);  // the new game's start position
    player_stale_ = true;
    tables_opened_ = false;
  } else if (key == "level") {
    const Expected<int64_t> level = service::read_integer(value, kMinLevel, kMaxLevel);
    if (!level)
      return bad(fmt::format("'{}' is not a level from {} to {}", value, kMinLevel, kMaxLevel));
    settings_.level = static_cast<int>(*level);
    player_stale_ = true;
  } else if (key == "usetables") {
    if (value != "true" && value != "false") return bad("'" + value + "' is not true or false");
    settings_.use_tables = value == "true";
    player_stale_ = true;
  } else if (key == "tablespath") {
    // The check of --db: a path that the file system would read as another (cut at a NUL byte)
    // is refused, not opened; and the tables of the path before it are not used either: the GUI
    // asked for other ones.
    player_stale_ = true;
    tables_opened_ = false;
    if (!value.empty())
      if (const Expected<std::string> path = service::check_path(value); !path) {
        tables_path_refused_ = path.error();
        report(fmt::format("setoption {}: {} (no endgame tables until a usable TablesPath)", name,
                           path.error()));
        return;
      }
    tables_path_refused_.clear();
    settings_.tables_path = value.empty() ? defaults_.tables_path : value;
  } else {
    report(fmt::format("unknown option '{}' (ignored)", name));
  }
}

void EngineSession::command_position(const std::vector<std::string>& words) {
  const auto bad = [&](const std::string& why) {
    report(fmt::format("position: {} (ignored; the position stays {})", why,
                       to_string(game_->position())));
  };
  size_t i = 1;
  std::unique_ptr<Game> game;
  if (i < words.size() && words[i] == "startpos") {
    game = std::make_unique<Game>(settings_.rules);
    ++i;
  } else if (i < words.size() && words[i] == "fen") {
    if (i + 1 >= words.size()) return bad("a position string must follow 'fen'");
    const Expected<Position> p = parse_position(settings_.rules, words[i + 1]);
    if (!p) return bad(p.error());
    game = std::make_unique<Game>(settings_.rules, *p);
    i += 2;
  } else {
    return bad("expected 'startpos' or 'fen <position string>'");
  }
  if (i < words.size()) {
    if (words[i] != "moves")
      return bad("expected 'moves' after the position, not '" + words[i] + "'");
    int number = 0;
    for (++i; i < words.size(); ++i)
      for (char c : words[i]) {
        ++number;
        const std::string text(1, c);
        if (game->is_over())
          return bad(fmt::format("move {} '{}': the game is already over in {}", number, text,
                                 to_string(game->position())));
        const Expected<Move> move = parse_move_letter(game->position(), text);
        if (!move || !game->play(*move))
          return bad(fmt::format("move {} '{}' is illegal in {}{}; legal moves: {}", number, text,
                                 to_string(game->position()), move ? "" : " (" + move.error() + ")",
                                 service::legal_moves_text(*game)));
      }
  }
  game_ = std::move(game);
}

void EngineSession::prepare_player() {
  if (!player_stale_ && player_) return;
  const Rules& rules = settings_.rules;
  const int level = settings_.level;
  const bool wants_tables = level == kMaxLevel && settings_.use_tables && table_rules_for(rules);
  if (!wants_tables) {
    tables_.reset();
    tables_opened_ = false;
  } else if (!tables_opened_ && !tables_path_refused_.empty()) {
    tables_.reset();
    tables_opened_ = true;
    report("no endgame tables: the TablesPath set is " + tables_path_refused_);
  } else if (!tables_opened_) {
    // Opened at the first isready or go that needs them, not at start-up: `uci` is answered at
    // once.
    std::string why_not;
    tables_ = command_line::open_table_values(rules, settings_.tables_path, &why_not,
                                              "the search's estimate, as beyond the tables");
    tables_opened_ = true;
    if (tables_)
      report(fmt::format("endgame tables: {} up to {} seeds in {}", rules.table_name(),
                         tables_->max_seeds(), tables_->tables().directory()));
    else
      report("no endgame tables: " + why_not);
  }
  PlayerOptions options;
  options.level = level;
  options.endgame = level == kMaxLevel ? tables_.get() : nullptr;
  // The GUI was told that Hash sizes the search's table (and Pro's solver's): every level's.
  options.transposition_megabytes = settings_.hash_megabytes;
  options.fixed_depth_megabytes = settings_.hash_megabytes;
  player_ = std::make_unique<Player>(rules, options);
  player_stale_ = false;
}

void EngineSession::command_go(const std::vector<std::string>& words, uint64_t go_id) {
  const Expected<GoRequest> go = parse_go(std::vector<std::string>(words.begin() + 1, words.end()));
  if (!go) {
    report(go.error() + " (ignored)");
    return;
  }
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    searching_ = true;
    current_go_ = go_id;
    current_infinite_ = go->infinite;
  }
  const Position p = game_->position();
  std::string best = "0000";
  if (game_->is_over()) {
    report(fmt::format("the game is over in {}{}", to_string(p),
                       game_->ended_by_repetition() ? " (a position came a third time)" : ""));
  } else if (settings_.level <= 2) {
    prepare_player();
    const Move m = player_->choose(*game_);
    best = std::string(1, move_letter(p.side_to_move, m));
    report(fmt::format("{} plays {}", level_name(settings_.level, settings_.rules), best));
  } else {
    best = std::string(1, move_letter(p.side_to_move, think_with_search(*go, p, go_id)));
  }
  if (go->infinite) {
    // UCI: an infinite search (or a ponder) answers only when told to stop.
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return stopped(go_id, true); });
  }
  say("bestmove " + best);
}

void EngineSession::report_line(int depth, int score, uint64_t nodes, double seconds,
                                const std::string& pv) {
  const auto milliseconds = static_cast<uint64_t>(seconds * 1000);
  const auto nps = static_cast<uint64_t>(static_cast<double>(nodes) / std::max(seconds, 1e-6));
  say(fmt::format("info depth {} score cp {} nodes {} time {} nps {} pv {}", depth, 100 * score,
                  nodes, milliseconds, nps, pv));
}

Move EngineSession::think_with_search(const GoRequest& go, const Position& p, uint64_t go_id) {
  prepare_player();
  const Rules& rules = settings_.rules;
  MoveLimits limits;
  if (!go.infinite) {
    limits.max_depth = go.depth.value_or(0);
    limits.seconds = move_budget_seconds(go, p.side_to_move);
    limits.nodes = go.nodes.value_or(0);
    if (settings_.level >= 5 && limits.seconds == 0 && limits.nodes == 0 && !go.depth)
      limits.seconds = kDefaultSeconds;
  }
  // Pro's solver share (as at every door: four parts search, two solve), but not when the GUI
  // limits the depth, which is how it asks for a weaker player.
  limits.solver_share = !go.depth;

  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!stopped(go_id, go.infinite))
      running_player_ = player_.get();
    else
      limits = MoveLimits{1, 0, 0, false};  // told to stop before it began: a 1-ply move
  }
  Thinking thinking;
  // The pv as one word of letters, as Aualé reads it.
  const Move move = player_->choose(*game_, limits, &thinking, [&](const SearchResult& i) {
    report_line(i.depth, i.score, i.nodes, i.seconds, service::line_word(rules, p, i.pv));
  });
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    running_player_ = nullptr;
  }
  const std::string letter(1, move_letter(p.side_to_move, move));
  if (thinking.from_tables) {
    // Inside the tables the player searches nothing: one line with the move's exact value.
    report_line(1, thinking.score, 0, 0, letter);
  } else if (thinking.from_solver) {
    report_line(thinking.depth, thinking.score, thinking.nodes, thinking.seconds, letter);
    report(fmt::format("the solver proved the value {:+}", thinking.score));
  }
  return move;
}

}  // namespace mancala::engine
