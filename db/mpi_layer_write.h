// Writing one layer file of the distributed build (table_build_mpi.h), with the same bytes as
// write_table_file writes on one machine. Internal to the db layer's MPI library.
//
// One writer per encoding (table_format.h) prepares what only it knows: the zstd writer trains
// the dictionary on rank 0 from the sampled blocks, gathered from their owners, and each rank
// compresses its own blocks; the coded writer sums every rank's symbol counts into one code (the
// same code whatever the ranks) and each rank codes its own groups. Then the steps they share:
//   place    every chunk's bytes after the chunks before it, in index order, from the sizes
//            every rank gathers;
//   write    every rank writes its own pieces (index entries and data) into the temporary file
//            with MPI-IO, rank 0 also the dictionary section;
//   compare  every rank reads its own pieces back and compares them;
//   finish   rank 0 checksums the sections by streaming them from the file, writes the header,
//            opens the file with every reader's checks (a coded file also decodes every block)
//            and renames it into place.
// After each step every rank agrees on the first error; on an error the temporary file is removed.
// Each function is collective: every rank calls it with its own part of the layer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db/layer_partition.h"
#include "db/mpi_exchange.h"
#include "db/table_file.h"
#include "db/write_options.h"
#include "solver/util/expected.h"

namespace mancala::db {

// Which layer is written where, and this rank's part of it.
struct DistributedLayer {
  const Comm& comm;
  const LayerPartition& partition;
  std::string table_name;
  int houses = 0;
  int seeds = 0;
  uint64_t positions = 0;  // in the whole layer
  std::string path;        // the finished file; written first as path + ".tmp"
  int threads = 1;         // OpenMP threads of this rank
};

// `values`: this rank's part of the layer, in local order (partition.local).
Expected<WriteReport> write_zstd_layer_distributed(const DistributedLayer& layer,
                                                   const std::vector<int8_t>& values,
                                                   const WriteOptions& options);
Expected<WriteReport> write_coded_layer_distributed(const DistributedLayer& layer,
                                                    const std::vector<int8_t>& values,
                                                    const WriteOptions& options);

// The checksum of bytes [offset, offset + size) of `path`, streamed from disk in bounded pieces
// (a reader that maps and touches the whole file would hold it all in memory). Not collective.
Expected<uint64_t> file_section_checksum(const std::string& path, uint64_t offset, uint64_t size);

}  // namespace mancala::db
