// A match between two players, each a computer level in this process or an external engine
// speaking the engine protocol (engine_client.h), as chess engine authors run them with fastchess
// or cutechess-cli: time controls kept by the runner, several games at once, openings each played
// with both colours, an SPRT stop, and adjudication of the faults of an engine.
//
// The rules of a game are the rule book's (solver/rules/README.md): the game ends when Game says
// it is over, Oware's third repetition included. A side loses at once when its engine
//   - answers a move that is not legal (or not a move),
//   - crashes (its output closes), or does not answer in time (timeout),
//   - breaks the protocol (a `bestmove 0000` in a position that has legal moves, see below),
// and when it does not move within its time (its time a move, or what is left on its clock) and
// the margin; a level in this process loses the same way when its move comes too late. The line
// that broke the rules goes in the game's report; the engine is restarted for its next game, and
// the match goes on.
//
// `bestmove 0000` where the rules give legal moves: an engine may keep its own repetition rule
// (Aualé's Aalina ends a game at the first repetition since a capture, where the rule book
// ends it at the third occurrence). The runner then asks again with the position alone, `position
// fen P` without the moves that led there, so that the engine sees no repetition, within what is
// left of the same move's time; a second `0000` is a protocol error, and that side loses. The game
// is always ended by the rule book.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "solver/rules/game.h"
#include "solver/search/match.h"
#include "solver/search/sprt.h"
#include "solver/tables/exact_values.h"
#include "tools/match/engine_client.h"

namespace mancala::match {

// One player of a match: a level (1-6) in this process, or an engine (level 0).
struct SideSpec {
  int level = 0;
  EngineSpec engine;
  std::string name;  // empty: the level's name, or the name the engine gives (id name)
};

struct TimeControl {
  enum class Kind {
    LevelBudget,  // levels: their own budget from `seconds` or `nodes` (players.h); engines:
                  // `go movetime seconds` or `go nodes nodes`
    MoveTime,     // both sides: `seconds` a move
    Clock,        // both sides: a clock of base_seconds, increment_seconds added after each move
  };
  Kind kind = Kind::LevelBudget;
  double seconds = 1.0;
  uint64_t nodes = 0;
  double base_seconds = 0;
  double increment_seconds = 0;
  // Over the time a side was given, before it loses on time: the cost of the pipes and of
  // starting and stopping a search, which the engine cannot see.
  double margin_seconds = 0.2;
  // With a node budget, no clock says when an engine is late: it must answer within this.
  double node_timeout_seconds = 60;
};

// Where a pair of games starts: a position and moves played from it before the players take over.
struct MatchOpening {
  Position start;
  std::vector<Move> moves;
};

struct MatchPlan {
  Rules rules;
  SideSpec a, b;
  TimeControl time;
  // Pair k (games 2k and 2k+1, A South in the first) plays openings[k % size]; at least one.
  std::vector<MatchOpening> openings;
  int games = 2;
  int concurrency = 1;                  // games at once
  uint64_t seed = 1;                    // the levels' random choices
  const ExactValues* tables = nullptr;  // for level 6; must outlive the match
  std::optional<SprtParameters> sprt;   // stop at the SPRT's verdict (checked at each full pair)
  std::chrono::milliseconds startup{10000};   // uci .. readyok, and ucinewgame .. readyok
  std::chrono::milliseconds grace{1000};      // for an engine to quit, then after SIGTERM
  const std::atomic<bool>* cancel = nullptr;  // set (e.g. at Ctrl-C): stop every game now
};

// How a game ended.
enum class Termination {
  Rules,          // the game is over by the rules (repetition included)
  IllegalMove,    // the loser answered a move that is not legal
  Crash,          // the loser's engine exited
  Timeout,        // the loser did not move in time: its time a move or its clock, and the margin
  ProtocolError,  // the loser broke the protocol
  Cancelled,      // the match was interrupted: no result
};

const char* termination_name(Termination termination);

struct GameReport {
  int index = 0;  // 0-based; games 2k and 2k+1 share opening k
  bool a_south = true;
  std::string south_name, north_name;
  Game game;
  Winner winner = Winner::Draw;  // by the rules, or the adjudication
  Termination termination = Termination::Rules;
  // Adjudicated games: what the loser did, with the line that broke the rules when there is one
  // ("South (B) answered 'bestmove z': not a legal move (legal: A C E)").
  std::string detail;
  // Engine retries after a 0000 (see above), for the log.
  int position_only_retries = 0;
  double seconds[2] = {0, 0};  // time used: [0] A, [1] B
  int moves[2] = {0, 0};       // moves chosen: [0] A, [1] B

  explicit GameReport(const Rules& rules) : game(rules) {}
};

struct MatchReport {
  std::vector<GameReport> games;  // finished games, by index
  MatchScore score;               // A's wins, draws and losses
  PairCounts pairs;               // A's points by pairs of games, complete pairs only
  std::optional<SprtState> sprt;
  bool stopped_by_sprt = false;
  bool cancelled = false;
  std::string a_name, b_name;
  std::string error;  // an engine that cannot be started (or restarted): the match stopped
};

// Called after each game, from the thread that played it, one call at a time: the game and the
// match so far (its games vector is empty; only the counts).
using GameDone = std::function<void(const GameReport&, const MatchReport&)>;

// Plays the match. Every engine process is stopped before it returns, whatever happened.
MatchReport run_match(const MatchPlan& plan, const GameDone& on_game = {});

// The position command for an engine: `position startpos` or `position fen P`, then `moves` and
// the letters run together ("moves FaEb"), as the Aualé board sends them: Aalina reads only the
// first word after `moves` (`mancala engine` reads both forms).
std::string position_command(const Game& game);

}  // namespace mancala::match
