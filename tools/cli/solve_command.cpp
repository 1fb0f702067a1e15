// mancala solve GAME [--position P]: the exact value of a whole game, its best moves and a line.
#include <algorithm>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
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
#include "tools/service/solve_checkpoint.h"
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
  std::string checkpoint;  // --checkpoint DIR: empty for none
  double checkpoint_minutes = 10;
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

// --checkpoint: where the solve stands, kept by the solve's callbacks, and written with the
// solver's table every few minutes by a thread of its own (and once more at the end), so that a
// run stopped anyhow goes on from its last checkpoint. The callbacks and the writer share the
// state under a lock; the table is copied while the solver searches (service/solve_checkpoint.h).
class CheckpointKeeper {
 public:
  // `earlier`: the checkpoint this run goes on from (a fresh one when none).
  // `move_count`: the position's legal moves (--each-move).
  CheckpointKeeper(std::string directory, double minutes, const Solver& solver,
                   service::SolveCheckpoint earlier, size_t move_count)
      : directory_(std::move(directory)),
        interval_(std::chrono::duration<double>(minutes * 60)),
        solver_(solver),
        state_(std::move(earlier)),
        resumed_moves_(state_.each.done.size()),
        move_count_(move_count),
        started_(std::chrono::steady_clock::now()),
        next_began_(started_),
        writer_([this] { write_every_interval(); }) {}
  ~CheckpointKeeper() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    writer_.join();
  }
  CheckpointKeeper(const CheckpointKeeper&) = delete;
  CheckpointKeeper& operator=(const CheckpointKeeper&) = delete;

  // --each-move: a move's final bounds (those the checkpoint held are reported again first).
  void move_done(const MoveBounds& m) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (reported_++ < resumed_moves_) return;
    const auto now = std::chrono::steady_clock::now();
    state_.each.done.push_back(m);
    state_.each.seconds_before_next = earlier_seconds() + seconds_between(started_, now);
    state_.each.seconds_on_next = 0;
    state_.each.nodes_on_next = 0;
    next_began_ = now;
    next_is_resumed_ = false;
  }
  // A whole solve: its bounds after each test.
  void bounds(int lower, int upper) {
    std::lock_guard<std::mutex> lock(mutex_);
    state_.lower = lower;
    state_.upper = upper;
  }
  // Writes the checkpoint now (at the end of the solve: everything it proved). False, with the
  // error, when it could not be written.
  Expected<bool> write_now() {
    std::lock_guard<std::mutex> write(write_mutex_);
    return service::save_solve_checkpoint(directory_, snapshot(), solver_);
  }

 private:
  static double seconds_between(std::chrono::steady_clock::time_point a,
                                std::chrono::steady_clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  }
  // The seconds of the earlier runs: those the limit has already counted.
  double earlier_seconds() const { return resumed_.seconds_spent(); }
  service::SolveCheckpoint snapshot() {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    service::SolveCheckpoint c = state_;
    c.seconds = earlier_seconds() + seconds_between(started_, now);
    c.nodes = resumed_.nodes + solver_.nodes();
    if (c.each_move) {
      c.nodes = 0;
      for (const MoveBounds& m : c.each.done) c.nodes += m.nodes;
      if (c.each.done.size() < move_count_) {
        // The move being solved: its time and nodes so far (the move an earlier run was in the
        // middle of keeps what that run spent on it).
        c.each.seconds_on_next = seconds_between(next_began_, now);
        c.each.nodes_on_next = solver_.nodes();
        if (next_is_resumed_) {
          c.each.seconds_on_next += resumed_.each.seconds_on_next;
          c.each.nodes_on_next += resumed_.each.nodes_on_next;
        }
        c.nodes += c.each.nodes_on_next;
      }
    }
    return c;
  }
  void write_every_interval() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stopping_) {
      if (wake_.wait_for(lock, interval_, [this] { return stopping_; })) break;
      lock.unlock();
      if (Expected<bool> written = write_now(); !written)
        warn("checkpoint not written (the solve goes on): " + written.error());
      lock.lock();
    }
  }

  std::string directory_;
  std::chrono::duration<double> interval_;
  const Solver& solver_;
  std::mutex mutex_;        // guards what follows, and stopping_
  std::mutex write_mutex_;  // one checkpoint written at a time
  service::SolveCheckpoint state_;
  const service::SolveCheckpoint resumed_ = state_;
  size_t resumed_moves_;
  size_t move_count_;
  size_t reported_ = 0;
  bool next_is_resumed_ = true;
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point next_began_;
  bool stopping_ = false;
  std::condition_variable wake_;
  std::thread writer_;  // last: started once everything above is set
};

// --each-move: bounds on every move's value within the time given (all of it, without a limit).
// The checkpoint of a solve that ended (what it proved answers a run started again at once).
void write_final_checkpoint(CheckpointKeeper& keeper, const std::string& directory) {
  if (Expected<bool> written = keeper.write_now(); !written)
    warn("the last checkpoint was not written: " + written.error());
  else
    fmt::print(stderr, "checkpoint written to {}\n", db::shown_path(directory));
}

// With a checkpoint (`keeper`), it goes on from `resume`.
void print_each_move(const SolveCommandOptions& o, const Rules& rules, const Position& p,
                     Solver& solver, const SolveLimits& limits, int tables_max_seeds,
                     const BuiltTables* built, CheckpointKeeper* keeper,
                     const EachMoveResume& resume) {
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
    if (keeper) keeper->move_done(m);
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
  const EachMoveResult all = solver.solve_each_move(p, limits, print_row, show_progress, resume);
  if (keeper) write_final_checkpoint(*keeper, o.checkpoint);
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
  // Locked before anything long: a second solve into the directory fails at once.
  std::optional<db::WriterLock> checkpoint_lock;
  if (!o.checkpoint.empty()) {
    Expected<db::WriterLock> lock = service::lock_checkpoint_directory(o.checkpoint);
    if (!lock) throw Failure(lock.error());
    checkpoint_lock.emplace(std::move(lock).value());
  }
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
  if (tables && !built) {
    const service::SolveMemory need = service::solve_memory(*tables, solver);
    const uint64_t memory = machine_memory_bytes();
    const auto gib = [](uint64_t bytes) { return static_cast<double>(bytes) / (1ull << 30); };
    if (need.total() > memory)
      warn(fmt::format(
          "the endgame tables and the transposition table need {:.1f} GiB of memory ({:.1f} GiB "
          "of layers decoded, {:.1f} GiB of table files probed in place, {:.1f} GiB of "
          "transposition table), more than this machine's {:.1f} GiB: probes will wait on the "
          "disk and the solve may run many times slower (a smaller --table-memory, 0 for none, or "
          "--hash leaves room)",
          gib(need.total()), gib(need.decoded_tables), gib(need.table_files),
          gib(need.transposition), gib(memory)));
  }
  SolveLimits limits;
  limits.max_seconds = o.max_seconds;
  // --checkpoint: the solve goes on from the directory's checkpoint, if it holds one.
  service::SolveCheckpoint earlier;
  earlier.game = rules.name();
  earlier.position = to_string(p);
  earlier.each_move = o.each_move;
  std::unique_ptr<CheckpointKeeper> keeper;
  if (!o.checkpoint.empty()) {
    Expected<std::optional<service::SolveCheckpoint>> loaded =
        service::load_solve_checkpoint(o.checkpoint, rules, p, o.each_move, solver);
    if (!loaded) throw Failure(loaded.error());
    if (*loaded) {
      earlier = std::move(**loaded);
      std::string done;
      for (const MoveBounds& m : earlier.each.done)
        done += fmt::format("{}{}", done.empty() ? "" : " ", move_letter(p.side_to_move, m.move));
      fmt::print(stderr, "going on from the checkpoint in {}: {} spent before{}\n",
                 db::shown_path(o.checkpoint), format_duration(earlier.seconds_spent()),
                 o.each_move
                     ? fmt::format(", moves done: {}", done.empty() ? "none" : done)
                     : fmt::format(", value in [{:+}, {:+}]", earlier.lower, earlier.upper));
      if (!o.each_move && o.max_seconds > 0)
        limits.max_seconds = std::max(o.max_seconds - earlier.seconds, 1e-6);
    }
    keeper = std::make_unique<CheckpointKeeper>(o.checkpoint, o.checkpoint_minutes, solver, earlier,
                                                static_cast<size_t>(moves.size()));
  }
  if (o.each_move) {
    print_each_move(o, rules, p, solver, limits, endgame ? endgame->max_seeds() : -1, built.get(),
                    keeper.get(), earlier.each);
    return;
  }
  StatusLine status(o.quiet || o.json);
  SolveOptions options;
  if (o.guess_given) options.guess = o.guess;
  SolveResult r = solver.solve(
      p, limits,
      [&](const SolveProgress& progress) {
        if (keeper) keeper->bounds(progress.lower, progress.upper);
        status.show(fmt::format("solving: value in [{:+}, {:+}], {} nodes, {}", progress.lower,
                                progress.upper,
                                format_count(static_cast<double>(earlier.nodes + progress.nodes)),
                                format_duration(earlier.seconds + progress.seconds)));
      },
      options);
  status.finish();
  if (keeper) {
    keeper->bounds(r.lower, r.upper);
    write_final_checkpoint(*keeper, o.checkpoint);
  }
  // The earlier runs' work is the solve's too.
  r.nodes += earlier.nodes;
  r.seconds += earlier.seconds;
  r.value_seconds += earlier.seconds;
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
  CLI::Option* checkpoint =
      cmd->add_option(
             "--checkpoint", o->checkpoint,
             "Keep the solve's progress and transposition table in this directory, written "
             "every --checkpoint-minutes and at the end; started again, the solve goes on "
             "from it, --max-seconds counting every run's time (a table of --hash megabytes "
             "each time: the same --hash is needed to go on)")
          ->check(path_name());
  cmd->add_option("--checkpoint-minutes", o->checkpoint_minutes,
                  "Minutes between checkpoints (default 10)")
      ->check(number_in(0, 10000, true))
      ->needs(checkpoint);
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
