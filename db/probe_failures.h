// The failed probes of a source of table values: counted, the first one's message kept.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <utility>

namespace mancala::db {

// Called once, by the thread whose probe failed first, with the failure's message: how a command
// reports a table failure at once (the library never prints).
using ProbeFailureHandler = std::function<void(const std::string& message)>;

// Thread-safe. The first message is set with the count under one lock, so that a caller whose own
// probe failed reads a message, whichever thread failed first; the handler runs outside the lock.
class ProbeFailures {
 public:
  explicit ProbeFailures(ProbeFailureHandler on_first_failure = {})
      : on_first_failure_(std::move(on_first_failure)) {}

  void record(const std::string& message) const {
    {
      std::lock_guard lock(mutex_);
      if (count_.fetch_add(1) != 0) return;
      first_ = message;
    }
    if (on_first_failure_) on_first_failure_(message);
  }
  uint64_t count() const { return count_.load(); }
  std::string first() const {
    std::lock_guard lock(mutex_);
    return first_;
  }

 private:
  ProbeFailureHandler on_first_failure_;
  mutable std::atomic<uint64_t> count_{0};
  mutable std::mutex mutex_;
  mutable std::string first_;  // guarded by mutex_
};

}  // namespace mancala::db
