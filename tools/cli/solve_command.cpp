// mancala solve GAME [--position P]: the exact value of a whole game, its best moves and a line.
#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "db/table_values.h"
#include "solver/rules/thread_count.h"
#include "solver/search/solve.h"
#include "tools/cli/commands.h"
#include "tools/command_line/cli.h"
#include "tools/command_line/endgame_tables.h"
#include "tools/command_line/progress.h"
#include "tools/service/json_output.h"

namespace mancala::cli {

namespace {

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

RulesAndPosition check_solve(const SolveCommandOptions& o) {
  RulesAndPosition parsed = require_rules_and_position(o.game, o.position);
  const Position& p = parsed.position;
  // The value lies within the seeds still to be won (and the stores' difference).
  const int bound = p.seeds_on_board() + p.store(Side::South) + p.store(Side::North);
  if (o.guess_given && (o.guess < -bound || o.guess > bound))
    throw UsageError(fmt::format("--guess: the value of this position lies in -{}..{}, not {}",
                                 bound, bound, o.guess));
  return parsed;
}

void run_solve(const SolveCommandOptions& o, const RulesAndPosition& parsed) {
  const Rules& rules = parsed.rules;
  const Position& p = parsed.position;
  const MoveList moves = generate_moves(rules, p);
  if (moves.empty()) throw Failure(to_string(p) + ": the game is over");
  require_memory(static_cast<uint64_t>(o.hash_megabytes) << 20, "--hash");
  const int threads = threads_or_all_cores(o.threads);
  std::unique_ptr<db::DecodedTableValues> tables;
  if (!o.no_tables && rules.kind != GameKind::Congkak) {
    const std::string instead =
        "the solver searches those positions instead (it may take much longer)";
    std::string why_not;
    bool unreadable = false;
    if (std::unique_ptr<db::TableValues> files =
            open_table_values(rules, o.db, &why_not, instead, &unreadable))
      tables = std::make_unique<db::DecodedTableValues>(
          files->shared_tables(), static_cast<uint64_t>(o.table_memory_gib * (1ull << 30)),
          warn_on_probe_failure(instead));
    else if (unreadable)
      warn("endgame tables not used: " + why_not);
  }
  Solver solver(rules, o.hash_megabytes, tables.get(), threads);
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
  // A failed probe was warned about when it happened; the summary counts them.
  const std::string note =
      tables ? tables_note(tables->tables().max_seeds(), tables->failures()) : "";
  if (!r.solved)
    throw Failure(fmt::format(
        "not solved within the limits: the value is between {:+} and {:+} ({} nodes, {:.1f} s)",
        r.lower, r.upper, r.nodes, r.seconds));
  if (o.json) {
    json_output::Json best = json_output::Json::array();
    for (Move m : r.best) best.push_back(std::string(1, move_letter(p.side_to_move, m)));
    json_output::Json out;
    out["game"] = rules.name();
    out["position"] = to_string(p);
    out["value"] = r.value;
    out["best"] = std::move(best);
    out["pv"] = json_output::move_letters_json(rules, p, r.pv);
    out["nodes"] = r.nodes;
    out["seconds"] = json_output::rounded(r.seconds, 3);
    out["value_seconds"] = json_output::rounded(r.value_seconds, 3);
    out["tables"] = tables ? tables->tables().max_seeds() : -1;
    fmt::print("{}\n", json_output::dump(out));
    return;
  }
  std::string best_text;
  for (Move m : r.best)
    best_text += fmt::format("{}{}", best_text.empty() ? "" : " ", move_letter(p.side_to_move, m));
  fmt::print("{} from {}\n", rules.name(), to_string(p));
  fmt::print("value      {:+}  (final store difference for {} with perfect play)\n", r.value,
             side_name(p.side_to_move));
  fmt::print("best       {}\n", best_text);
  fmt::print("line       {}\n", line_by_turns(rules, p, r.pv));
  fmt::print("searched   {} nodes in {:.2f} s (value proven in {:.2f} s){}\n", r.nodes, r.seconds,
             r.value_seconds, note);
}

}  // namespace

void add_solve_command(CLI::App& app) {
  auto o = std::make_shared<SolveCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "solve", "The exact value of a whole game (or a position) with perfect play");
  cmd->add_option("GAME", o->game, "Game and variant, e.g. kalah:4:3, oware:2")->required();
  cmd->add_option("--position,-p", o->position, "Solve this position instead of the start");
  cmd->add_option("--db", o->db,
                  "Endgame table directory (default $MANCALA_DB or ~/.local/share/mancala/db)")
      ->check(path_name());
  cmd->add_flag("--no-tables", o->no_tables, "Do not use endgame tables");
  cmd->add_option("--max-seconds", o->max_seconds, "Give up after this long (default: no limit)")
      ->check(positive_seconds());
  cmd->add_option("--hash", o->hash_megabytes,
                  "Transposition table size in megabytes (default 256; at most this machine's "
                  "memory; its pages are taken as the search first uses them)")
      ->check(memory_megabytes());
  cmd->add_option("--table-memory", o->table_memory_gib,
                  "Gibibytes of endgame tables to hold decoded in memory (default 4)")
      ->check(memory_gibibytes());
  cmd->add_option("--threads,-t", o->threads,
                  "Threads searching together (default: all cores; 1 gives the same line every "
                  "run)")
      ->check(thread_count());
  CLI::Option* guess =
      cmd->add_option("--guess", o->guess,
                      "Start by testing whether the value is at least this (default: a short "
                      "search's score); with --max-seconds it picks the bound to prove first")
          ->check(integer_in(-10000, 10000));
  cmd->add_flag("--json", o->json, "Print one JSON object (value, best, pv, nodes, seconds)");
  cmd->add_flag("--quiet,-q", o->quiet, "No progress report");
  set_command(
      cmd,
      [o, guess] {
        o->guess_given = guess->count() > 0;
        return check_solve(*o);
      },
      [o](const RulesAndPosition& parsed) { run_solve(*o, parsed); });
}

}  // namespace mancala::cli
