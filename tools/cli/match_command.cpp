// mancala match GAME --a LEVEL --b LEVEL --games N
#include <cstdlib>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "db/file_io.h"
#include "solver/rules/record.h"
#include "solver/search/match.h"
#include "solver/util/thread_count.h"
#include "tools/cli/commands.h"
#include "tools/command_line/cli.h"
#include "tools/command_line/endgame_tables.h"
#include "tools/command_line/progress.h"
#include "tools/service/json_output.h"

namespace mancala::cli {

namespace {

// Bounds of the options: every game is kept in memory until the end; a node budget beyond 10^12
// a move would take hours a move.
constexpr int kMaxGames = 100000;
constexpr int kMaxOpeningTurns = 1000;
constexpr int kMaxBalance = 1000;
constexpr uint64_t kMaxNodes = 1000000000000ull;

struct MatchOptions {
  std::string game;
  int a = 0, b = 0;
  int games = 100;
  uint64_t seed = 1;
  double seconds = 1.0;
  uint64_t nodes = 0;
  int opening_turns = OpeningOptions{}.turns;
  int balance = OpeningOptions{}.balance;
  bool no_balance = false;
  int threads = 0;
  std::string pgn;
  std::string db;
  bool json = false;
  bool quiet = false;
};

void run_match(const MatchOptions& o, const Rules& rules) {
  const int threads = threads_or_all_cores(o.threads);
  // Created before the games, so that a path that cannot be written fails now, not after them;
  // written whole at the end (AtomicFile), so that a failed write leaves the old file.
  std::optional<db::AtomicFile> pgn;
  if (!o.pgn.empty()) {
    Expected<db::AtomicFile> created = db::AtomicFile::create(o.pgn);
    if (!created) throw Failure(created.error());
    pgn.emplace(std::move(created.value()));
  }
  std::unique_ptr<db::TableValues> tables;
  if (o.a == 6 || o.b == 6) {
    std::string why_not;
    tables = open_table_values(rules, o.db, &why_not,
                               "level 6 searches those positions instead of reading the tables");
    if (!tables && !o.quiet)
      fmt::print(stderr, "note: level 6 plays without endgame tables: {}\n", why_not);
  }
  // Game 2k and 2k+1 share an opening, with colours swapped.
  OpeningOptions opening_options;
  opening_options.turns = o.opening_turns;
  opening_options.balance = o.no_balance ? -1 : o.balance;
  const std::vector<Opening> openings =
      match_openings(rules, o.seed, (o.games + 1) / 2, opening_options, threads);
  int unbalanced = 0;
  for (const Opening& opening : openings)
    if (opening.evaluation && std::abs(*opening.evaluation) > o.balance) ++unbalanced;
  std::vector<std::unique_ptr<Game>> games(static_cast<size_t>(o.games));
  ProgressBar bar(o.quiet);
  int done = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (int i = 0; i < o.games; ++i) {
    const bool a_south = i % 2 == 0;
    auto options = [&](int level, uint64_t salt) {
      return PlayerOptions{level, o.seed * 1000003 + static_cast<uint64_t>(i) * 2 + salt, o.seconds,
                           o.nodes, tables.get()};
    };
    Player a(rules, options(o.a, 0)), b(rules, options(o.b, 1));
    const std::vector<Move>& opening = openings[static_cast<size_t>(i / 2)].moves;
    Game game = a_south ? play_game(rules, a, b, opening) : play_game(rules, b, a, opening);
    games[static_cast<size_t>(i)] = std::make_unique<Game>(std::move(game));
#pragma omp critical
    {
      ++done;
      bar.update(fmt::format("match {} vs {}", o.a, o.b), static_cast<uint64_t>(done),
                 static_cast<uint64_t>(o.games), "games");
    }
  }
  bar.finish();

  MatchScore score;
  for (int i = 0; i < o.games; ++i)
    score.add(games[i]->outcome().winner, i % 2 == 0 ? Side::South : Side::North);
  const EloEstimate elo = score.elo();

  if (pgn) {
    char date[16];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y.%m.%d", std::localtime(&now));
    for (int i = 0; i < o.games; ++i) {
      const bool a_south = i % 2 == 0;
      const std::string a_name = "A: mancala " + level_name(o.a, rules),
                        b_name = "B: mancala " + level_name(o.b, rules);
      const Outcome end = games[i]->outcome();
      const Expected<std::string> record = write_record(
          *games[i], {{"South", a_south ? a_name : b_name},
                      {"North", a_south ? b_name : a_name},
                      {"Date", date},
                      {"Event", "mancala match"},
                      {"Round", std::to_string(i + 1)},
                      {"Score", fmt::format("{}-{}", end.south_store, end.north_store)}});
      if (!record) throw Failure(record.error());
      if (Expected<bool> written = pgn->write(*record + "\n"); !written)
        throw Failure(written.error());
    }
    if (Expected<bool> committed = pgn->commit(); !committed) throw Failure(committed.error());
  }
  if (o.json) {
    json_output::Json out;
    out["game"] = rules.name();
    out["a"] = o.a;
    out["b"] = o.b;
    out["games"] = score.games();
    out["wins"] = score.wins;
    out["draws"] = score.draws;
    out["losses"] = score.losses;
    out["points"] = json_output::rounded(score.points(), 4);
    out["elo"] = json_output::rounded(elo.difference, 1);
    out["elo_margin"] = json_output::rounded(elo.margin, 1);
    fmt::print("{}\n", json_output::dump(out));
    return;
  }
  fmt::print("{}: A = {} against B = {}, {} games\n", rules.name(), level_name(o.a, rules),
             level_name(o.b, rules), score.games());
  fmt::print(
      "A: {} wins, {} draws, {} losses; points {:.1f}% ; Elo difference {:+.0f} +/- {:.0f} (95%)\n",
      score.wins, score.draws, score.losses, 100 * score.points(), elo.difference, elo.margin);
  if (o.no_balance) {
    fmt::print("Openings: {} random turns, not balanced\n", o.opening_turns);
  } else {
    fmt::print(
        "Openings: {} random turns, scored within {} seeds of even by a search {} plies deep",
        o.opening_turns, o.balance, opening_search_depth(rules));
    if (unbalanced)
      fmt::print(" ({} of {}: the closest of {} tries)", unbalanced, openings.size(),
                 opening_options.attempts);
    fmt::print("\n");
  }
}

}  // namespace

void add_match_command(CLI::App& app) {
  auto o = std::make_shared<MatchOptions>();
  CLI::App* cmd =
      app.add_subcommand("match", "Computer against computer: points and Elo difference");
  cmd->add_option("GAME", o->game, "Game and variant, e.g. kalah, oware")->required();
  cmd->add_option("--a", o->a, "Level of player A (1-6)")->required()->check(computer_level());
  cmd->add_option("--b", o->b, "Level of player B (1-6)")->required()->check(computer_level());
  cmd->add_option("--games,-n", o->games, "Number of games (default 100); colours alternate")
      ->check(integer_in(1, kMaxGames));
  cmd->add_option("--seed", o->seed, "Seed of the openings and the random choices (default 1)")
      ->check(unsigned_in(0, UINT64_MAX));
  cmd->add_option("--opening-turns", o->opening_turns,
                  "Random turns that open each pair of games (default 4: two each)")
      ->check(integer_in(0, kMaxOpeningTurns));
  cmd->add_option("--balance", o->balance,
                  "Keep only openings a fixed search scores within SEEDS of even, since moving "
                  "first is a large edge (default 2)")
      ->option_text("SEEDS")
      ->check(integer_in(0, kMaxBalance));
  cmd->add_flag("--no-balance", o->no_balance, "Any random opening, however lopsided");
  cmd->add_option("--seconds", o->seconds, "Time per move for levels 5 and 6 (default 1)")
      ->check(positive_seconds());
  cmd->add_option("--nodes", o->nodes,
                  "Node budget per move for levels 5 and 6 instead of time (reproducible)")
      ->check(unsigned_in(1, kMaxNodes));
  cmd->add_option("--threads,-t", o->threads, "Games played at once (default: all cores)")
      ->check(thread_count());
  cmd->add_option("--pgn", o->pgn, "Save every game as a record in this file")->check(path_name());
  cmd->add_option("--db", o->db, "Endgame table directory for level 6")->check(path_name());
  cmd->add_flag("--json", o->json,
                "Print one JSON object (games, wins, draws, losses, points, elo)");
  cmd->add_flag("--quiet,-q", o->quiet, "No progress bar");
  set_command(
      cmd, [o] { return require_rules(o->game); },
      [o](const Rules& rules) { run_match(*o, rules); });
}

}  // namespace mancala::cli
