// A thread count as a value: what an option or a request asks for, resolved in one place. The
// parallel phases (the table builds, the writer, unpack, verify, matches) take such a count and
// run their OpenMP teams with exactly that many threads; nothing sets a count for the whole
// process.
#pragma once

#include <omp.h>

#include <algorithm>

namespace mancala {

// All cores: as many threads as OpenMP runs by default (OMP_NUM_THREADS when it is set, else the
// cores this process may use). The one question every "all cores" asks, the distributed build's
// share of a machine too.
inline int all_cores() {
  return std::max(1, omp_get_max_threads());
}

// `requested` threads, or all cores when it is 0 (or less).
inline int threads_or_all_cores(int requested) {
  return requested > 0 ? requested : all_cores();
}

}  // namespace mancala
