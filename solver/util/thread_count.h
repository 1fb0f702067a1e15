// A thread count as a value: what an option or a request asks for, resolved in one place. The
// parallel phases (the table builds, the writer, unpack, verify, matches) take such a count and
// run their OpenMP teams with exactly that many threads; nothing sets a count for the whole
// process.
#pragma once

#include <omp.h>

#include <algorithm>

namespace mancala {

// `requested` threads, or all cores when it is 0 (or less): as many as OpenMP runs by default
// (OMP_NUM_THREADS when it is set, else the cores this process may use).
inline int threads_or_all_cores(int requested) {
  return requested > 0 ? requested : std::max(1, omp_get_max_threads());
}

}  // namespace mancala
