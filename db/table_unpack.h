// Plain copies of a game's tables: seeds-NN.plain.mtb next to each seeds-NN.mtb, holding the
// values as bytes (kPlainBytes, table_format.h) that probes read in place instead of
// decompressing blocks. Resumable: a layer whose copy is already there and sound is kept.
// Also the conversion of the compressed layers between format versions 1 (zstd) and 2 (coded).
#pragma once

#include <functional>
#include <string>

#include "db/table_file.h"
#include "solver/rules/rules.h"
#include "solver/tables/layer_progress.h"

namespace mancala::db {

struct UnpackRequest {
  Rules rules;         // the game; its table covers every seeds-per-house
  int max_seeds = -1;  // copy layers 0..max_seeds; -1: every layer the directory has
  std::string database_dir;
  int threads = 1;  // that decode a layer
};

struct UnpackLayerReport {
  int seeds = 0;
  uint64_t positions = 0;
  bool kept = false;  // its plain copy was already there, opened and matched its data checksum
  uint64_t file_size = 0;
  double seconds = 0;
  std::string path;
};

// The table directory the request reads and the last layer it copies (max_seeds resolved), or
// why it cannot be carried out: a game without tables, no tables there, layers beyond them.
struct UnpackPlan {
  std::string directory;
  int last_layer = -1;
  std::string warning;  // layers on disk not copied because one below them is missing, or ""
};
Expected<UnpackPlan> plan_unpack(const UnpackRequest& request);

// Writes the plain copies (each under a temporary name, checked, then renamed into place), holding
// the table directory's WriterLock.
Expected<bool> unpack_tables(const UnpackRequest& request, const LayerProgressFn& progress,
                             const std::function<void(const UnpackLayerReport&)>& layer_done);

struct ConvertRequest {
  Rules rules;
  int max_seeds = -1;  // convert layers 0..max_seeds; -1: every layer the directory has
  std::string database_dir;
  int threads = 1;     // that decode and code a layer
  WriteOptions write;  // the encoding (and its block size) to write; not plain
};

struct ConvertLayerReport {
  int seeds = 0;
  uint64_t positions = 0;
  bool kept = false;  // already in the encoding and block size asked for
  uint64_t old_size = 0;
  uint64_t file_size = 0;
  double seconds = 0;
  std::string path;
};

// Rewrites each compressed layer (seeds-NN.mtb) in the encoding the request asks for: decoded
// whole and checked against its data checksum, written under a temporary name, read back, then
// renamed over the old file, holding the table directory's WriterLock. Plain copies are left as
// they are (they hold the same values). Resumable: layers already converted are kept.
Expected<bool> convert_tables(const ConvertRequest& request, const LayerProgressFn& progress,
                              const std::function<void(const ConvertLayerReport&)>& layer_done);

}  // namespace mancala::db
