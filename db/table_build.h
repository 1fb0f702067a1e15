// Building a game's tables into a database directory, layer by layer, resumable: a layer whose
// file is already there and passes its checks is read back instead of built again.
//
// Writing a layer (compressing it, writing, syncing, reading it back and checking it, renaming it
// into place) runs on a thread of its own while the builder goes on with the next layers: a
// layer's values stay in memory anyway, as a lower layer of the ones above. Each write is as
// atomic as before (table_file.h), and the layers are written, and reported, in order.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "db/table_file.h"
#include "solver/tables/kalah_sub_layers.h"
#include "solver/tables/retrograde.h"

namespace mancala::db {

struct BuildRequest {
  Rules rules;  // the game; its table covers every seeds-per-house
  int max_seeds = 0;
  std::string database_dir;
  WriteOptions write;
  // Threads that build a layer, and as many again that compress and write the finished layer
  // below alongside (and decode a layer read back to resume). The bytes do not depend on it.
  int threads = 1;
  // Bytes the layers may take in memory: the layer being built (RetrogradeBuilder::bytes_to_build)
  // and the finished layers held below it; none: no bound. Beyond it the lowest layers already
  // written are copied to scratch files without a name in the tables' directory and read from
  // there through memory maps (RetrogradeBuilder::hold_layer_elsewhere), and the kernel keeps
  // what it can of them in its page cache; Kalah's in sub-layer order (kalah_sub_layers.h), so
  // that what a pair of sub-layers reads is whole pages of its own. A layer the writer has not
  // finished stays in memory even beyond the bound, as do the writer's compressed bytes. A Kalah
  // layer that does not fit in the bound beside the layer below is built in a scratch file of its
  // own instead of memory (built_in_scratch, below), taking none of the bound. The bytes written do
  // not depend on it.
  std::optional<uint64_t> layer_memory = std::nullopt;
};

struct LayerReport {
  int seeds = 0;
  uint64_t positions = 0;
  bool resumed = false;  // read back from an existing file
  // Resumed from its plain copy (`db unpack`), nothing decoded: read in place on one machine,
  // each rank's part copied from it in the distributed build.
  bool from_plain_copy = false;
  double seconds = 0;        // building it, or reading it back
  int levels = 0;            // value levels the layer went through (0: built in one pass)
  double exits_seconds = 0;  // the builder's phases
  double levels_seconds = 0;
  double values_seconds = 0;  // one pass (Kalah)
  double write_seconds = 0;   // writing the file, alongside the build of the next layers
  int threads = 0;            // that built the layer (0: resumed)
  int write_threads = 0;      // that compressed its blocks (0: resumed)
  uint64_t file_size = 0;
  std::string path;
  // Bytes of the finished layers read from scratch files (BuildRequest::layer_memory: moved
  // there once written, or built there) by the time this layer was reported.
  uint64_t mapped_bytes = 0;
};

// What both builds (this one and the distributed one) refuse before anything is built: a game
// without tables, max seeds outside 0..kMaxTableSeeds.
Expected<bool> check_build_request(const BuildRequest& request);

// The memory a build on one machine needs to run at memory speed while it builds its last layer,
// whatever BuildRequest::layer_memory says. Oware's layers, read at random from every layer below,
// would have to be held whole: the layer being built, the three layers below it (nearly every
// child's value is read from them: a move into a store or past it takes one seed off the board,
// most captures two to four; a mapped one the page cache cannot hold is read back from disk at
// random), and the writer's coded bytes of the layer below (under 4 bits a position). Kalah's
// need is counted by pairs of sub-layers (build_memory_by_pairs, below). Kalah 0..33 needed
// 23.7 GB the first way and, so counted, valued its last layer at 0.1 M positions a second on a
// machine of 25.3 GB, the disk reading 1.2 GB a second.
// With `layer_memory` (BuildRequest::layer_memory), a Kalah layer that the build makes in a
// scratch file (built_in_scratch) counts by its pairs too.
uint64_t build_memory_needed(const Rules& rules, int max_seeds,
                             std::optional<uint64_t> layer_memory = std::nullopt);

// Whether the build makes layer `seeds` in a scratch file of its own (Kalah, built in one pass,
// pair by pair, in sub-layer order) rather than in memory: when the layer and the one below (the
// most read, and held until written) do not fit in `layer_memory` together. A pair then writes
// two ranges of the file, which the kernel may write back and drop: the layer is no longer part
// of what the build must hold.
bool built_in_scratch(const Rules& rules, int seeds, std::optional<uint64_t> layer_memory);

// Over layers held in scratch files, a Kalah layer is valued pair of sub-layers by pair instead
// (kalah_sub_layers.h), each pair reading a known part of the layers below, which the builder
// reads ahead from them, written in sub-layer order so that those reads are whole pages of their
// own. So a build needs the layer being built, the layer below until the writer is done with it,
// the writer's coded bytes of it, and the largest part of the layers further down that one pair
// reads: Kalah 6 houses, 0..33, 20.4 GB (the pair (19, 14) reading 4.1 GB of layers 0..31);
// 0..34, 27.2 GB. Built so on this machine (2026-12-07), 0..33 valued its layer 33 at 11.6 M
// positions a second (docs/endgame-tables.md, "Sub-layers"); over scratch files in rank order,
// at 0.1 M. With layer 34 built in a scratch file, 0..34 was built here (7.1 M a second).
//
// A last layer built in a scratch file (built_in_scratch) is held no more, nor is the layer
// below when it was built so too: what the build holds is then the largest pair's working set
// (its own two sub-layers, being written, and what it reads of every layer below, the one below
// included) and the writer's coded bytes of the layer below (the pass's tables of rows, under
// 1 GB at 34 seeds, go uncounted here as before).
struct BuildMemoryByPairs {
  SubLayer pair;             // the pair of sub-layers whose working set is the largest
  uint64_t pair_reads = 0;   // what it reads of the layers not held whole, positions
  uint64_t pair_writes = 0;  // in a scratch file: its own positions, written; else 0
  bool in_scratch = false;   // the last layer is built in a scratch file
  uint64_t bytes = 0;        // what the build would need by the count above
};
// Kalah only (a build valued in one pass); none for Oware or below 2 seeds.
std::optional<BuildMemoryByPairs> build_memory_by_pairs(
    const Rules& rules, int max_seeds, std::optional<uint64_t> layer_memory = std::nullopt);

// What a build may take of a machine's memory (`build_memory_needed`, or the parts of the ranks a
// machine runs): nine tenths, the rest left to the system and the page cache.
inline uint64_t build_memory_room(uint64_t machine_memory) {
  return machine_memory / 10 * 9;
}

// The memory one rank of the distributed build (table_build_mpi.h) needs for layers 0..max_seeds
// of `rules`'s table shared by `ranks` ranks: its part of every layer, all kept to the end, and of
// the last layer's work (three bytes a position), times what the parts and the exchanges' buffers
// take around them (1.5 for Kalah, whose layers are built by levels there too; 1.3 for Oware),
// and 60 MB of program and MPI's buffers. Measured (docs/cluster.md): Kalah 0..20, 775, 418 and
// 256 MB on 1, 2 and 4 ranks (the rule: 780, 420, 240); Oware 0..19 on 1 rank, 412 MB (456).
uint64_t distributed_build_memory_per_rank(const Rules& rules, int max_seeds, int ranks);

// Builds layers 0..max_seeds. `progress` follows the builder; `layer_done` sees each layer once it
// is written (or kept), in order. Both are called on the calling thread only. A build ended
// early (an error, or an exception thrown by `progress`) still writes the layers it finished
// before it returns or the exception leaves it, so that a later build resumes from them.
Expected<bool> build_tables(const BuildRequest& request, const LayerProgressFn& progress,
                            const std::function<void(const LayerReport&)>& layer_done);

}  // namespace mancala::db
