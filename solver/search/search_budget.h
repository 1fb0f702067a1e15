// What a search may spend, and the one check of whether it has: a node limit, a time limit from
// its start, and a stop asked for from another thread. The heuristic search and the solver share
// it.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace mancala {

class SearchBudget {
 public:
  // Starts the clock, forgets an earlier stop, and sets the limits (0: none).
  void start(uint64_t max_nodes, double max_seconds) {
    started_ = std::chrono::steady_clock::now();
    max_nodes_ = max_nodes;
    max_seconds_ = max_seconds;
    stop_.store(false, std::memory_order_relaxed);
  }
  // Keeps the clock running and lifts both limits (a stop still counts).
  void remove_limits() {
    max_nodes_ = 0;
    max_seconds_ = 0;
  }
  // Asks the search to stop; safe from any thread.
  void request_stop() { stop_.store(true, std::memory_order_relaxed); }

  // Has a search that has visited `nodes` nodes spent its budget, or been asked to stop?
  bool exhausted(uint64_t nodes) const {
    if (stop_.load(std::memory_order_relaxed)) return true;
    if (max_nodes_ && nodes >= max_nodes_) return true;
    return max_seconds_ > 0 && elapsed_seconds() >= max_seconds_;
  }
  double elapsed_seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  }

 private:
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  uint64_t max_nodes_ = 0;
  double max_seconds_ = 0;
  std::atomic<bool> stop_{false};
};

}  // namespace mancala
