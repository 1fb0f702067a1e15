// The engine protocol of `mancala engine`: the UCI dialect that the Aualé board speaks to Oware
// engines. A session reads commands from one stream and answers on another:
//
//   GUI -> engine                                     engine -> GUI
//   uci                                               id name / id author / option ... / uciok
//   isready                                           readyok
//   setoption name <Hash|Game|Level|UseTables|TablesPath> value <v>
//   ucinewgame
//   position startpos|fen <position string> [moves <letters>]
//   go [depth D] [nodes N] [movetime MS] [wtime MS btime MS winc MS binc MS movestogo N]
//      [infinite] [ponder]                         info depth D score cp S nodes N time MS nps X pv
//                                                     LETTERS ... then bestmove <letter> (0000
//                                                     when the game is over)
//   stop, ponderhit                                   bestmove now
//   quit
//
// Moves are house letters (A.. South, a.. North); `moves` takes them one per word or run together
// ("AbCd", as Aualé sends them), and `pv` gives them run together, as Aualé reads them. A score is
// the predicted final store difference for the side to move in hundredths of a seed (Aualé shows
// cp/100 as seeds). Malformed commands are reported as `info string ...` and ignored.
//
// Threads: the reader (the caller of run) acts on `stop` and `ponderhit` at once (every go read so
// far is told to stop and answers), on `quit` at once (every go read so far is told to stop; the
// commands before it are still answered, then the session ends), and answers `isready` at once
// while a search runs; every other command goes in order to a second thread that runs it,
// searches included. So a command that arrives during a search waits for it (a bounded search
// ends by itself; an infinite one at `stop`), and a scripted session that ends with its input
// rather than `quit` gives the same output each time. At most kMaxWaitingCommands commands wait:
// the ones read beyond are dropped, said once by an `info string` (a GUI sends a few commands a
// move; a flood while an infinite search runs would otherwise grow the engine without bound). A
// search is stopped by asking it again and again until it answers, because a search that is just
// starting clears its stop flag.
//
// Every level plays as it does at every other door: the move is the Player's (players.h), within
// the GUI's limits (MoveLimits) instead of the level's own budget.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <istream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "db/table_values.h"
#include "solver/rules/game.h"
#include "solver/search/players.h"

namespace mancala::engine {

// Commands that may wait for the executor (each line at most command_line::kMaxInputLine bytes).
inline constexpr size_t kMaxWaitingCommands = 1024;

struct EngineDefaults {
  Rules rules = Rules::oware();  // Oware abapa, the Aualé board's game
  int level = 6;
  size_t hash_megabytes = 64;
  bool use_tables = true;
  std::string tables_path;  // the database directory
};

// What a `go` asks for. Times are in milliseconds.
struct GoRequest {
  std::optional<int> depth;
  std::optional<uint64_t> nodes;
  std::optional<int64_t> movetime;
  std::optional<int64_t> time[2];       // remaining clock: [South] = wtime, [North] = btime
  std::optional<int64_t> increment[2];  // winc, binc
  std::optional<int> movestogo;
  bool infinite = false;  // search until stop (also `go ponder`)
};

// Parses the words after `go`; an error names the bad word.
Expected<GoRequest> parse_go(const std::vector<std::string>& words);

// The seconds a search may spend on a move: movetime, or a share of the mover's clock
// (remaining / moves to go, 25 when not given, plus three quarters of the increment, never more
// than half the clock), the smaller of the two when both are given; 0 when neither is.
double move_budget_seconds(const GoRequest& go, Side mover);

class EngineSession {
 public:
  // `write` receives every output line, without its newline, one call at a time.
  EngineSession(const EngineDefaults& defaults, std::function<void(const std::string&)> write);
  ~EngineSession();

  // Reads and answers commands until `quit` or the end of input (which lets a bounded search
  // finish and stops an infinite one).
  void run(std::istream& in);

 private:
  // Reader side.
  void request_stop();
  // Executor side: one command, in order.
  void executor_loop();
  void execute(const std::string& line);
  void command_uci();
  void command_setoption(const std::vector<std::string>& words);
  void command_position(const std::vector<std::string>& words);
  void command_go(const std::vector<std::string>& words, uint64_t go_id);
  void command_newgame();
  // Levels 3-6: the player's search (and Pro's tables and solver) within the go's limits,
  // reporting each completed depth; the move to play.
  Move think_with_search(const GoRequest& go, const Position& p, uint64_t go_id);
  // An info line: depth, score (cp: hundredths of a seed), nodes, time, nps and the pv's letters.
  void report_line(int depth, int score, uint64_t nodes, double seconds, const std::string& pv);
  // Whether go number `go_id` has been told to stop (by stop, ponderhit, quit or, for an
  // infinite search, the end of input). Called with mutex_ held.
  bool stopped(uint64_t go_id, bool infinite) const;
  void prepare_player();
  void say(const std::string& line);
  // An `info string` line; a GUI reads line by line, so only the message's first line.
  void report(const std::string& message) {
    say("info string " + message.substr(0, message.find('\n')));
  }

  EngineDefaults defaults_;
  std::function<void(const std::string&)> write_;
  std::mutex write_mutex_;

  // The executor's state: touched by the executor thread only.
  EngineDefaults settings_;
  std::unique_ptr<Game> game_;
  std::unique_ptr<db::TableValues> tables_;
  bool tables_opened_ = false;
  // Why the last TablesPath set could not be used (empty: it could): no tables then, rather than
  // those of the path before it.
  std::string tables_path_refused_;
  std::unique_ptr<Player> player_;
  bool player_stale_ = true;  // settings changed: make the player again

  // Shared between the reader and the executor, under mutex_.
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::pair<std::string, uint64_t>> queue_;  // command lines, with their go number
  uint64_t last_go_ = 0;          // go commands read so far (go number n is the n-th)
  uint64_t stopped_through_ = 0;  // every go up to this one is told to stop
  uint64_t finished_go_ = 0;      // every go up to this one has answered
  bool input_closed_ = false;
  bool dropping_ = false;  // commands are being dropped (the queue is full), said once
  bool quitting_ = false;
  bool searching_ = false;  // go number current_go_ runs, from its start to its bestmove
  uint64_t current_go_ = 0;
  bool current_infinite_ = false;
  Player* running_player_ = nullptr;  // the player of go number current_go_, while it thinks
};

}  // namespace mancala::engine
