// mancala match GAME (--a LEVEL | --engine-a COMMAND) (--b LEVEL | --engine-b COMMAND) ...
#include <signal.h>

#include <atomic>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "db/file_io.h"
#include "solver/rules/record.h"
#include "solver/search/match.h"
#include "solver/search/sprt.h"
#include "solver/util/thread_count.h"
#include "tools/cli/commands.h"
#include "tools/command_line/command_line.h"
#include "tools/command_line/endgame_tables.h"
#include "tools/command_line/progress.h"
#include "tools/match/match_runner.h"
#include "tools/service/json_output.h"
#include "tools/service/move_text.h"

namespace mancala::cli {

using namespace command_line;  // the helpers every command line shares

namespace {

// Bounds of the options: every game is kept in memory until the end; a node budget beyond 10^12
// a move would take hours a move.
constexpr int kMaxGames = 100000;
constexpr int kMaxOpeningTurns = 1000;
constexpr int kMaxBalance = 1000;
constexpr uint64_t kMaxNodes = 1000000000000ull;
constexpr size_t kMaxOpeningFileBytes = 16 << 20;
constexpr int kMaxOpeningMoves = 1000;

struct MatchOptions {
  std::string game;
  int a = 0, b = 0;
  std::string engine_a, engine_b, name_a, name_b;
  std::vector<std::string> options_a, options_b;
  int games = 100;
  uint64_t seed = 1;
  double seconds = 1.0;
  uint64_t nodes = 0;
  double move_time = 0;
  std::string clock;
  double margin = 0.2;
  double node_timeout = 60;
  double startup = 10;
  std::string openings;
  std::vector<double> sprt;
  double alpha = 0.05, beta = 0.05;
  int opening_turns = OpeningOptions{}.turns;
  int balance = OpeningOptions{}.balance;
  bool no_balance = false;
  int concurrency = 0;
  std::string pgn;
  std::string db;
  bool json = false;
  bool quiet = false;
};

// What the checks parsed: the sides, the time control, the opening suite, the SPRT.
struct CheckedMatch {
  Rules rules;
  match::SideSpec a, b;
  match::TimeControl time;
  std::vector<match::MatchOpening> suite;  // from --openings; empty: balanced random openings
  std::optional<SprtParameters> sprt;
  bool ogn = false;
};

match::SideSpec side_spec(char side, int level, const std::string& engine,
                          const std::vector<std::string>& options, const std::string& name) {
  if ((level != 0) == !engine.empty())
    throw UsageError(
        fmt::format("player {0}: give --{1} LEVEL or --engine-{1} COMMAND (one of them)",
                    char(side - 'a' + 'A'), side));
  if (level && !options.empty())
    throw UsageError(
        fmt::format("--option-{}: options are for an engine (--engine-{})", side, side));
  match::SideSpec spec;
  spec.level = level;
  spec.engine.command = engine;
  spec.name = name;
  for (const std::string& option : options) {
    const size_t equals = option.find('=');
    if (equals == 0 || equals == std::string::npos)
      throw UsageError(fmt::format("--option-{}: NAME=VALUE, not '{}'", side, printable(option)));
    spec.engine.options.emplace_back(option.substr(0, equals), option.substr(equals + 1));
  }
  return spec;
}

// "BASE+INC" or "BASE", in seconds.
void parse_clock(const std::string& text, match::TimeControl& time) {
  const size_t plus = text.find('+');
  const Expected<double> base =
      parse_number(text.substr(0, plus), 0, service::kMaxSeconds, true, "BASE");
  Expected<double> increment = 0.0;
  if (plus != std::string::npos)
    increment = parse_number(text.substr(plus + 1), 0, service::kMaxSeconds, false, "INCREMENT");
  if (!base || !increment)
    throw UsageError(fmt::format("--clock: BASE+INCREMENT in seconds (60+0.5), not '{}': {}",
                                 printable(text), !base ? base.error() : increment.error()));
  time.kind = match::TimeControl::Kind::Clock;
  time.base_seconds = *base;
  time.increment_seconds = *increment;
}

// One opening a line: a position string, or move letters from the start; blank lines and lines
// starting with # are skipped.
std::vector<match::MatchOpening> read_openings(const Rules& rules, const std::string& path) {
  Expected<std::string> text = db::read_whole_file(path, kMaxOpeningFileBytes);
  if (!text) throw Failure(text.error());
  std::vector<match::MatchOpening> suite;
  std::istringstream lines(*text);
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    line = line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
    match::MatchOpening opening;
    std::string problem;
    if (Expected<Position> position = parse_position(rules, line)) {
      opening.start = *position;
      if (Game(rules, opening.start).is_over()) problem = "the game is over there";
    } else if (line.find('-') != std::string::npos) {
      problem = position.error();
    } else {
      service::Replay replay =
          service::replay_moves(rules, start_position(rules), line, kMaxOpeningMoves);
      opening.start = start_position(rules);
      opening.moves = replay.game.moves();
      if (!replay.ok())
        problem = replay.message;
      else if (replay.game.is_over())
        problem = "the game is over after these moves";
    }
    if (!problem.empty())
      throw UsageError(fmt::format("--openings: {} line {}: {}", db::shown_path(path), number,
                                   printable_line(problem)));
    suite.push_back(std::move(opening));
  }
  if (suite.empty())
    throw UsageError(fmt::format("--openings: {} holds no opening", db::shown_path(path)));
  return suite;
}

CheckedMatch check_match(const MatchOptions& o) {
  CheckedMatch checked{require_rules(o.game), {}, {}, {}, {}, {}, false};
  checked.a = side_spec('a', o.a, o.engine_a, o.options_a, o.name_a);
  checked.b = side_spec('b', o.b, o.engine_b, o.options_b, o.name_b);
  match::TimeControl& time = checked.time;
  time.seconds = o.seconds;
  time.nodes = o.nodes;
  time.margin_seconds = o.margin;
  time.node_timeout_seconds = o.node_timeout;
  if (o.move_time > 0 && !o.clock.empty())
    throw UsageError("--move-time and --clock: one time control, not both");
  if (o.nodes && (o.move_time > 0 || !o.clock.empty()))
    throw UsageError(
        "--nodes is a budget instead of a time control: not with --move-time or --clock");
  if (o.move_time > 0) {
    time.kind = match::TimeControl::Kind::MoveTime;
    time.seconds = o.move_time;
  }
  if (!o.clock.empty()) parse_clock(o.clock, time);
  if (!o.sprt.empty()) {
    if (o.sprt.size() != 2 || !(o.sprt[0] < o.sprt[1]))
      throw UsageError("--sprt: ELO0 ELO1, with ELO0 below ELO1");
    checked.sprt = SprtParameters{o.sprt[0], o.sprt[1], o.alpha, o.beta};
  }
  if (!o.openings.empty()) checked.suite = read_openings(checked.rules, o.openings);
  const std::string ogn_suffix = ".ogn";
  checked.ogn = o.pgn.size() >= ogn_suffix.size() &&
                o.pgn.compare(o.pgn.size() - ogn_suffix.size(), ogn_suffix.size(), ogn_suffix) == 0;
  if (checked.ogn && !(checked.rules == Rules::oware(4)))
    throw UsageError(fmt::format("--pgn {}: an .ogn record holds Oware abapa with 4 seeds, not {}",
                                 o.pgn, checked.rules.name()));
  return checked;
}

// Ctrl-C during a match: the runner stops its games and its engines, and what was played is
// still counted and written. A second Ctrl-C ends the command at once (the default action).
std::atomic<bool> interrupted{false};

extern "C" void on_interrupt(int) {
  interrupted.store(true);
  signal(SIGINT, SIG_DFL);
}

class InterruptGuard {
 public:
  InterruptGuard() {
    interrupted.store(false);
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &old_interrupt_);
  }
  ~InterruptGuard() { sigaction(SIGINT, &old_interrupt_, nullptr); }
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  struct sigaction old_interrupt_ {};
};

std::string side_text(const match::SideSpec& spec, const std::string& name, const Rules& rules) {
  if (spec.level && spec.name.empty()) return level_name(spec.level, rules);
  return name;
}

std::string termination_text(const match::GameReport& game) {
  if (game.termination == match::Termination::Rules)
    return game.game.ended_by_repetition() ? "normal (third repetition)" : "normal";
  return std::string(match::termination_name(game.termination)) + ": " +
         printable_line(game.detail);
}

std::string result_text(Winner winner) {
  return winner == Winner::South ? "1-0" : winner == Winner::North ? "0-1" : "1/2-1/2";
}

// After an interrupted match's results: exit status 1, so that a script sees it did not finish.
[[noreturn]] void throw_interrupted(int games) {
  throw Failure(
      fmt::format("interrupted (Ctrl-C) after {} games; those were counted and saved", games));
}

void run_match(const MatchOptions& o, const CheckedMatch& checked) {
  const Rules& rules = checked.rules;
  const bool engines = checked.a.level == 0 || checked.b.level == 0;
  // Levels alone: all cores, as in-process matches always played; with an engine, one game at a
  // time unless asked (each engine wants a core of its own).
  const int concurrency = o.concurrency ? o.concurrency : engines ? 1 : all_cores();
  // Created before the games, so that a path that cannot be written fails now, not after them;
  // written whole at the end (AtomicFile), so that a failed write leaves the old file.
  std::optional<db::AtomicFile> pgn;
  if (!o.pgn.empty()) {
    Expected<db::AtomicFile> created = db::AtomicFile::create(o.pgn);
    if (!created) throw Failure(created.error());
    pgn.emplace(std::move(created.value()));
  }
  std::unique_ptr<db::TableValues> tables;
  if (checked.a.level == 6 || checked.b.level == 6) {
    std::string why_not;
    tables = open_table_values(rules, o.db, &why_not,
                               "level 6 searches those positions instead of reading the tables");
    if (!tables && !o.quiet)
      fmt::print(stderr, "note: level 6 plays without endgame tables: {}\n", why_not);
  }
  match::MatchPlan plan;
  plan.rules = rules;
  plan.a = checked.a;
  plan.b = checked.b;
  plan.time = checked.time;
  plan.games = o.games;
  plan.concurrency = concurrency;
  plan.seed = o.seed;
  plan.tables = tables.get();
  plan.sprt = checked.sprt;
  plan.startup = std::chrono::milliseconds(static_cast<int64_t>(o.startup * 1000));
  plan.cancel = &interrupted;
  // Game 2k and 2k+1 share an opening, with colours swapped.
  OpeningOptions opening_options;
  opening_options.turns = o.opening_turns;
  opening_options.balance = o.no_balance ? -1 : o.balance;
  int unbalanced = 0;
  size_t random_openings = 0;
  if (checked.suite.empty()) {
    const std::vector<Opening> openings =
        match_openings(rules, o.seed, (o.games + 1) / 2, opening_options, concurrency);
    for (const Opening& opening : openings) {
      if (opening.evaluation && std::abs(*opening.evaluation) > o.balance) ++unbalanced;
      plan.openings.push_back({start_position(rules), opening.moves});
    }
    random_openings = openings.size();
  } else {
    plan.openings = checked.suite;
  }

  ProgressBar bar(o.quiet);
  match::MatchReport report;
  {
    InterruptGuard guard;
    report = match::run_match(
        plan, [&](const match::GameReport& game, const match::MatchReport& so_far) {
          if (game.termination != match::Termination::Rules) {
            // The line that broke the rules, as it happens (the bar's line is ended first).
            bar.finish();
            fmt::print(stderr, "game {}: {}\n", game.index + 1, termination_text(game));
          }
          std::string note;
          if (so_far.sprt)
            note = fmt::format("LLR {:.2f} ({:.2f},{:.2f})", so_far.sprt->llr, so_far.sprt->lower,
                               so_far.sprt->upper);
          bar.update(fmt::format("match: A {}-{}-{}", so_far.score.wins, so_far.score.draws,
                                 so_far.score.losses),
                     static_cast<uint64_t>(so_far.score.games()), static_cast<uint64_t>(o.games),
                     "games", note);
        });
  }
  bar.finish();
  const std::string a_text = side_text(checked.a, report.a_name, rules),
                    b_text = side_text(checked.b, report.b_name, rules);

  if (pgn) {
    char date[16];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y.%m.%d", std::localtime(&now));
    for (const match::GameReport& game : report.games) {
      const Outcome end = game.game.outcome();
      RecordTags tags{{"South", printable_line(game.south_name)},
                      {"North", printable_line(game.north_name)},
                      {"Date", date},
                      {"Event", "mancala match"},
                      {"Round", std::to_string(game.index + 1)}};
      if (game.termination == match::Termination::Rules)
        tags.emplace_back("Score", fmt::format("{}-{}", end.south_store, end.north_store));
      tags.emplace_back("Termination", termination_text(game));
      RecordStyle style;
      style.ogn = checked.ogn;
      if (game.termination != match::Termination::Rules) style.result = result_text(game.winner);
      const Expected<std::string> record = write_record(game.game, tags, style);
      if (!record) throw Failure(record.error());
      if (Expected<bool> written = pgn->write(*record + "\n"); !written)
        throw Failure(written.error());
    }
    if (Expected<bool> committed = pgn->commit(); !committed) throw Failure(committed.error());
  }
  if (!report.error.empty()) throw Failure(report.error);
  const MatchScore& score = report.score;
  const EloEstimate elo = score.elo();
  const PairEloEstimate pair = pair_elo(report.pairs);
  int adjudicated = 0, retries = 0;
  for (const match::GameReport& game : report.games) {
    adjudicated += game.termination != match::Termination::Rules;
    retries += game.position_only_retries;
  }
  if (o.json) {
    json_output::Json out;
    out["game"] = rules.name();
    if (checked.a.level && checked.a.name.empty())
      out["a"] = checked.a.level;
    else
      out["a"] = a_text;
    if (checked.b.level && checked.b.name.empty())
      out["b"] = checked.b.level;
    else
      out["b"] = b_text;
    out["games"] = score.games();
    out["wins"] = score.wins;
    out["draws"] = score.draws;
    out["losses"] = score.losses;
    out["points"] = json_output::rounded(score.points(), 4);
    out["elo"] = json_output::rounded(elo.difference, 1);
    out["elo_margin"] = json_output::rounded(elo.margin, 1);
    if (engines || checked.sprt || report.cancelled) {
      out["pairs"] = report.pairs.counts;
      out["pair_elo"] = json_output::rounded(pair.difference, 1);
      out["pair_elo_low"] = json_output::rounded(pair.low, 1);
      out["pair_elo_high"] = json_output::rounded(pair.high, 1);
      out["adjudicated"] = adjudicated;
      out["position_only_retries"] = retries;
      out["interrupted"] = report.cancelled;
    }
    if (report.sprt) {
      out["llr"] = json_output::rounded(report.sprt->llr, 3);
      out["llr_lower"] = json_output::rounded(report.sprt->lower, 3);
      out["llr_upper"] = json_output::rounded(report.sprt->upper, 3);
      out["sprt"] = report.sprt->verdict == SprtVerdict::AcceptH1   ? "H1"
                    : report.sprt->verdict == SprtVerdict::AcceptH0 ? "H0"
                                                                    : "undecided";
    }
    fmt::print("{}\n", json_output::dump(out));
    if (report.cancelled) throw_interrupted(score.games());
    return;
  }
  fmt::print("{}: A = {} against B = {}, {} games{}\n", rules.name(), a_text, b_text, score.games(),
             report.cancelled ? " (interrupted)" : "");
  fmt::print(
      "A: {} wins, {} draws, {} losses; points {:.1f}% ; Elo difference {:+.0f} +/- {:.0f} (95%)\n",
      score.wins, score.draws, score.losses, 100 * score.points(), elo.difference, elo.margin);
  if (engines || checked.sprt || report.cancelled) {
    const auto& c = report.pairs.counts;
    fmt::print(
        "Pairs (A's points in a pair 0, 1/2, 1, 3/2, 2): {} {} {} {} {}; Elo {:+.1f} "
        "[{:+.1f}, {:+.1f}] (95%)\n",
        c[0], c[1], c[2], c[3], c[4], pair.difference, pair.low, pair.high);
    if (adjudicated) {
      int by_kind[7] = {};
      for (const match::GameReport& game : report.games)
        ++by_kind[static_cast<int>(game.termination)];
      std::string kinds;
      for (match::Termination t : {match::Termination::IllegalMove, match::Termination::Crash,
                                   match::Termination::Timeout, match::Termination::ProtocolError})
        if (by_kind[static_cast<int>(t)])
          kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", by_kind[static_cast<int>(t)],
                               match::termination_name(t));
      fmt::print("Adjudicated: {} games ({})\n", adjudicated, kinds);
    }
    if (retries)
      fmt::print(
          "bestmove 0000 where the rules go on: asked again with the position alone {} "
          "times\n",
          retries);
  }
  if (report.sprt) {
    fmt::print("SPRT: LLR: {:.2f} ({:.2f},{:.2f}) <{:.2f},{:.2f}>: {}\n", report.sprt->llr,
               report.sprt->lower, report.sprt->upper, checked.sprt->elo0, checked.sprt->elo1,
               report.sprt->verdict == SprtVerdict::AcceptH1   ? "H1 accepted"
               : report.sprt->verdict == SprtVerdict::AcceptH0 ? "H0 accepted"
                                                               : "no verdict yet");
  } else if (checked.sprt) {
    fmt::print("SPRT: no complete pair of games yet\n");
  }
  if (!checked.suite.empty()) {
    fmt::print("Openings: {} from {}, each with both colours\n", checked.suite.size(), o.openings);
  } else if (o.no_balance) {
    fmt::print("Openings: {} random turns, not balanced\n", o.opening_turns);
  } else {
    fmt::print(
        "Openings: {} random turns, scored within {} seeds of even by a search {} plies deep",
        o.opening_turns, o.balance, opening_search_depth(rules));
    if (unbalanced)
      fmt::print(" ({} of {}: the closest of {} tries)", unbalanced, random_openings,
                 opening_options.attempts);
    fmt::print("\n");
  }
  if (report.cancelled) throw_interrupted(score.games());
}

}  // namespace

void add_match_command(CLI::App& app) {
  auto o = std::make_shared<MatchOptions>();
  CLI::App* cmd = app.add_subcommand(
      "match",
      "Two players, each a computer level or an external engine (the Aualé protocol): points, "
      "Elo, an SPRT");
  cmd->add_option("GAME", o->game, "Game and variant, e.g. kalah, oware")->required();
  cmd->add_option("--a", o->a, "Player A: this level (1-6), in this process")
      ->check(computer_level());
  cmd->add_option("--b", o->b, "Player B: this level (1-6), in this process")
      ->check(computer_level());
  cmd->add_option("--engine-a", o->engine_a,
                  "Player A: an engine speaking the Aualé protocol, started by /bin/sh -c COMMAND")
      ->option_text("COMMAND");
  cmd->add_option("--engine-b", o->engine_b, "Player B: likewise")->option_text("COMMAND");
  cmd->add_option("--option-a", o->options_a,
                  "An option for engine A (setoption name NAME value VALUE), repeatable")
      ->option_text("NAME=VALUE");
  cmd->add_option("--option-b", o->options_b, "An option for engine B, repeatable")
      ->option_text("NAME=VALUE");
  cmd->add_option("--name-a", o->name_a, "Player A's name in the output and the records");
  cmd->add_option("--name-b", o->name_b, "Player B's name");
  cmd->add_option("--games,-n", o->games,
                  "Number of games (default 100); each opening is played twice, colours swapped")
      ->check(integer_in(1, kMaxGames));
  cmd->add_option("--seed", o->seed, "Seed of the openings and the random choices (default 1)")
      ->check(unsigned_in(0, UINT64_MAX));
  cmd->add_option("--openings", o->openings,
                  "Openings from a file, one a line: a position string or move letters from the "
                  "start (# comments); used in order, again from the first when there are more "
                  "pairs of games")
      ->option_text("FILE")
      ->check(path_name());
  cmd->add_option("--opening-turns", o->opening_turns,
                  "Random turns that open each pair of games (default 4: two each)")
      ->check(integer_in(0, kMaxOpeningTurns));
  cmd->add_option("--balance", o->balance,
                  "Keep only openings a fixed search scores within SEEDS of even, since moving "
                  "first is a large edge (default 2)")
      ->option_text("SEEDS")
      ->check(integer_in(0, kMaxBalance));
  cmd->add_flag("--no-balance", o->no_balance, "Any random opening, however lopsided");
  cmd->add_option("--seconds", o->seconds,
                  "Without --move-time or --clock: the levels' own budget (level 5 this a move, "
                  "level 6 more) and an engine's go movetime (default 1)")
      ->check(positive_seconds());
  cmd->add_option("--nodes", o->nodes,
                  "A node budget a move instead of time: levels 5 and 6, and engines (go nodes)")
      ->check(unsigned_in(1, kMaxNodes));
  cmd->add_option("--move-time", o->move_time,
                  "Both sides get SECONDS a move (engines: go movetime); later loses")
      ->option_text("SECONDS")
      ->check(positive_seconds());
  cmd->add_option("--clock", o->clock,
                  "Both sides get a clock of BASE seconds, INC added after each move (engines: "
                  "go wtime btime winc binc); a side out of time loses")
      ->option_text("BASE+INC");
  cmd->add_option("--time-margin", o->margin,
                  "Seconds over its time before a side loses on time (default 0.2)")
      ->check(number_in(0, service::kMaxSeconds));
  cmd->add_option("--node-timeout", o->node_timeout,
                  "With --nodes: an engine that has not answered in SECONDS loses (default 60)")
      ->option_text("SECONDS")
      ->check(positive_seconds());
  cmd->add_option("--startup-seconds", o->startup,
                  "Time for an engine to answer uci and isready (default 10)")
      ->check(positive_seconds());
  cmd->add_option("--sprt", o->sprt,
                  "Stop when the SPRT (pentanomial GSPRT, logistic Elo) accepts H0: A is ELO0 "
                  "stronger, or H1: ELO1 stronger")
      ->option_text("ELO0 ELO1")
      ->expected(2)
      ->check(number_in(-1000, 1000));
  cmd->add_option("--alpha", o->alpha, "The SPRT's alpha (default 0.05)")
      ->check(number_in(0, 0.5, true));
  cmd->add_option("--beta", o->beta, "The SPRT's beta (default 0.05)")
      ->check(number_in(0, 0.5, true));
  cmd->add_option("--concurrency,-c,--threads,-t", o->concurrency,
                  "Games at once (default: all cores for levels alone, 1 with an engine)")
      ->check(thread_count());
  cmd->add_option("--pgn", o->pgn,
                  "Save every game as a record in this file, with the reason it ended (a name "
                  "ending in .ogn: Aualé's .ogn, for Oware abapa)")
      ->check(path_name());
  cmd->add_option("--db", o->db, "Endgame table directory for level 6")->check(path_name());
  cmd->add_flag("--json", o->json,
                "Print one JSON object (games, wins, draws, losses, points, elo)");
  cmd->add_flag("--quiet,-q", o->quiet, "No progress bar");
  set_command(
      cmd, [o] { return check_match(*o); },
      [o](const CheckedMatch& checked) { run_match(*o, checked); });
}

}  // namespace mancala::cli
