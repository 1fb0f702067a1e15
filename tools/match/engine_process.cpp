#include "tools/match/engine_process.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

extern char** environ;

namespace mancala::match {

namespace {

constexpr size_t kMaxLineBytes = 64 * 1024;
constexpr std::chrono::milliseconds kCancelCheck{20};

std::string system_error(const std::string& what, int error) {
  return what + ": " + std::strerror(error);
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

Expected<std::unique_ptr<EngineProcess>> EngineProcess::start(const std::string& command) {
  int in_pipe[2], out_pipe[2];
  // Close-on-exec: another engine started at the same time by another thread must not inherit
  // them (it would keep this engine's input open after the runner closed it). dup2 clears the
  // flag on the child's own copies.
  if (::pipe2(in_pipe, O_CLOEXEC) != 0) return Error{system_error("pipe", errno)};
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    const int error = errno;
    ::close(in_pipe[0]);
    ::close(in_pipe[1]);
    return Error{system_error("pipe", error)};
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  // A group of its own (see the header); default signal handling and an empty mask, whatever the
  // runner ignores or blocks (SIGPIPE, SIGINT), since ignored signals survive exec.
  sigset_t defaults, empty;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  sigemptyset(&empty);
  posix_spawnattr_setflags(&attributes,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setsigmask(&attributes, &empty);
  std::string shell = "/bin/sh", dash_c = "-c", text = command;
  char* argv[] = {shell.data(), dash_c.data(), text.data(), nullptr};
  pid_t pid = -1;
  const int spawned = ::posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  if (spawned != 0) {
    ::close(in_pipe[1]);
    ::close(out_pipe[0]);
    return Error{system_error("cannot start /bin/sh", spawned)};
  }
  std::unique_ptr<EngineProcess> process(new EngineProcess());
  process->pid_ = pid;
  process->to_engine_ = in_pipe[1];
  process->from_engine_ = out_pipe[0];
  return process;
}

EngineProcess::~EngineProcess() {
  stop(std::chrono::milliseconds(1000));
}

bool EngineProcess::send(const std::string& line) {
  if (to_engine_ < 0) return false;
  const std::string text = line + "\n";
  // A pipe whose reader has gone raises SIGPIPE, which would end the whole process: it is blocked
  // on this thread for the write (which then fails with EPIPE), and a SIGPIPE it left pending is
  // taken back, so that the process's own handling of SIGPIPE is not changed.
  sigset_t pipe_signal, old_mask;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &old_mask);
  size_t written = 0;
  bool ok = true;
  while (written < text.size()) {
    const ssize_t n = ::write(to_engine_, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EPIPE) {
        const timespec no_wait{0, 0};
        while (sigtimedwait(&pipe_signal, nullptr, &no_wait) == SIGPIPE) {
        }
      }
      close_fd(to_engine_);
      ok = false;
      break;
    }
    written += static_cast<size_t>(n);
  }
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  return ok;
}

EngineProcess::Read EngineProcess::read_line(std::string& line, SteadyClock::time_point deadline,
                                             const std::atomic<bool>* cancel) {
  while (true) {
    const size_t end = buffer_.find('\n');
    if (end != std::string::npos || buffer_.size() >= kMaxLineBytes) {
      const size_t cut = end != std::string::npos ? end : kMaxLineBytes;
      line = buffer_.substr(0, cut);
      buffer_.erase(0, end != std::string::npos ? end + 1 : cut);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return Read::Line;
    }
    if (from_engine_ < 0) return Read::Closed;
    if (cancel && cancel->load()) return Read::Cancelled;
    const auto now = SteadyClock::now();
    if (now >= deadline) return Read::Timeout;
    auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now) +
                std::chrono::milliseconds(1);
    if (cancel) wait = std::min(wait, kCancelCheck);
    pollfd fd{from_engine_, POLLIN, 0};
    const int ready = ::poll(&fd, 1, static_cast<int>(wait.count()));
    if (ready < 0 && errno != EINTR) {
      close_fd(from_engine_);
      continue;
    }
    if (ready <= 0) continue;
    char chunk[4096];
    const ssize_t n = ::read(from_engine_, chunk, sizeof chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) {
      close_fd(from_engine_);
      // What is left without a line end is the last line.
      if (!buffer_.empty()) buffer_ += '\n';
      continue;
    }
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

bool EngineProcess::wait_exit(SteadyClock::time_point until) {
  while (true) {
    siginfo_t info{};
    // WNOWAIT: the leader stays a zombie, holding its process group id until reap().
    if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
        info.si_pid == pid_)
      return true;
    if (SteadyClock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void EngineProcess::reap() {
  // The rest of the group (a program the shell started and did not exec) goes with its leader.
  ::kill(-pid_, SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  reaped_ = true;
  if (WIFEXITED(status))
    ending_ = "exited with status " + std::to_string(WEXITSTATUS(status));
  else if (WIFSIGNALED(status))
    ending_ = "killed by signal " + std::to_string(WTERMSIG(status));
}

void EngineProcess::stop(std::chrono::milliseconds grace) {
  if (pid_ <= 0 || reaped_) return;
  send("quit");
  close_fd(to_engine_);
  if (!wait_exit(SteadyClock::now() + grace)) {
    ::kill(-pid_, SIGTERM);
    if (!wait_exit(SteadyClock::now() + grace)) {
      ::kill(-pid_, SIGKILL);
      wait_exit(SteadyClock::now() + std::chrono::seconds(10));
    }
  }
  reap();
  close_fd(from_engine_);
}

}  // namespace mancala::match
