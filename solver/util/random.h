// A small, fast, seedable random generator (SplitMix64), so that games, tests and matches can be
// replayed exactly from a seed on any platform.
#pragma once

#include <cstdint>

namespace mancala {

// SplitMix64's output function: a bijection of 64-bit words that spreads every input bit over
// the whole output. The generator below applies it to a counter; hashes use it to finish.
inline uint64_t splitmix64_mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}

  uint64_t next() { return splitmix64_mix(state_ += 0x9E3779B97F4A7C15ull); }
  // Uniform in [0, bound), bound > 0.
  uint32_t below(uint32_t bound) { return static_cast<uint32_t>(((next() >> 32) * bound) >> 32); }

 private:
  uint64_t state_;
};

}  // namespace mancala
