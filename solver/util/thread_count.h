// A thread count as a value. A door (the command line, the server, the engine, the Python
// module) reads what the user asked for and resolves it here once: 0 means all cores. The layers
// below (solver/, db/) take the count they are given as it is and run their OpenMP teams with
// exactly that many threads; they never ask how many cores there are (tests/check_layers.sh checks
// it), and nothing sets a count for the whole process.
#pragma once

// OpenMP where the compiler has it; the WebAssembly build (tools/wasm) has none and runs one
// thread, its parallel loops' pragmas ignored.
#ifdef _OPENMP
#include <omp.h>
#endif

#include <algorithm>

namespace mancala {

// All cores: as many threads as OpenMP runs by default (OMP_NUM_THREADS when it is set, else the
// cores this process may use). The one question every "all cores" asks, the distributed build's
// share of a machine too.
inline int all_cores() {
#ifdef _OPENMP
  return std::max(1, omp_get_max_threads());
#else
  return 1;
#endif
}

// The number of the calling thread in its OpenMP team (0 outside a team, and with no OpenMP).
inline int thread_in_team() {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

// `requested` threads, or all cores when it is 0 (or less): a door's reading of a --threads
// option or a request's thread count.
inline int threads_or_all_cores(int requested) {
  return requested > 0 ? requested : all_cores();
}

// The team a layer below the doors runs for a count it is given: that count, and one thread for
// a count below one (a caller's slip, never "all cores").
inline int team_size(int threads) {
  return std::max(1, threads);
}

}  // namespace mancala
