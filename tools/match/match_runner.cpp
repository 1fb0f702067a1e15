#include "tools/match/match_runner.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <thread>

#include "solver/rules/position.h"
#include "solver/search/players.h"
#include "solver/util/stopwatch.h"

namespace mancala::match {

namespace {

using std::chrono::milliseconds;

// The share of a clock an in-process level spends on a move: what `mancala engine` gives itself
// from wtime/btime (docs/engine-protocol.md): the clock over 25 moves plus three quarters of the
// increment, never more than half the clock.
double clock_share(double remaining, double increment) {
  return std::max(0.0, std::min(remaining / 25 + 0.75 * increment, remaining / 2));
}

int64_t to_milliseconds(double seconds) {
  return static_cast<int64_t>(std::max(0.0, std::floor(seconds * 1000)));
}

std::string side_label(Side side, int k) {
  return std::string(side == Side::South ? "South" : "North") + (k == 0 ? " (A)" : " (B)");
}

// One side as a worker holds it: an engine process kept from game to game, or nothing for a
// level (its Player is made for each game, with the game's seed, as in-process matches always
// made them).
struct Contestant {
  const SideSpec* spec = nullptr;
  std::unique_ptr<EngineClient> engine;
  bool restart = false;  // after a fault: the engine may still think, or be gone
};

struct Shared {
  explicit Shared(const MatchPlan& match_plan) : plan(match_plan) {}
  const MatchPlan& plan;
  std::mutex mutex;
  int next_game = 0;
  bool stop = false;
  MatchReport report;
  std::vector<int> half_points;  // A's, per game; -1 until it ends
  std::vector<GameReport> finished;
  GameDone on_game;
};

class Worker {
 public:
  explicit Worker(Shared& shared) : shared_(shared), plan_(shared.plan) {
    sides_[0].spec = &plan_.a;
    sides_[1].spec = &plan_.b;
  }

  void run() {
    while (true) {
      int index;
      {
        std::lock_guard lock(shared_.mutex);
        if (shared_.stop || shared_.next_game >= plan_.games || cancelled()) return;
        index = shared_.next_game++;
      }
      std::string error;
      std::optional<GameReport> game;
      try {
        game = play(index, error);
      } catch (const std::exception& e) {
        error = e.what();  // out of memory for a search, a thread that cannot start
      }
      std::lock_guard lock(shared_.mutex);
      if (!error.empty()) {
        if (shared_.report.error.empty()) shared_.report.error = error;
        shared_.stop = true;
        return;
      }
      if (!game || game->termination == Termination::Cancelled) {
        shared_.report.cancelled = true;
        return;
      }
      record(std::move(*game));
    }
  }

  void stop_engines() {
    for (Contestant& side : sides_)
      if (side.engine) {
        side.engine->stop(plan_.grace);
        side.engine.reset();
      }
  }

 private:
  bool cancelled() const { return plan_.cancel && plan_.cancel->load(); }

  // Starts (or starts again) side k's engine; an error names it.
  bool ensure_engine(int k, std::string& error) {
    Contestant& side = sides_[k];
    if (side.engine && !side.restart) return true;
    if (side.engine) side.engine->stop(plan_.grace);
    side.engine.reset();
    side.restart = false;
    Expected<std::unique_ptr<EngineClient>> started =
        EngineClient::start(side.spec->engine, plan_.startup, plan_.cancel);
    if (!started) {
      // Interrupted while it started: no error, the match is cancelled (error stays empty).
      if (!cancelled()) error = std::string(k == 0 ? "A" : "B") + ": " + started.error();
      return false;
    }
    side.engine = std::move(started.value());
    std::lock_guard lock(shared_.mutex);
    std::string& name = k == 0 ? shared_.report.a_name : shared_.report.b_name;
    if (side.spec->name.empty()) name = side.engine->name();
    return true;
  }

  // ucinewgame answered, starting the engine again once if it is not; false with no error when
  // the match was interrupted meanwhile.
  bool new_game(int k, std::string& error) {
    for (int attempt = 0; attempt < 2; ++attempt) {
      if (!ensure_engine(k, error)) return false;
      EngineAnswer ready = sides_[k].engine->new_game(plan_.startup);
      if (ready.fault == EngineFault::None) return true;
      if (ready.fault == EngineFault::Cancelled) return true;  // the game sees it at once
      sides_[k].restart = true;
    }
    error = std::string(k == 0 ? "A" : "B") + ": engine '" + sides_[k].spec->engine.command +
            "' did not answer ucinewgame and isready, even started again";
    return false;
  }

  std::string go_words(const double remaining[2], bool a_south) const {
    const TimeControl& time = plan_.time;
    switch (time.kind) {
      case TimeControl::Kind::LevelBudget:
        if (time.nodes) return "nodes " + std::to_string(time.nodes);
        return "movetime " + std::to_string(to_milliseconds(time.seconds));
      case TimeControl::Kind::MoveTime:
        return "movetime " + std::to_string(to_milliseconds(time.seconds));
      case TimeControl::Kind::Clock: {
        const double south = remaining[a_south ? 0 : 1], north = remaining[a_south ? 1 : 0];
        const std::string increment = std::to_string(to_milliseconds(time.increment_seconds));
        return "wtime " + std::to_string(to_milliseconds(south)) + " btime " +
               std::to_string(to_milliseconds(north)) + " winc " + increment + " binc " + increment;
      }
    }
    return "";
  }

  // The time side k may take for this move, before the margin (0: none, a level's own budget).
  double allowed_seconds(int k, const double remaining[2], bool engine) const {
    const TimeControl& time = plan_.time;
    switch (time.kind) {
      case TimeControl::Kind::LevelBudget:
        if (!engine) return 0;
        return time.nodes ? time.node_timeout_seconds : time.seconds;
      case TimeControl::Kind::MoveTime:
        return time.seconds;
      case TimeControl::Kind::Clock:
        return remaining[k];
    }
    return 0;
  }

  std::optional<GameReport> play(int index, std::string& error) {
    const Rules& rules = plan_.rules;
    const MatchOpening& opening =
        plan_.openings[static_cast<size_t>(index / 2) % plan_.openings.size()];
    GameReport report(rules);
    report.index = index;
    report.a_south = index % 2 == 0;
    report.game = Game(rules, opening.start);
    for (Move m : opening.moves)
      if (!report.game.play(m)) {
        error = "an opening's moves are not legal";
        return std::nullopt;
      }
    std::unique_ptr<Player> players[2];
    for (int k = 0; k < 2; ++k) {
      const SideSpec& spec = *sides_[k].spec;
      if (spec.level) {
        players[k] = std::make_unique<Player>(
            rules, PlayerOptions{spec.level,
                                 plan_.seed * 1000003 + static_cast<uint64_t>(index) * 2 +
                                     static_cast<uint64_t>(k),
                                 plan_.time.seconds, plan_.time.nodes, plan_.tables});
      } else if (!new_game(k, error)) {
        if (!error.empty()) return std::nullopt;
        report.termination = Termination::Cancelled;
        return report;
      }
    }
    {
      std::lock_guard lock(shared_.mutex);
      const std::string a = "A: " + shared_.report.a_name, b = "B: " + shared_.report.b_name;
      report.south_name = report.a_south ? a : b;
      report.north_name = report.a_south ? b : a;
    }
    double remaining[2] = {plan_.time.base_seconds, plan_.time.base_seconds};
    Game& game = report.game;
    auto lose = [&](int k, Termination why, std::string detail) {
      const bool loser_south = (k == 0) == report.a_south;
      report.winner = loser_south ? Winner::North : Winner::South;
      report.termination = why;
      report.detail = side_label(loser_south ? Side::South : Side::North, k) + " " + detail;
    };
    while (!game.is_over()) {
      if (cancelled()) {
        report.termination = Termination::Cancelled;
        return report;
      }
      const Side mover = game.position().side_to_move;
      const int k = (mover == Side::South) == report.a_south ? 0 : 1;
      const bool engine = !players[k];
      const double allowed = allowed_seconds(k, remaining, engine);
      const double limit = allowed + plan_.time.margin_seconds;
      const SteadyClock::time_point started = SteadyClock::now();
      Move move{};
      if (!engine) {
        if (plan_.time.kind == TimeControl::Kind::LevelBudget) {
          move = players[k]->choose(game);
        } else {
          MoveLimits limits;
          // Never 0, which would mean no limit at all: an empty clock still gets a millisecond.
          limits.seconds =
              plan_.time.kind == TimeControl::Kind::Clock
                  ? std::max(clock_share(remaining[k], plan_.time.increment_seconds), 0.001)
                  : plan_.time.seconds;
          move = players[k]->choose(game, limits, nullptr);
        }
        const double spent = seconds_since(started);
        report.seconds[k] += spent;
        ++report.moves[k];
        if (plan_.time.kind != TimeControl::Kind::LevelBudget && spent > limit) {
          lose(k, Termination::Timeout,
               "moved after " + std::to_string(spent).substr(0, 5) + " s, more than its " +
                   std::to_string(allowed).substr(0, 5) + " s and the margin");
          break;
        }
      } else {
        EngineClient& client = *sides_[k].engine;
        const SteadyClock::time_point deadline =
            SteadyClock::now() +
            std::chrono::duration_cast<SteadyClock::duration>(std::chrono::duration<double>(limit));
        EngineAnswer answer =
            client.think(position_command(game), go_words(remaining, report.a_south), deadline);
        if (answer.fault == EngineFault::None && answer.word == "0000") {
          // Its own rule ended the game (see the header): the position alone, once.
          ++report.position_only_retries;
          answer = client.think("position fen " + to_string(game.position()),
                                go_words(remaining, report.a_south), deadline);
          if (answer.fault == EngineFault::None && answer.word == "0000") {
            answer.fault = EngineFault::ProtocolError;
            answer.problem = "no move (0000) where the rules give " +
                             std::to_string(game.legal_moves().size()) +
                             " legal moves, even asked with the position alone";
          }
        }
        const double spent = seconds_since(started);
        report.seconds[k] += spent;
        ++report.moves[k];
        if (answer.fault == EngineFault::Cancelled) {
          report.termination = Termination::Cancelled;
          return report;
        }
        if (answer.fault != EngineFault::None) {
          sides_[k].restart = true;
          const Termination why = answer.fault == EngineFault::Crashed ? Termination::Crash
                                  : answer.fault == EngineFault::Timeout
                                      ? Termination::Timeout
                                      : Termination::ProtocolError;
          std::string detail = why == Termination::Crash ? "crashed: " + answer.problem
                               : why == Termination::Timeout
                                   ? "did not move in time: " + answer.problem
                                   : "broke the protocol: " + answer.problem;
          if (!answer.line.empty()) detail += " (its line: '" + answer.line + "')";
          const std::string recent = client.recent_output();
          if (answer.line.empty() && !recent.empty()) detail += " (its last lines: " + recent + ")";
          lose(k, why, detail);
          break;
        }
        Expected<Move> parsed = parse_move_letter(game.position(), answer.word);
        if (!parsed || !game.play(*parsed)) {
          sides_[k].restart = true;
          std::string legal;
          for (Move m : game.legal_moves()) {
            if (!legal.empty()) legal += ' ';
            legal += move_letter(mover, m);
          }
          lose(k, Termination::IllegalMove,
               "answered '" + answer.line + "': not a legal move (legal: " + legal + ")");
          break;
        }
        if (plan_.time.kind == TimeControl::Kind::Clock) {
          remaining[k] = std::max(0.0, remaining[k] - spent) + plan_.time.increment_seconds;
        }
        continue;
      }
      game.play(move);
      if (plan_.time.kind == TimeControl::Kind::Clock)
        remaining[k] =
            std::max(0.0, remaining[k] - seconds_since(started)) + plan_.time.increment_seconds;
    }
    if (report.termination == Termination::Rules) report.winner = game.outcome().winner;
    return report;
  }

  // Counts a finished game (under the mutex) and tells the caller.
  void record(GameReport game) {
    MatchReport& report = shared_.report;
    const Side a_side = game.a_south ? Side::South : Side::North;
    report.score.add(game.winner, a_side);
    const int half = game.winner == Winner::Draw                                 ? 1
                     : (game.winner == Winner::South) == (a_side == Side::South) ? 2
                                                                                 : 0;
    shared_.half_points[static_cast<size_t>(game.index)] = half;
    const size_t partner = static_cast<size_t>(game.index ^ 1);
    if (partner < shared_.half_points.size() && shared_.half_points[partner] >= 0) {
      report.pairs.add(half + shared_.half_points[partner]);
      if (plan_.sprt && !report.stopped_by_sprt) {
        report.sprt = sprt_state(report.pairs, *plan_.sprt);
        if (report.sprt->verdict != SprtVerdict::Continue) {
          report.stopped_by_sprt = true;
          shared_.stop = true;
        }
      }
    }
    if (shared_.on_game) shared_.on_game(game, report);
    shared_.finished.push_back(std::move(game));
  }

  Shared& shared_;
  const MatchPlan& plan_;
  Contestant sides_[2];
};

}  // namespace

const char* termination_name(Termination termination) {
  switch (termination) {
    case Termination::Rules:
      return "rules";
    case Termination::IllegalMove:
      return "illegal move";
    case Termination::Crash:
      return "crash";
    case Termination::Timeout:
      return "timeout";
    case Termination::ProtocolError:
      return "protocol error";
    case Termination::Cancelled:
      return "cancelled";
  }
  return "?";
}

std::string position_command(const Game& game) {
  std::string command = game.start() == start_position(game.rules())
                            ? "position startpos"
                            : "position fen " + to_string(game.start());
  if (!game.moves().empty()) {
    command += " moves ";
    for (size_t ply = 0; ply < game.moves().size(); ++ply)
      command += move_letter(game.mover_of(ply), game.moves()[ply]);
  }
  return command;
}

MatchReport run_match(const MatchPlan& plan, const GameDone& on_game) {
  Shared shared(plan);
  shared.on_game = on_game;
  shared.half_points.assign(static_cast<size_t>(std::max(plan.games, 0)), -1);
  for (int k = 0; k < 2; ++k) {
    const SideSpec& spec = k == 0 ? plan.a : plan.b;
    std::string& name = k == 0 ? shared.report.a_name : shared.report.b_name;
    // An engine's until it says its own (id name): its command.
    name = !spec.name.empty() ? spec.name
           : spec.level       ? "mancala " + level_name(spec.level, plan.rules)
                              : spec.engine.command;
  }
  const int workers = std::clamp(plan.concurrency, 1, std::max(plan.games, 1));
  std::vector<std::unique_ptr<Worker>> pool;
  for (int i = 0; i < workers; ++i) pool.push_back(std::make_unique<Worker>(shared));
  std::vector<std::thread> threads;
  for (auto& worker : pool) threads.emplace_back([&worker] { worker->run(); });
  for (std::thread& thread : threads) thread.join();
  for (auto& worker : pool) worker->stop_engines();
  if (plan.cancel && plan.cancel->load()) shared.report.cancelled = true;
  std::sort(shared.finished.begin(), shared.finished.end(),
            [](const GameReport& x, const GameReport& y) { return x.index < y.index; });
  shared.report.games = std::move(shared.finished);
  return std::move(shared.report);
}

}  // namespace mancala::match
