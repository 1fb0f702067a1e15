// mancala solve GAME [--position P]: the exact value of a whole game, its best moves and a line.
#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "db/file_io.h"
#include "db/table_build.h"
#include "db/table_values.h"
#include "solver/search/solve.h"
#include "solver/tables/built_tables.h"
#include "solver/util/stopwatch.h"
#include "solver/util/thread_count.h"
#include "tools/cli/commands.h"
#include "tools/command_line/command_line.h"
#include "tools/command_line/endgame_tables.h"
#include "tools/command_line/progress.h"
#include "tools/service/json_output.h"
#include "tools/service/solving.h"

namespace mancala::cli {

using namespace command_line;  // the helpers every command line shares

namespace {

struct SolveCommandOptions {
  std::string game;
  std::string position;
  std::string db;
  bool no_tables = false;
  int build_tables = -1;  // --build-tables; when not given, as many as pay
  bool build_tables_given = false;
  bool save_tables = false;
  double max_seconds = 0;
  size_t hash_megabytes = service::kSolveTranspositionMegabytes;
  bool hash_given = false;
  double table_memory_gib = 4;
  int threads = 0;
  int guess = 0;
  bool guess_given = false;
  bool json = false;
  bool quiet = false;
  bool each_move = false;
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

// What proven bounds on a move's value say, for the side that plays it.
std::string bounds_verdict(int lower, int upper) {
  if (lower == upper)
    return lower > 0   ? fmt::format("win by {}", lower)
           : lower < 0 ? fmt::format("loss by {}", -lower)
                       : "draw";
  if (lower > 0) return fmt::format("win by {} or more", lower);
  if (upper < 0) return fmt::format("loss by {} or more", -upper);
  if (lower == 0) return "draw or win";
  if (upper == 0) return "loss or draw";
  return "not proven";
}

// The JSON of the tables a solve built in memory first.
json_output::Json tables_built_json(const BuiltTables& built) {
  return {{"max_seeds", built.max_seeds()},
          {"seconds", json_output::rounded(built.build_seconds(), 3)},
          {"bytes", built.bytes()}};
}

// --each-move: bounds on every move's value within the time given (all of it, without a limit).
void print_each_move(const SolveCommandOptions& o, const Rules& rules, const Position& p,
                     Solver& solver, const SolveLimits& limits, int tables_max_seeds,
                     const BuiltTables* built) {
  StatusLine status(o.quiet || o.json);
  if (!o.json) {
    fmt::print("{} from {}: every move's value for {}{}\n", rules.name(), to_string(p),
               side_name(p.side_to_move),
               limits.max_seconds > 0 ? fmt::format(", within {:g} s", limits.max_seconds) : "");
    fmt::print("{:<5} {:>9} {:>9}  {:<22} {:>8} {:>10}\n", "move", "at least", "at most", "verdict",
               "nodes", "seconds");
  }
  json_output::Json moves = json_output::Json::array();
  const auto print_row = [&](const MoveBounds& m) {
    status.finish();
    if (o.json) return;
    fmt::print("{:<5} {:>+9} {:>+9}  {:<22} {:>8} {:>10.1f}\n", move_letter(p.side_to_move, m.move),
               m.lower, m.upper, bounds_verdict(m.lower, m.upper),
               format_count(static_cast<double>(m.nodes)), m.seconds);
    std::fflush(stdout);
  };
  const auto show_progress = [&](Move move, const SolveProgress& progress) {
    status.show(fmt::format("move {}: value in [{:+}, {:+}], {} nodes, {}",
                            move_letter(p.side_to_move, move), progress.lower, progress.upper,
                            format_count(static_cast<double>(progress.nodes)),
                            format_duration(progress.seconds)));
  };
  const EachMoveResult all = solver.solve_each_move(p, limits, print_row, show_progress);
  for (const MoveBounds& m : all.moves) {
    moves.push_back({{"move", std::string(1, move_letter(p.side_to_move, m.move))},
                     {"solved", m.solved},
                     {"lower", m.lower},
                     {"upper", m.upper},
                     {"nodes", m.nodes},
                     {"seconds", json_output::rounded(m.seconds, 3)}});
  }
  if (o.json) {
    json_output::Json out;
    out["game"] = rules.name();
    out["position"] = to_string(p);
    out["moves"] = std::move(moves);
    out["lower"] = all.lower;
    out["upper"] = all.upper;
    out["nodes"] = all.nodes;
    out["seconds"] = json_output::rounded(all.seconds, 3);
    out["tables"] = tables_max_seeds;
    if (built) out["tables_built"] = tables_built_json(*built);
    fmt::print("{}\n", json_output::dump(out));
    return;
  }
  if (all.solved)
    fmt::print("value      {:+}  (final store difference for {} with perfect play)\n", all.lower,
               side_name(p.side_to_move));
  else
    fmt::print("value      between {:+} and {:+} for {}: {}\n", all.lower, all.upper,
               side_name(p.side_to_move), bounds_verdict(all.lower, all.upper));
  fmt::print("searched   {} nodes in {:.2f} s\n", all.nodes, all.seconds);
}

void run_solve(const SolveCommandOptions& o, const RulesAndPosition& parsed) {
  const Rules& rules = parsed.rules;
  const Position& p = parsed.position;
  const MoveList moves = generate_moves(rules, p);
  if (moves.empty()) throw Failure(to_string(p) + ": the game is over");
  require_memory(static_cast<uint64_t>(o.hash_megabytes) << 20, "--hash");
  const int threads = threads_or_all_cores(o.threads);
  // The tables: those on disk; and when they stop below the layers worth building first, those
  // layers, built now (into the database directory with --save-tables, else in memory for this
  // run) because building them costs less than searching the positions they answer.
  std::unique_ptr<db::DecodedTableValues> tables;
  std::unique_ptr<BuiltTables> built;
  const auto open_disk_tables = [&] {
    const std::string instead =
        "the solver searches those positions instead (it may take much longer)";
    std::string why_not;
    bool unreadable = false;
    tables.reset();
    if (std::unique_ptr<db::TableValues> files =
            open_table_values(rules, o.db, &why_not, instead, &unreadable))
      tables = std::make_unique<db::DecodedTableValues>(
          files->shared_tables(), static_cast<uint64_t>(o.table_memory_gib * (1ull << 30)),
          warn_on_probe_failure(instead));
    else if (unreadable)
      warn("endgame tables not used: " + why_not);
  };
  if (!o.no_tables && rules.kind != GameKind::Congkak) {
    open_disk_tables();
    const int on_disk = tables ? tables->tables().max_seeds() : -1;
    const int wanted = service::seeds_to_build_before_solving(
        rules, p, on_disk,
        o.build_tables_given ? std::optional<int>(o.build_tables) : std::nullopt);
    if (wanted >= 0) {
      StatusLine building(o.quiet || o.json);
      const auto show = [&](const LayerProgress& progress) {
        building.show(fmt::format("building the {} tables up to {} seeds: layer {}",
                                  rules.table_name(), wanted, progress.seeds));
      };
      if (o.save_tables) {
        db::BuildRequest request;
        request.rules = rules;
        request.max_seeds = wanted;
        request.database_dir = service::database_directory(o.db);
        request.threads = threads;
        const Expected<bool> done = db::build_tables(request, show, {});
        building.finish();
        if (!done) throw Failure(done.error());
        if (!o.json)
          fmt::print(stderr, "built the {} tables up to {} seeds into {} (kept for later runs)\n",
                     rules.table_name(), wanted, db::shown_path(request.database_dir));
        open_disk_tables();
      } else {
        built = std::make_unique<BuiltTables>(rules, wanted, threads, show);
        building.finish();
        if (!o.json)
          fmt::print(stderr,
                     "built the {} tables up to {} seeds in memory ({:.1f} MB, {:.1f} s): {} "
                     "(--save-tables keeps them)\n",
                     rules.table_name(), wanted, static_cast<double>(built->bytes()) / 1e6,
                     built->build_seconds(),
                     on_disk < 0 ? "none on disk"
                                 : fmt::format("those on disk stop at {} seeds", on_disk));
        tables.reset();
      }
    }
  }
  const ExactValues* endgame = built ? static_cast<const ExactValues*>(built.get()) : tables.get();
  const size_t hash_megabytes = service::solve_transposition_megabytes(
      o.hash_given ? std::optional<size_t>(o.hash_megabytes) : std::nullopt, built != nullptr,
      rules, p);
  Solver solver(rules, hash_megabytes, endgame, threads);
  SolveLimits limits;
  limits.max_seconds = o.max_seconds;
  if (o.each_move) {
    print_each_move(o, rules, p, solver, limits, endgame ? endgame->max_seeds() : -1, built.get());
    return;
  }
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
  const std::string note = built    ? tables_note(built->max_seeds(), 0) + " (built in memory)"
                           : tables ? tables_note(tables->tables().max_seeds(), tables->failures())
                                    : "";
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
    out["tables"] = endgame ? endgame->max_seeds() : -1;
    if (built) out["tables_built"] = tables_built_json(*built);
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
  CLI::Option* build_tables =
      cmd->add_option("--build-tables", o->build_tables,
                      "Build the tables up to this many seeds first when those on disk stop "
                      "below it (default: as many as pay for themselves, none for small games; "
                      "-1: none)")
          ->check(integer_in(-1, kMaxTableSeeds));
  cmd->add_flag("--save-tables", o->save_tables,
                "Build them into the database directory, for later runs, instead of in memory");
  cmd->add_option("--max-seconds", o->max_seconds, "Give up after this long (default: no limit)")
      ->check(positive_seconds());
  CLI::Option* hash =
      cmd->add_option("--hash", o->hash_megabytes,
                      fmt::format("Transposition table size in megabytes (default {}; {} over "
                                  "tables it builds in memory, {} for small games; at most this "
                                  "machine's memory; its pages are taken as the search first uses "
                                  "them)",
                                  service::kSolveTranspositionMegabytes,
                                  kTranspositionMegabytesOverBuiltTables,
                                  service::kSmallSolveTranspositionMegabytes))
          ->check(memory_megabytes());
  cmd->add_option("--table-memory", o->table_memory_gib,
                  "Gibibytes of endgame tables to hold decoded in memory (default 4)")
      ->check(memory_gibibytes());
  cmd->add_option("--threads,-t", o->threads,
                  "Threads searching together (default: all cores; 1 gives the same line every "
                  "run)")
      ->check(thread_count());
  CLI::Option* each_move = cmd->add_flag(
      "--each-move", o->each_move,
      "Bounds on every move's value instead, each move given an equal share of --max-seconds "
      "(what a move leaves goes to the later ones)");
  CLI::Option* guess =
      cmd->add_option("--guess", o->guess,
                      "Start by testing whether the value is at least this (default: a short "
                      "search's score); with --max-seconds it picks the bound to prove first")
          ->check(integer_in(-10000, 10000))
          ->excludes(each_move);
  cmd->add_flag("--json", o->json, "Print one JSON object (value, best, pv, nodes, seconds)");
  cmd->add_flag("--quiet,-q", o->quiet, "No progress report");
  set_command(
      cmd,
      [o, guess, build_tables, hash] {
        o->guess_given = guess->count() > 0;
        o->hash_given = hash->count() > 0;
        o->build_tables_given = build_tables->count() > 0;
        return check_solve(*o);
      },
      [o](const RulesAndPosition& parsed) { run_solve(*o, parsed); });
}

}  // namespace mancala::cli
