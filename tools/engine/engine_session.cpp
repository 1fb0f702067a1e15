#include "tools/engine/engine_session.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <exception>
#include <thread>

#include <fmt/core.h>

#include "solver/tables/table_rules.h"
#include "tools/command_line/cli.h"
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
  const std::lock_guard<std::mutex> lock(write_mutex_);
  write_(line);
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
        if (running_search_) running_search_->stop();
        if (running_solver_) running_solver_->stop();
      }
      changed_.wait_for(lock, std::chrono::milliseconds(1));
    }
  };

  std::string line;
  while (std::getline(in, line)) {
    const std::vector<std::string> words = split_words(line);
    if (words.empty()) continue;
    const std::string& command = words[0];
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
    prepare_search();  // the search's tables are made now, not in the next go
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
  if (search_) search_->clear();
  chooser_.reset();  // levels 1 and 2 start their random sequence again
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
    search_stale_ = true;
  } else if (key == "game") {
    const Expected<Rules> rules = parse_rules(value);
    if (!rules) return bad(rules.error().substr(0, rules.error().find('\n')));
    settings_.rules = *rules;
    game_ = std::make_unique<Game>(*rules);  // the new game's start position
    search_stale_ = true;
    tables_opened_ = false;
  } else if (key == "level") {
    const Expected<int64_t> level = service::read_integer(value, kMinLevel, kMaxLevel);
    if (!level)
      return bad(fmt::format("'{}' is not a level from {} to {}", value, kMinLevel, kMaxLevel));
    // Only the Pro level's search differs (the tables, the solver): levels 3-5 share theirs.
    if ((*level == kMaxLevel) != (settings_.level == kMaxLevel)) search_stale_ = true;
    settings_.level = static_cast<int>(*level);
    chooser_.reset();
  } else if (key == "usetables") {
    if (value != "true" && value != "false") return bad("'" + value + "' is not true or false");
    settings_.use_tables = value == "true";
    search_stale_ = true;
  } else if (key == "tablespath") {
    settings_.tables_path = value.empty() ? defaults_.tables_path : value;
    search_stale_ = true;
    tables_opened_ = false;
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

void EngineSession::prepare_search() {
  if (!search_stale_ && search_) return;
  const Rules& rules = settings_.rules;
  const int level = settings_.level;
  const bool wants_tables = level == kMaxLevel && settings_.use_tables && table_rules_for(rules);
  if (!wants_tables) {
    tables_.reset();
    tables_opened_ = false;
  } else if (!tables_opened_) {
    // Opened at the first isready or go that needs them, not at start-up: `uci` is answered at
    // once.
    std::string why_not;
    tables_ = cli::open_table_values(rules, settings_.tables_path, &why_not,
                                     "the search's estimate, as beyond the tables");
    tables_opened_ = true;
    if (tables_)
      report(fmt::format("endgame tables: {} up to {} seeds in {}", rules.table_name(),
                         tables_->max_seeds(), tables_->tables().directory()));
    else
      report("no endgame tables: " + why_not);
  }
  const ExactValues* endgame = level == kMaxLevel ? tables_.get() : nullptr;
  search_ = std::make_unique<Search>(rules, settings_.hash_megabytes, endgame);
  solver_.reset();
  if (level == kMaxLevel)
    solver_ = std::make_unique<Solver>(rules, settings_.hash_megabytes, endgame);
  chooser_.reset();
  search_stale_ = false;
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
    prepare_search();
    if (!chooser_) {
      PlayerOptions options;
      options.level = settings_.level;
      chooser_ = std::make_unique<Player>(settings_.rules, options);
    }
    const Move m = chooser_->choose(*game_);
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
  prepare_search();
  const Rules& rules = settings_.rules;
  const int level = settings_.level;
  SearchLimits limits;
  limits.max_depth = level <= 4 ? fixed_depth(level, rules) : kMaxDepth;
  double seconds = 0;
  uint64_t nodes = 0;
  if (!go.infinite) {
    if (go.depth) limits.max_depth = std::min(limits.max_depth, *go.depth);
    seconds = move_budget_seconds(go, p.side_to_move);
    nodes = go.nodes.value_or(0);
    if (level >= 5 && seconds == 0 && nodes == 0 && !go.depth) seconds = kDefaultSeconds;
  }
  // The Pro level gives a third of a time or node budget to the whole-game solver when the search
  // has not proven its score (as level 6 of `mancala play` does: four parts search, two solve);
  // not when the GUI limits the depth, which is how it asks for a weaker player.
  const bool solver_phase = solver_ && !go.depth && (seconds > 0 || nodes > 0);
  const ProShares pro = pro_shares(seconds, nodes);
  limits.max_seconds = solver_phase ? pro.search_seconds : seconds;
  limits.max_nodes = solver_phase ? pro.search_nodes : nodes;

  bool started = false;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!stopped(go_id, go.infinite)) {
      running_search_ = search_.get();
      started = true;
    }
  }
  SearchResult r;
  if (started) {
    // The pv as one word of letters, as Aualé reads it.
    r = search_->run(p, limits, [&](const SearchResult& i) {
      report_line(i.depth, i.score, i.nodes, i.seconds, service::line_word(rules, p, i.pv));
    });
    const std::lock_guard<std::mutex> lock(mutex_);
    running_search_ = nullptr;
  } else {
    r = search_->run(p, SearchLimits{1, 0, 0});  // told to stop before it began: a 1-ply move
  }
  Move move = r.best;
  if (!solver_phase || r.proven || !started) return move;

  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (stopped(go_id, go.infinite)) return move;
    running_solver_ = solver_.get();
  }
  SolveLimits solve_limits;
  solve_limits.max_seconds = pro.solve_seconds;
  solve_limits.max_nodes = pro.solve_nodes;
  SolveOptions options;
  options.guess = r.score;
  options.moves_only = true;
  const SolveResult solved = solver_->solve(p, solve_limits, {}, options);
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    running_solver_ = nullptr;
  }
  if (!solved.solved || solved.best.empty()) return move;
  if (std::find(solved.best.begin(), solved.best.end(), move) == solved.best.end())
    move = solved.best[0];
  report_line(r.depth, solved.value, r.nodes + solved.nodes, r.seconds + solved.seconds,
              std::string(1, move_letter(p.side_to_move, move)));
  report(fmt::format("the solver proved the value {:+}", solved.value));
  return move;
}

}  // namespace mancala::engine
