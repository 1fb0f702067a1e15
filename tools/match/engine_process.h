// An engine as a child process: its command run by /bin/sh -c, talked to through two pipes, one
// line at a time. The runner starts and stops every engine; none is left behind.
//
// The command string is given to /bin/sh -c as it is: an engine is often started by a script
// or with arguments, quotes and environment settings (`cd dir && java ...`), and the shell's
// rules are the ones every user knows. The shell and whatever it starts run in a process group
// of their own, so that a terminal's Ctrl-C reaches the runner only (which then stops its
// engines itself), and so that stopping an engine reaches every process the command started,
// not only the shell. Standard error goes to /dev/null: an engine's log must not mix with the
// runner's output.
//
// Stopping (stop(), and the destructor): `quit`, end of input, then up to `grace` for the
// engine to exit; then SIGTERM to its process group and `grace` again; then SIGKILL. Whatever
// is left of the group once its leader has exited is killed too, before the leader is reaped
// (so that its group id cannot have been given to another process).
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include "solver/util/expected.h"

namespace mancala::match {

using SteadyClock = std::chrono::steady_clock;

class EngineProcess {
 public:
  // Starts `command`; an error when it cannot be (no shell, no pipes). A command that names a
  // program that does not exist starts: the shell then exits, which the first read sees.
  static Expected<std::unique_ptr<EngineProcess>> start(const std::string& command);
  ~EngineProcess();
  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;

  // Writes one line (a newline is added); false when the engine no longer reads (it exited).
  bool send(const std::string& line);

  enum class Read { Line, Timeout, Closed, Cancelled };
  // The next line of the engine's output, without its line end (a CR before it is dropped).
  // Timeout at `deadline`; Closed at the end of output (the engine exited or closed it);
  // Cancelled as soon as *cancel is true (checked every 20 ms). A line longer than 64 KiB is cut
  // there: an engine cannot use up the runner's memory.
  Read read_line(std::string& line, SteadyClock::time_point deadline,
                 const std::atomic<bool>* cancel = nullptr);

  // Stops the engine as described above; waits at most about 2 * grace + a little.
  void stop(std::chrono::milliseconds grace);
  // After stop(): how it ended ("exited with status 0", "killed by signal 9").
  const std::string& ending() const { return ending_; }
  pid_t pid() const { return pid_; }

 private:
  EngineProcess() = default;
  // Waits until the leader has exited (not reaping it) or `until`; true when it has.
  bool wait_exit(SteadyClock::time_point until);
  void reap();

  pid_t pid_ = -1;
  int to_engine_ = -1;
  int from_engine_ = -1;
  std::string buffer_;  // read, not yet returned
  bool reaped_ = false;
  std::string ending_;
};

}  // namespace mancala::match
