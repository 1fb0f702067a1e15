// mancala analyse GAME POSITION [--depth D | --time T]; mancala solve GAME [--position P]
#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "solver/players.h"
#include "solver/search.h"
#include "solver/solve.h"
#include "tools/cli.h"
#include "tools/engine_setup.h"
#include "tools/progress.h"

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
    const Outcome end = final_outcome(rules, child);
    result.score = mover == Side::South ? end.difference() : -end.difference();
    return result;
  }
  const SearchResult r = search.run(child, limits);
  result.score = child.side_to_move == mover ? r.score : -r.score;
  result.exact = r.proven;
  result.line.insert(result.line.end(), r.pv.begin(), r.pv.end());
  return result;
}

std::string move_list_json(const Position& p, const std::vector<MoveScore>& moves) {
  std::string out;
  for (const MoveScore& m : moves)
    out +=
        fmt::format("{}{{\"move\": \"{}\", \"score\": {}, \"exact\": {}}}", out.empty() ? "" : ", ",
                    move_letter(p.side_to_move, m.move), m.score, m.exact);
  return out;
}

// ------------------------------------------------------------------ analyse

struct AnalyseOptions {
  std::string game;
  std::string position;
  int depth = 0;
  double seconds = 0;
  std::string db;
  bool no_tables = false;
  bool json = false;
};

void run_analyse(const AnalyseOptions& o) {
  const Rules rules = require_rules(o.game);
  const Position p = require_position(rules, o.position);
  if (o.depth < 0 || o.seconds < 0) throw UsageError("--depth and --time must be positive");
  const MoveList moves = generate_moves(rules, p);
  if (moves.empty()) throw Failure(to_string(p) + ": the game is over");
  std::unique_ptr<db::TableValues> tables;
  if (!o.no_tables && rules.kind != GameKind::Congkak)
    tables = open_table_values(rules, o.db, nullptr);
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
    std::string best_list;
    for (const MoveScore& m : scores)
      if (m.score == best.score)
        best_list += fmt::format("{}\"{}\"", best_list.empty() ? "" : ", ",
                                 move_letter(p.side_to_move, m.move));
    std::string line;
    for (Move m : best.line) line += fmt::format("{}\"{}\"", line.empty() ? "" : ", ", m);
    fmt::print(
        "{{\"game\": {}, \"position\": {}, \"score\": {}, \"exact\": {}, \"moves\": [{}], "
        "\"best\": [{}], "
        "\"line\": {}}}\n",
        json_string(rules.name()), json_string(to_string(p)), best.score, best.exact,
        move_list_json(p, scores), best_list, json_string(format_line(rules, p, best.line)));
    return;
  }
  fmt::print(
      "position {} ({} to move){}\n", to_string(p), side_name(p.side_to_move),
      tables ? fmt::format(", endgame tables up to {} seeds", tables->tables().max_seeds()) : "");
  fmt::print("move  score  (predicted final store difference for {})\n", side_name(p.side_to_move));
  for (const MoveScore& m : scores)
    fmt::print("  {}  {:+4}{}{}\n", move_letter(p.side_to_move, m.move), m.score,
               m.exact ? "  exact" : "", m.score == best.score ? "  best" : "");
  fmt::print("best line: {}\n", format_line(rules, p, best.line));
}

// ------------------------------------------------------------------ solve

struct SolveCommandOptions {
  std::string game;
  std::string position;
  std::string db;
  bool no_tables = false;
  double max_seconds = 0;
  size_t hash_megabytes = 256;
  double table_memory_gib = 4;
  int threads = 0;
  int guess = 0;
  bool guess_given = false;
  bool json = false;
  bool quiet = false;
};

std::string move_letters_json(const Position& from, const Rules& rules,
                              const std::vector<Move>& line) {
  std::string out;
  Position q = from;
  for (Move m : line) {
    out += fmt::format("{}\"{}\"", out.empty() ? "" : ", ", move_letter(q.side_to_move, m));
    q = apply_move(rules, q, m);
  }
  return out;
}

void run_solve(const SolveCommandOptions& o) {
  const Rules rules = require_rules(o.game);
  const Position p = require_position(rules, o.position);
  const MoveList moves = generate_moves(rules, p);
  if (moves.empty()) throw Failure(to_string(p) + ": the game is over");
  if (o.max_seconds < 0) throw UsageError("--max-seconds must be positive");
  if (o.hash_megabytes < 1) throw UsageError("--hash must be at least 1 (megabytes)");
  if (o.table_memory_gib < 0) throw UsageError("--table-memory must be at least 0 (GiB)");
  if (o.threads < 0) throw UsageError("--threads must be at least 1");
  const int threads =
      o.threads > 0 ? o.threads : static_cast<int>(std::thread::hardware_concurrency());
  std::unique_ptr<db::DecodedTableValues> tables;
  if (!o.no_tables && rules.kind != GameKind::Congkak)
    if (std::unique_ptr<db::TableValues> files = open_table_values(rules, o.db, nullptr))
      tables = std::make_unique<db::DecodedTableValues>(
          files->shared_tables(), static_cast<uint64_t>(o.table_memory_gib * (1ull << 30)));
  Solver solver(rules, o.hash_megabytes, tables.get(), std::max(threads, 1));
  SolveLimits limits;
  limits.max_seconds = o.max_seconds;
  StatusLine status(o.quiet || o.json);
  SolveOptions options;
  if (o.guess_given) options.guess = o.guess;
  const SolveResult r = solver.solve(
      p, limits,
      [&](const SolveProgress& progress) {
        status.show(fmt::format("solving: value in [{:+}, {:+}], {} nodes, {}", progress.lower,
                                progress.upper, format_count(static_cast<double>(progress.nodes)),
                                format_duration(progress.seconds)));
      },
      options);
  status.finish();
  const std::string tables_note =
      tables ? fmt::format(", endgame tables up to {} seeds", tables->tables().max_seeds()) : "";
  if (tables && tables->failures())
    fmt::print(stderr, "warning: {} table probes failed; the first: {}\n", tables->failures(),
               tables->first_failure());
  if (!r.solved)
    throw Failure(fmt::format(
        "not solved within the limits: the value is between {:+} and {:+} ({} nodes, {:.1f} s)",
        r.lower, r.upper, r.nodes, r.seconds));
  if (o.json) {
    std::string best_json;
    for (Move m : r.best)
      best_json +=
          fmt::format("{}\"{}\"", best_json.empty() ? "" : ", ", move_letter(p.side_to_move, m));
    fmt::print(
        "{{\"game\": {}, \"position\": {}, \"value\": {}, \"best\": [{}], \"pv\": [{}], "
        "\"nodes\": {}, \"seconds\": {:.3f}, \"value_seconds\": {:.3f}, \"tables\": {}}}\n",
        json_string(rules.name()), json_string(to_string(p)), r.value, best_json,
        move_letters_json(p, rules, r.pv), r.nodes, r.seconds, r.value_seconds,
        tables ? tables->tables().max_seeds() : -1);
    return;
  }
  std::string best_text;
  for (Move m : r.best)
    best_text += fmt::format("{}{}", best_text.empty() ? "" : " ", move_letter(p.side_to_move, m));
  fmt::print("{} from {}\n", rules.name(), to_string(p));
  fmt::print("value      {:+}  (final store difference for {} with perfect play)\n", r.value,
             side_name(p.side_to_move));
  fmt::print("best       {}\n", best_text);
  fmt::print("line       {}\n", format_line(rules, p, r.pv));
  fmt::print("searched   {} nodes in {:.2f} s (value proven in {:.2f} s){}\n", r.nodes, r.seconds,
             r.value_seconds, tables_note);
}

}  // namespace

void add_analyse_command(CLI::App& app) {
  auto o = std::make_shared<AnalyseOptions>();
  CLI::App* cmd = app.add_subcommand("analyse", "The score of every legal move and the best line");
  cmd->add_option("GAME", o->game, "Game and variant, e.g. kalah, oware")->required();
  cmd->add_option("POSITION", o->position, "Position string")->required();
  auto* depth = cmd->add_option("--depth,-d", o->depth, "Search each move to this depth");
  cmd->add_option("--time", o->seconds, "Seconds for the whole analysis (default 2)")
      ->excludes(depth);
  cmd->add_option("--db", o->db,
                  "Endgame table directory (default $MANCALA_DB or ~/.local/share/mancala/db)");
  cmd->add_flag("--no-tables", o->no_tables, "Do not use endgame tables");
  cmd->add_flag("--json", o->json, "Print one JSON object");
  cmd->callback([o] { run_analyse(*o); });
}

void add_solve_command(CLI::App& app) {
  auto o = std::make_shared<SolveCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "solve", "The exact value of a whole game (or a position) with perfect play");
  cmd->add_option("GAME", o->game, "Game and variant, e.g. kalah:4:3, oware:2")->required();
  cmd->add_option("--position,-p", o->position, "Solve this position instead of the start");
  cmd->add_option("--db", o->db,
                  "Endgame table directory (default $MANCALA_DB or ~/.local/share/mancala/db)");
  cmd->add_flag("--no-tables", o->no_tables, "Do not use endgame tables");
  cmd->add_option("--max-seconds", o->max_seconds, "Give up after this long (default: no limit)");
  cmd->add_option("--hash", o->hash_megabytes,
                  "Transposition table size in megabytes (default 256)");
  cmd->add_option("--table-memory", o->table_memory_gib,
                  "Gibibytes of endgame tables to hold decoded in memory (default 4)");
  cmd->add_option("--threads,-t", o->threads,
                  "Threads searching together (default: all cores; 1 gives the same line every "
                  "run)");
  CLI::Option* guess =
      cmd->add_option("--guess", o->guess,
                      "Start by testing whether the value is at least this (default: a short "
                      "search's score); with --max-seconds it picks the bound to prove first");
  cmd->add_flag("--json", o->json, "Print one JSON object (value, best, pv, nodes, seconds)");
  cmd->add_flag("--quiet,-q", o->quiet, "No progress report");
  cmd->callback([o, guess] {
    o->guess_given = guess->count() > 0;
    run_solve(*o);
  });
}

}  // namespace mancala::cli
