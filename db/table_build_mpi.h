// The retrograde build distributed over MPI processes ("ranks"): the same tables as
// build_tables (table_build.h), byte for byte, built by N processes that each hold only their
// part of every layer. docs/cluster.md describes how to run it, its design and its costs.
//
// Each rank owns a part of every layer (layer_partition.h) and keeps only that part in memory,
// lower layers included. The phases are the builder's (solver/tables/retrograde_phases.h):
//
//   exits    each rank walks its own positions; a child below owned by another rank is asked
//            for in a batch, the owners answer with its value (two all-to-all exchanges per
//            slice of work);
//   levels   for t = s .. 1 the settled positions' inner parents are told, in rounds: parents
//            owned by another rank travel as batched updates (one all-to-all exchange per
//            round), until no rank has a frontier left.
//
// Kalah layers are built with the level algorithm too: a layer's values are the game-theoretic
// values, unique whatever algorithm finds them, so the bytes equal the one-machine build's.
//
// Each layer file is written in the project's format (table_format.h) with the same bytes as
// write_table_file, by the writer of its encoding (mpi_layer_write.h): every rank encodes its own
// blocks, writes them into the temporary file with MPI-IO and reads them back; rank 0 finishes
// the file and renames it into place. A build resumes from the finished layers (rank 0 checks
// the data checksum; each rank decodes only its own blocks). The messages between ranks are
// mpi_exchange.h's.
//
// Every entry point is collective: all ranks call it with the same arguments, and all get the
// same result (an error on one rank is an error on every rank, with its message).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "db/layer_partition.h"
#include "db/table_build.h"
#include "solver/util/expected.h"

namespace mancala::db {

// MPI for the life of this object. Only a process that asks for the distributed build starts
// MPI, so the `mancala` command runs without mpirun otherwise.
class MpiSession {
 public:
  // Whether this program was built with MPI: without it, start() and the distributed build
  // are errors.
  static bool available();
  // MPI_Init_thread (OpenMP threads work inside a rank; only the main thread calls MPI). An error
  // when this program was built without MPI.
  static Expected<std::unique_ptr<MpiSession>> start();
  // MPI_Finalize; while an exception unwinds (a rank failed alone, so the others may be waiting
  // for it) MPI_Abort, which stops every rank instead of leaving them waiting.
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  // How many ranks of the job run on this rank's machine (they share its cores).
  int ranks_on_this_machine() const { return local_size_; }
  // Stops every rank of the job at once (MPI_Abort) with exit status `code`.
  [[noreturn]] void abort(int code) const;
  // Returns on each rank once every rank has called it (MPI_Barrier): what one rank did before
  // (printed an error, say) is done before any rank goes on (and exits).
  void barrier() const;

 private:
  MpiSession(int rank, int size, int local_size)
      : rank_(rank), size_(size), local_size_(local_size) {}
  int rank_;
  int size_;
  int local_size_;
};

struct DistributedOptions {
  PartitionPolicy partition = PartitionPolicy::Interleaved;
  // The memory of a machine (bytes), which its ranks share: a build whose parts would not fit in
  // nine tenths of it on some machine (distributed_build_memory_per_rank times the ranks there)
  // is refused before it starts instead of swapping for days. 0: not checked.
  uint64_t machine_memory = 0;
};

// Where a layer's build stands, summed over all ranks; reported on rank 0 only.
struct DistributedProgress {
  int seeds = 0;
  std::string phase;  // "exits", "level 7", "write", "read"
  uint64_t done = 0;  // positions done of `total`
  uint64_t total = 0;
  uint64_t messages = 0;  // items sent to other ranks in this layer so far (below)
  uint64_t message_bytes = 0;
};

struct DistributedLayerReport {
  LayerReport layer;  // as build_tables reports it
  int ranks = 0;
  // Items sent from one rank to another in this layer, all ranks together: child values asked
  // for (8 bytes each) and answered (1 byte each) in phase exits, updates sent to the owners of
  // inner parents (8 bytes each) in phase levels.
  uint64_t value_requests = 0;
  uint64_t level_updates = 0;
  uint64_t messages() const { return 2 * value_requests + level_updates; }
  uint64_t message_bytes = 0;
  uint64_t exchanges = 0;       // all-to-all exchanges (each rank took part in every one)
  double exchange_seconds = 0;  // the most any rank spent inside exchanges (waiting included)
  // The busiest rank's time at work in the phases (outside exchanges) over the mean rank's,
  // minus 1: 0 when the work is shared evenly.
  double imbalance = 0;
  uint64_t peak_memory_max = 0;  // the largest peak resident memory of a rank so far, bytes
  uint64_t peak_memory_min = 0;  // the smallest
};

// Whether every machine holds the parts of the ranks it runs (options.machine_memory; true when
// that is 0): each rank checks its own machine, and all ranks get the first refusal, which says
// what the build needs there and the deepest one that fits with these ranks.
// build_tables_distributed checks it first too.
Expected<bool> check_distributed_build_fits(const MpiSession& session, const BuildRequest& request,
                                            const DistributedOptions& options);

// Builds (or resumes) `request` on every rank of `session`. `progress` and `layer_done` are called
// on rank 0 only, from its main thread.
Expected<bool> build_tables_distributed(
    const MpiSession& session, const BuildRequest& request, const DistributedOptions& options,
    const std::function<void(const DistributedProgress&)>& progress,
    const std::function<void(const DistributedLayerReport&)>& layer_done);

}  // namespace mancala::db
