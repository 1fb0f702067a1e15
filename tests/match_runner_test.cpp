// The match runner against engines in child processes: `mancala engine` itself, and scripted
// engines (tests/match/fake_engine.py, `mancala engine` behind a proxy that misbehaves on purpose
// at a chosen `go`): an illegal move, a crash, an engine that never answers, one that answers
// late, and Aalina's `bestmove 0000` at its own repetition rule. Each fault loses that game for
// the engine, the match goes on, and no process is left behind.
#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "solver/rules/record.h"
#include "solver/search/sprt.h"
#include "tools/match/engine_process.h"
#include "tools/match/match_runner.h"

namespace mancala::match {
namespace {

const std::string kBinary = MANCALA_BINARY;
const std::string kFakeEngine = MANCALA_FAKE_ENGINE;

// A directory where the fake engines write the pids of every process they start.
class PidDirectory {
 public:
  PidDirectory() {
    char pattern[] = "/tmp/mancala-match-test-XXXXXX";
    path_ = ::mkdtemp(pattern);
  }
  ~PidDirectory() { std::filesystem::remove_all(path_); }
  const std::string& path() const { return path_; }

  std::vector<pid_t> pids() const {
    std::vector<pid_t> out;
    for (const auto& entry : std::filesystem::directory_iterator(path_))
      out.push_back(static_cast<pid_t>(std::stol(entry.path().filename().string())));
    return out;
  }
  // Whether every process written down is gone (reaped, or not a child of ours: gone for kill).
  // A process of the fake's own (the engine behind it) may take a moment to see its input close.
  bool all_gone() const {
    for (int attempt = 0; attempt < 200; ++attempt) {
      bool alive = false;
      for (pid_t pid : pids()) {
        if (::kill(pid, 0) == 0) {
          // A zombie whose parent is gone is reaped by init soon; one of ours would be a bug.
          alive = true;
        }
      }
      if (!alive) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }

 private:
  std::string path_;
};

std::string fake(const std::string& mode, int nth, const PidDirectory& pids) {
  return "python3 " + kFakeEngine + " " + kBinary + " " + mode + " " + std::to_string(nth) + " " +
         pids.path();
}

// A match of a few short games: engine A (the fake) against level 1 (random, instant).
MatchPlan short_plan(const std::string& a_command, int games) {
  MatchPlan plan;
  plan.rules = Rules::oware(4);
  plan.a.engine.command = a_command;
  // 2 plies: instant and deterministic; no tables to open and a small hash table to make at
  // isready (64 MB take 0.4 s).
  plan.a.engine.options = {{"Level", "3"}, {"UseTables", "false"}, {"Hash", "1"}};
  plan.b.level = 1;
  plan.time.kind = TimeControl::Kind::MoveTime;
  plan.time.seconds = 0.2;
  plan.time.margin_seconds = 2.0;  // generous: a loaded machine must not lose on time
  plan.openings = {{start_position(plan.rules), {}}};
  plan.games = games;
  plan.grace = std::chrono::milliseconds(300);
  return plan;
}

TEST(MatchRunner, IllegalMoveLosesTheGameAndTheMatchGoesOn) {
  PidDirectory pids;
  // The engine's third move is the opponent's house: game 1 is lost at move 3 (or 4), game 2 too
  // (every go from the third on is illegal), and the runner restarts the engine between them.
  const MatchReport report = run_match(short_plan(fake("illegal", 3, pids), 2));
  ASSERT_TRUE(report.error.empty()) << report.error;
  ASSERT_EQ(report.games.size(), 2u);
  for (const GameReport& game : report.games) {
    EXPECT_EQ(game.termination, Termination::IllegalMove) << game.detail;
    EXPECT_NE(game.detail.find("not a legal move"), std::string::npos) << game.detail;
    EXPECT_NE(game.detail.find("bestmove "), std::string::npos) << game.detail;
    EXPECT_EQ(game.winner, game.a_south ? Winner::North : Winner::South);
  }
  EXPECT_EQ(report.score.losses, 2);
  EXPECT_TRUE(pids.all_gone());
}

TEST(MatchRunner, CrashLosesTheGameAndTheEngineIsStartedAgain) {
  PidDirectory pids;
  const MatchReport report = run_match(short_plan(fake("crash", 2, pids), 2));
  ASSERT_TRUE(report.error.empty()) << report.error;
  ASSERT_EQ(report.games.size(), 2u);
  for (const GameReport& game : report.games) {
    EXPECT_EQ(game.termination, Termination::Crash) << game.detail;
    EXPECT_EQ(game.winner, game.a_south ? Winner::North : Winner::South);
  }
  // Started again after the first crash: a second fake wrote its pid.
  EXPECT_GE(pids.pids().size(), 4u);
  EXPECT_TRUE(pids.all_gone());
}

TEST(MatchRunner, EngineThatNeverAnswersLosesOnTimeAndIsKilled) {
  PidDirectory pids;
  MatchPlan plan = short_plan(fake("hang", 1, pids), 1);
  plan.time.seconds = 0.1;
  plan.time.margin_seconds = 0.3;
  const auto start = std::chrono::steady_clock::now();
  const MatchReport report = run_match(plan);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(report.error.empty()) << report.error;
  ASSERT_EQ(report.games.size(), 1u);
  EXPECT_EQ(report.games[0].termination, Termination::Timeout) << report.games[0].detail;
  EXPECT_EQ(report.score.losses, 1);
  // It ignores quit and SIGTERM: only SIGKILL, after two graces, ends it.
  EXPECT_LT(seconds, 20);
  EXPECT_TRUE(pids.all_gone());
}

TEST(MatchRunner, LateAnswerLosesOnTime) {
  PidDirectory pids;
  MatchPlan plan = short_plan(fake("late", 2, pids), 2);
  plan.time.seconds = 0.05;
  plan.time.margin_seconds = 0.5;  // the fake answers a second after its movetime
  const MatchReport report = run_match(plan);
  ASSERT_TRUE(report.error.empty()) << report.error;
  ASSERT_EQ(report.games.size(), 2u);
  for (const GameReport& game : report.games) {
    EXPECT_EQ(game.termination, Termination::Timeout) << game.detail;
    EXPECT_NE(game.detail.find("did not move in time"), std::string::npos) << game.detail;
  }
  EXPECT_TRUE(pids.all_gone());
}

TEST(MatchRunner, BestmoveNoneIsAskedAgainWithThePositionAlone) {
  PidDirectory pids;
  // From its fourth go on the fake answers 0000 whenever it is given moves; with the position
  // alone it plays: the game goes on to its end by the rules.
  const MatchReport report = run_match(short_plan(fake("zero", 4, pids), 2));
  ASSERT_TRUE(report.error.empty()) << report.error;
  ASSERT_EQ(report.games.size(), 2u);
  for (const GameReport& game : report.games) {
    EXPECT_EQ(game.termination, Termination::Rules) << game.detail;
    EXPECT_TRUE(game.game.is_over());
    EXPECT_GT(game.position_only_retries, 0);
  }
  EXPECT_TRUE(pids.all_gone());
}

TEST(MatchRunner, EngineThatCannotStartIsAnErrorNotAGame) {
  MatchPlan plan = short_plan("exec /nonexistent/engine", 2);
  plan.startup = std::chrono::milliseconds(2000);
  const MatchReport report = run_match(plan);
  EXPECT_FALSE(report.error.empty());
  EXPECT_TRUE(report.games.empty());
}

TEST(MatchRunner, MancalaEngineAgainstMancalaEngineWithBothColoursAndRecords) {
  MatchPlan plan;
  plan.rules = Rules::oware(4);
  plan.a.engine = {kBinary + " engine", {{"Level", "5"}, {"UseTables", "false"}, {"Hash", "4"}}};
  plan.b.engine = {kBinary + " engine", {{"Level", "4"}, {"UseTables", "false"}, {"Hash", "4"}}};
  plan.time.nodes = 2000;  // a node budget: the same games on any machine
  Game opening(plan.rules);
  opening.play(*parse_move_letter(opening.position(), "C"));
  plan.openings = {{start_position(plan.rules), {}}, {start_position(plan.rules), opening.moves()}};
  plan.games = 4;
  plan.concurrency = 2;
  int told = 0;
  const MatchReport report = run_match(plan, [&](const GameReport&, const MatchReport& so_far) {
    ++told;
    EXPECT_EQ(so_far.score.games(), told);
  });
  ASSERT_TRUE(report.error.empty()) << report.error;
  ASSERT_EQ(report.games.size(), 4u);
  EXPECT_EQ(told, 4);
  EXPECT_EQ(report.a_name, "mancala");
  for (const GameReport& game : report.games) {
    EXPECT_EQ(game.termination, Termination::Rules) << game.detail;
    EXPECT_TRUE(game.game.is_over());
    EXPECT_EQ(game.a_south, game.index % 2 == 0);
    // Each pair starts from its opening.
    if (game.index >= 2) {
      ASSERT_FALSE(game.game.moves().empty());
      EXPECT_EQ(game.game.moves()[0], opening.moves()[0]);
    }
    // Written as an .ogn record and read back: the same game.
    RecordStyle ogn;
    ogn.ogn = true;
    Expected<std::string> text = write_record(game.game, {{"South", game.south_name}}, ogn);
    ASSERT_TRUE(text.ok()) << text.error();
    Expected<GameRecord> back = read_record(*text);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->game.moves(), game.game.moves());
    EXPECT_EQ(result_token(back->game), result_token(game.game));
  }
  EXPECT_EQ(report.pairs.pairs(), 2);
  // The same node budget, the same games: a colour-swapped pair of deterministic engines.
  const MatchReport again = run_match(plan);
  ASSERT_EQ(again.games.size(), 4u);
  for (size_t i = 0; i < 4; ++i)
    EXPECT_EQ(again.games[i].game.moves(), report.games[i].game.moves());
}

TEST(MatchRunner, ClockIsKeptAndSentAsWtimeBtime) {
  MatchPlan plan;
  plan.rules = Rules::oware(4);
  plan.a.engine = {kBinary + " engine", {{"Level", "5"}, {"UseTables", "false"}, {"Hash", "4"}}};
  plan.b.level = 2;
  plan.time.kind = TimeControl::Kind::Clock;
  plan.time.base_seconds = 2;
  plan.time.increment_seconds = 0.02;
  plan.time.margin_seconds = 1.0;
  plan.openings = {{start_position(plan.rules), {}}};
  plan.games = 1;
  const MatchReport report = run_match(plan);
  ASSERT_TRUE(report.error.empty()) << report.error;
  ASSERT_EQ(report.games.size(), 1u);
  EXPECT_EQ(report.games[0].termination, Termination::Rules) << report.games[0].detail;
  // The engine took its share of a 2 s clock: far less than the clock, more than nothing.
  EXPECT_LT(report.games[0].seconds[0], 2.0 + 0.02 * report.games[0].moves[0] + 1.0);
}

TEST(MatchRunner, CancelStopsEveryEngine) {
  PidDirectory pids;
  MatchPlan plan = short_plan(fake("hang", 1, pids), 4);
  plan.time.seconds = 100;  // it would wait that long without the cancel
  std::atomic<bool> cancel{false};
  plan.cancel = &cancel;
  std::thread interrupter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    cancel = true;
  });
  const MatchReport report = run_match(plan);
  interrupter.join();
  EXPECT_TRUE(report.cancelled);
  EXPECT_TRUE(report.games.empty());
  EXPECT_TRUE(pids.all_gone());
}

TEST(EngineProcess, StopKillsAProcessGroupThatIgnoresQuitAndTerm) {
  // A shell that starts a child and ignores SIGTERM itself: the whole group goes.
  Expected<std::unique_ptr<EngineProcess>> process =
      EngineProcess::start("trap '' TERM; sleep 30 & echo $!; wait");
  ASSERT_TRUE(process.ok()) << process.error();
  std::string line;
  ASSERT_EQ((*process)->read_line(line, SteadyClock::now() + std::chrono::seconds(5)),
            EngineProcess::Read::Line);
  const pid_t sleeper = static_cast<pid_t>(std::stol(line));
  (*process)->stop(std::chrono::milliseconds(100));
  EXPECT_NE((*process)->ending().find("signal 9"), std::string::npos) << (*process)->ending();
  // The sleep was in the group: killed too (it is not our child, so once init reaps it).
  bool gone = false;
  for (int i = 0; i < 200 && !gone; ++i) {
    gone = ::kill(sleeper, 0) != 0;
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(gone);
}

TEST(Sprt, LlrOfThePentanomialGsprt) {
  // Pentanomial counts [LL, LD, DD+WL, WD, WW]; H0: 0 Elo, H1: 5 Elo, alpha = beta = 0.05. The
  // figures were computed apart, in Python, from the same definition (fishtest's LLR_logistic:
  // the MLE of the five probabilities under each mean score, bisection on the secular equation).
  const SprtParameters parameters{0, 5, 0.05, 0.05};
  EXPECT_NEAR(parameters.lower_bound(), -2.944, 0.001);
  EXPECT_NEAR(parameters.upper_bound(), 2.944, 0.001);
  PairCounts even;
  even.counts = {10, 20, 40, 20, 10};
  EXPECT_NEAR(sprt_llr(even, parameters), -0.0345, 0.0005);
  EXPECT_EQ(sprt_state(even, parameters).verdict, SprtVerdict::Continue);
  PairCounts strong;
  strong.counts = {5, 20, 100, 60, 40};
  EXPECT_NEAR(sprt_llr(strong, parameters), 2.5827, 0.0005);
  EXPECT_EQ(sprt_state(strong, parameters).verdict, SprtVerdict::Continue);
  // The same results twice over: twice the evidence, past the upper bound.
  strong.counts = {10, 40, 200, 120, 80};
  EXPECT_NEAR(sprt_llr(strong, parameters), 2 * 2.5827, 0.001);
  EXPECT_EQ(sprt_state(strong, parameters).verdict, SprtVerdict::AcceptH1);
  PairCounts weak;
  weak.counts = {80, 120, 200, 40, 10};
  EXPECT_NEAR(sprt_llr(weak, parameters), 2 * -2.6733, 0.001);
  EXPECT_EQ(sprt_state(weak, parameters).verdict, SprtVerdict::AcceptH0);
  // Counts of zero are taken as 0.001, as fishtest does: a sweep still has an LLR.
  PairCounts sweep;
  sweep.counts = {0, 0, 0, 0, 7};
  EXPECT_NEAR(sprt_llr(sweep, parameters), 0.09998, 0.0005);
  PairCounts none;
  EXPECT_EQ(sprt_llr(none, parameters), 0);
}

TEST(Sprt, PairEloIsCentredWithAnInterval) {
  PairCounts counts;
  counts.counts = {10, 20, 40, 20, 10};
  const PairEloEstimate elo = pair_elo(counts);
  EXPECT_NEAR(elo.difference, 0, 1e-9);
  EXPECT_LT(elo.low, 0);
  EXPECT_GT(elo.high, 0);
  EXPECT_NEAR(elo.high, -elo.low, 1e-6);
}

}  // namespace
}  // namespace mancala::match
