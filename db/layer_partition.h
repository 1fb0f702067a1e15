// Which process of a distributed build (db/table_build_mpi.h) owns which positions of a layer,
// and where it keeps them.
//
// A layer's ranks 0 .. size-1 are cut into chunks of `chunk` consecutive ranks; chunk c belongs to
// process c mod P, which keeps its chunks one after another in rank order (its "local" indices).
// The chunk is a whole number of the table file's blocks, so every block of a layer file belongs
// to one process, which compresses and writes it, and reads it back when a build resumes.
//
//   interleaved   chunks of at least kInterleavedChunk ranks, at most kChunksPerProcess of them
//                 per process, dealt round-robin (the default)
//   ranges        chunk = size / P rounded up to whole blocks: process i owns one range of ranks
//
// Either way a move's child lands on another process with probability about (P-1)/P: the rank
// of a child has no locality to its parent's (an inner move swaps the rows). What differs is the
// balance: the work a position costs drifts along the rank order (it depends on how the seeds
// lie), so one range per process leaves some processes with more work than others (measured on
// Oware layers 12..16 with 2 processes: the busiest one worked 13-16% more than the mean, and
// the other waited for it), while many interleaved chunks even it out (0-7%). docs/cluster.md has
// the figures.
#pragma once

#include <algorithm>
#include <cstdint>

namespace mancala::db {

enum class PartitionPolicy { Ranges, Interleaved };

inline constexpr uint64_t kInterleavedChunk = uint64_t{1} << 14;
// Larger layers get larger chunks: enough of them per process to even the work out, few enough
// that writing a layer file is a few large writes per process, not millions of small ones.
inline constexpr uint64_t kChunksPerProcess = 64;

class LayerPartition {
 public:
  LayerPartition() = default;
  // `size` ranks shared by `processes`, in chunks of `chunk` ranks (chunk >= 1).
  LayerPartition(uint64_t size, int processes, uint64_t chunk)
      : size_(size), processes_(static_cast<uint64_t>(processes)), chunk_(chunk) {}

  // The partition of a layer of `size` positions whose file has blocks of `block_size`.
  static LayerPartition make(uint64_t size, int processes, uint64_t block_size,
                             PartitionPolicy policy) {
    const uint64_t p = static_cast<uint64_t>(processes);
    uint64_t chunk = policy == PartitionPolicy::Ranges
                         ? (size + p - 1) / p
                         : std::max(kInterleavedChunk,
                                    (size + p * kChunksPerProcess - 1) / (p * kChunksPerProcess));
    chunk = std::max<uint64_t>(1, (chunk + block_size - 1) / block_size) * block_size;
    return LayerPartition(size, processes, chunk);
  }

  uint64_t size() const { return size_; }
  uint64_t chunk() const { return chunk_; }
  int owner(uint64_t rank) const { return static_cast<int>(rank / chunk_ % processes_); }
  uint64_t local(uint64_t rank) const {
    return rank / chunk_ / processes_ * chunk_ + rank % chunk_;
  }
  uint64_t global(int process, uint64_t local_index) const {
    const uint64_t k = local_index / chunk_;
    return (k * processes_ + static_cast<uint64_t>(process)) * chunk_ + local_index % chunk_;
  }
  uint64_t chunk_count() const { return (size_ + chunk_ - 1) / chunk_; }
  // Positions kept by `process`.
  uint64_t local_size(int process) const {
    const uint64_t p = static_cast<uint64_t>(process);
    const uint64_t chunks = chunk_count();
    if (chunks <= p) return 0;
    const uint64_t mine = (chunks - 1 - p) / processes_ + 1;
    uint64_t total = mine * chunk_;
    if ((chunks - 1) % processes_ == p) total -= chunks * chunk_ - size_;  // a short last chunk
    return total;
  }
  // Calls run(begin, end, local_begin) for each chunk of `process`: ranks [begin, end), kept
  // from local index local_begin on. In rank order.
  template <class Run>
  void for_each_run(int process, Run&& run) const {
    uint64_t local_begin = 0;
    for (uint64_t c = static_cast<uint64_t>(process); c < chunk_count(); c += processes_) {
      const uint64_t begin = c * chunk_, end = std::min(size_, begin + chunk_);
      run(begin, end, local_begin);
      local_begin += end - begin;
    }
  }

 private:
  uint64_t size_ = 0;
  uint64_t processes_ = 1;
  uint64_t chunk_ = 1;
};

}  // namespace mancala::db
