// The verifier: checks a table directory independently of the builder. Every layer's header,
// index, dictionary and data checksums, then every position: the stored value must equal the best
// over its legal moves recomputed from the stored tables (the game's end where it has no move).
// A layer with a plain copy (seeds-NN.plain.mtb) has both files checked: the copy must pass the
// same checks and hold exactly the compressed file's values, so what probes read is verified.
//
// The whole check holds every layer's values in memory at once. The sampled check
// (verify_table_sample) checks every file's checksums the same way but only positions drawn at
// random from each layer, reading values through the mapped files as probes do: for tables larger
// than the machine's memory (Kalah(6) to 33 seeds: 28.8 GB of values).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "solver/tables/layer_progress.h"
#include "solver/util/expected.h"

namespace mancala::db {

struct VerifyMismatch {
  int seeds = 0;
  uint64_t rank = 0;
  std::string position;  // South to move, empty stores
  int stored = 0;
  int recomputed = 0;
};

struct VerifyReport {
  std::string table_name;
  int layers = 0;
  int plain_layers = 0;       // layers with a plain copy, checked too
  uint64_t positions = 0;     // positions whose value was checked
  uint64_t sampled_from = 0;  // sampled: how many positions the checked ones were drawn from
  uint64_t mismatch_count = 0;
  std::vector<VerifyMismatch> first_mismatches;
  std::vector<std::string> errors;  // files that failed their checks
  bool ok() const { return mismatch_count == 0 && errors.empty(); }
};

// The bytes verify_table_directory holds at once for the layers of `table_dir`, from the layers'
// headers (no values read): every layer's values, since each layer is checked against all those
// below it, and a second copy of the largest, read beside it when it has a plain copy. A layer
// that cannot be opened counts nothing (the verify reports it).
Expected<uint64_t> verify_memory_needed(const std::string& table_dir);

// `table_dir` holds seeds-00.mtb, seeds-01.mtb, ... (or their plain copies); keeps up to `keep`
// mismatches. Runs on `threads` threads. Refused up
// front, before any value is read, when it needs more than `memory_room` bytes
// (verify_memory_needed; 0: no bound): each layer's declared size fitting the machine on its own
// is not enough, since they are all held together.
Expected<VerifyReport> verify_table_directory(const std::string& table_dir,
                                              const LayerProgressFn& progress, int threads = 1,
                                              size_t keep = 10, uint64_t memory_room = 0);

// How verify_table_sample draws its positions.
struct VerifySampling {
  // Positions drawn from each layer, uniformly at random (with replacement); a layer of no more
  // positions than this has every one checked, in rank order, instead.
  uint64_t per_layer = 10000;
  // The draws: the same seed draws the same positions of the same tables.
  uint64_t seed = 1;
};

// Checks `table_dir` as verify_table_directory does, but the values of a sample of each layer's
// positions only (the checksums of every file in full). Memory: the files are mapped, not read
// in; a probe decodes the block it reads (a few KB). The report counts the positions checked and
// those of the layers they were drawn from. A plain copy's sampled values must be the compressed
// file's.
Expected<VerifyReport> verify_table_sample(const std::string& table_dir,
                                           const VerifySampling& sampling,
                                           const LayerProgressFn& progress, int threads = 1,
                                           size_t keep = 10);

}  // namespace mancala::db
