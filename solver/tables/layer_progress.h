// Progress of work done layer by layer over the tables (building, verifying, unpacking), for a
// progress bar. The library reports; the command line draws.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace mancala {

struct LayerProgress {
  int seeds = 0;      // the layer
  std::string phase;  // "exits", "level 7", "checksums", "write", ...
  uint64_t done = 0;  // positions (or other units) done of `total`
  uint64_t total = 0;
};
// Called from the calling thread only, between slices of work.
using LayerProgressFn = std::function<void(const LayerProgress&)>;

}  // namespace mancala
