// The verifier: checks a table directory independently of the builder. Every layer's header,
// index, dictionary and data checksums, then every position: the stored value must equal the best
// over its legal moves recomputed from the stored tables (the game's end where it has no move).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "solver/expected.h"
#include "solver/retrograde.h"

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
  uint64_t positions = 0;
  uint64_t mismatch_count = 0;
  std::vector<VerifyMismatch> first_mismatches;
  std::vector<std::string> errors;  // files that failed their checks
  bool ok() const { return mismatch_count == 0 && errors.empty(); }
};

// `table_dir` holds seeds-00.mtb, seeds-01.mtb, ...; keeps up to `keep` mismatches.
Expected<VerifyReport> verify_table_directory(const std::string& table_dir,
                                              const BuildProgressFn& progress, size_t keep = 10);

}  // namespace mancala::db
