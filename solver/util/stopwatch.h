// Seconds since a moment on the steady clock: how the builds, benchmarks and commands time their
// phases.
#pragma once

#include <chrono>

namespace mancala {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace mancala
