// A fixed set of threads taking jobs from a bounded queue: the server's compute pool (computer
// moves and analyses) and its connection threads. A job that finds the queue full is refused
// at once, so that a burst is answered "busy" instead of piling up behind work that takes
// seconds.
#pragma once

#include <sys/resource.h>
#include <unistd.h>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace mancala::http {

class WorkQueue {
 public:
  // `threads` workers; at most `max_waiting` jobs wait for one (beyond those being run). The
  // workers run `nice` steps below the calling thread's priority (Linux schedules threads one
  // by one), so that long jobs give way to quick ones on other threads.
  // Throws std::system_error when the system cannot give that many threads (after joining the
  // ones it gave: a std::thread destroyed while joinable would end the process).
  WorkQueue(size_t threads, size_t max_waiting, int nice = 0) : max_waiting_(max_waiting) {
    try {
      for (size_t i = 0; i < threads; ++i)
        workers_.emplace_back([this, nice] {
          if (nice > 0) ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), nice);
          work();
        });
    } catch (...) {
      shutdown();
      throw;
    }
  }
  ~WorkQueue() { shutdown(); }
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  // Queues `job`; false (and `job` untouched) when `max_waiting` jobs already wait.
  bool try_post(std::function<void()>& job) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_ || waiting_.size() >= max_waiting_) return false;
      waiting_.push_back(std::move(job));
    }
    ready_.notify_one();
    return true;
  }

  // Runs the jobs already queued, then stops the workers. Idempotent.
  void shutdown() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    ready_.notify_all();
    for (std::thread& t : workers_)
      if (t.joinable()) t.join();
  }

  size_t waiting() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return waiting_.size();
  }

 private:
  void work() {
    while (true) {
      std::function<void()> job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        ready_.wait(lock, [this] { return stopping_ || !waiting_.empty(); });
        if (waiting_.empty()) return;  // stopping, nothing left
        job = std::move(waiting_.front());
        waiting_.pop_front();
      }
      job();
    }
  }

  const size_t max_waiting_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> waiting_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace mancala::http
