// Building a game's tables into a database directory, layer by layer, resumable: a layer whose
// file is already there and passes its checks is read back instead of built again.
#pragma once

#include <functional>
#include <string>

#include "db/table_file.h"
#include "solver/tables/retrograde.h"

namespace mancala::db {

struct BuildRequest {
  Rules rules;  // the game; its table covers every seeds-per-house
  int max_seeds = 0;
  std::string database_dir;
  WriteOptions write;
};

struct LayerReport {
  int seeds = 0;
  uint64_t positions = 0;
  bool resumed = false;  // read back from an existing file
  double seconds = 0;
  int levels = 0;            // value levels the layer went through
  double exits_seconds = 0;  // the builder's phases, and writing the file
  double levels_seconds = 0;
  double write_seconds = 0;
  uint64_t file_size = 0;
  std::string path;
};

Expected<bool> build_tables(const BuildRequest& request, const LayerProgressFn& progress,
                            const std::function<void(const LayerReport&)>& layer_done);

}  // namespace mancala::db
