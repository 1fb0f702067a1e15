// The runner's side of the engine protocol (docs/engine-protocol.md): an external engine started,
// set up, asked for moves and stopped, every answer awaited with a deadline.
//
//   runner -> engine                          engine -> runner
//   uci                                       ... uciok             (within the start-up time)
//   setoption name N value V  (each option)
//   isready                                   readyok               (within the start-up time)
//   ucinewgame, isready                       readyok               (before each game)
//   position startpos|fen P [moves L1 L2 ...]
//   go movetime MS | wtime W btime B winc I binc J | nodes N
//                                             info ... (skipped), bestmove WORD
//
// Lines the runner does not wait for (`id`, `option`, `info`, anything else) are skipped; the
// last few are kept for the log of a fault.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "solver/util/expected.h"
#include "tools/match/engine_process.h"

namespace mancala::match {

struct EngineSpec {
  std::string command;                                       // run by /bin/sh -c (engine_process.h)
  std::vector<std::pair<std::string, std::string>> options;  // setoption name N value V, in order
};

// Why an engine failed to give what was asked.
enum class EngineFault {
  None,
  Crashed,        // its output closed: it exited
  Timeout,        // no answer by the deadline
  ProtocolError,  // an answer that is not the one asked for
  Cancelled,      // the match was interrupted
};

struct EngineAnswer {
  EngineFault fault = EngineFault::None;
  std::string word;     // the bestmove's word, when there is one
  std::string line;     // the line that answered, or broke the protocol
  std::string problem;  // what went wrong, for the log
  double seconds = 0;   // from the go to the answer
};

class EngineClient {
 public:
  // Starts the engine and goes through uci, the options and isready within `startup`.
  static Expected<std::unique_ptr<EngineClient>> start(const EngineSpec& spec,
                                                       std::chrono::milliseconds startup,
                                                       const std::atomic<bool>* cancel);
  ~EngineClient();

  // The name the engine gave (id name), or its command.
  const std::string& name() const { return name_; }

  // ucinewgame, then isready answered within `timeout`.
  EngineAnswer new_game(std::chrono::milliseconds timeout);
  // Sends `position` and `go` (the words after go), then waits for bestmove until `deadline`.
  EngineAnswer think(const std::string& position_command, const std::string& go_words,
                     SteadyClock::time_point deadline);
  // quit, then the process is stopped (engine_process.h) with this grace.
  void stop(std::chrono::milliseconds grace);
  // How the process ended (after stop).
  const std::string& ending() const { return process_->ending(); }
  // The last lines the engine wrote, oldest first, for a fault's log.
  std::string recent_output() const;

 private:
  EngineClient() = default;
  // Reads until a line whose first word is `word`; every line before it is kept as recent.
  EngineAnswer wait_for(const std::string& word, SteadyClock::time_point deadline,
                        SteadyClock::time_point start);

  std::unique_ptr<EngineProcess> process_;
  std::string name_;
  std::deque<std::string> recent_;
  const std::atomic<bool>* cancel_ = nullptr;
};

const char* fault_name(EngineFault fault);

}  // namespace mancala::match
