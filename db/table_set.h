// The tables of one game on disk (a directory of layer files), behind a tiny probe API:
// probe(position) gives the exact value or an explicit failure with a message. Layer files are
// opened lazily, on first use, once, thread-safely (a broken file of a layer no probe needs
// costs nothing). A layer with a plain copy (seeds-NN.plain.mtb, made by `mancala db unpack`)
// is read from it, else from seeds-NN.mtb. Nothing here throws: a directory that cannot be read
// is an error value naming it.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "db/table_file.h"
#include "solver/rules/position.h"
#include "solver/rules/rules.h"
#include "solver/tables/exact_values.h"
#include "solver/tables/table_index.h"

namespace mancala::db {

struct ProbeResult {
  ProbeStatus status = ProbeStatus::Failed;
  int value = 0;        // with Ok: the table value for the side to move
  std::string message;  // otherwise: why not

  bool ok() const { return status == ProbeStatus::Ok; }
};

// The database directory: --db DIR, else $MANCALA_DB, else ~/.local/share/mancala/db.
std::string default_database_directory();

// Which files of a layer are in a table directory. Anything at a layer's name counts (a FIFO or a
// directory there is the file's error when it is opened, never a reason to skip the layer).
struct LayerFiles {
  bool compressed = false;  // seeds-NN.mtb
  bool plain = false;       // seeds-NN.plain.mtb
  bool any() const { return compressed || plain; }
};
Expected<LayerFiles> layer_files(const std::string& table_dir, int seeds);

// The file readers use for layer `seeds` of the table in `table_dir`: its plain copy when there
// is one, else the compressed file; empty when neither exists.
Expected<std::string> preferred_layer_path(const std::string& table_dir, int seeds);

// The layers of a table directory on disk. A layer missing below the highest one on disk (a
// "gap") is an error for `db verify` and a warning for every reader, which uses the layers below
// it only.
struct LayerScan {
  std::vector<LayerFiles> layers;  // layers 0..top, by seeds
  int covered = -1;                // every layer 0..covered has a file
  int top = -1;                    // the highest layer with a file
  std::vector<int> missing;        // layers below top without a file
  // "" when there is no gap; else what is missing and what is therefore not used.
  std::string gap_message(const std::string& table_dir) const;
};
Expected<LayerScan> scan_layers(const std::string& table_dir);

// The table directories at `path`: `path` itself when it holds layer 0 of a table, else the
// directories in it that do, sorted by name.
Expected<std::vector<std::string>> table_directories(const std::string& path);

class TableSet {
 public:
  // Looks for the game's tables under `database_dir` (opening no file yet). Fails for games that
  // have no tables (Congkak, Kalah with more than 6 houses) and for a directory that cannot be
  // read; a directory without files covers nothing (max_seeds() is -1).
  static Expected<std::shared_ptr<const TableSet>> open(const std::string& database_dir,
                                                        const Rules& game_rules);

  const std::string& directory() const { return directory_; }
  const std::string& table_name() const { return table_name_; }
  int houses() const { return houses_; }
  // The largest S with a file (plain or compressed) for every layer 0..S; -1 when there are
  // none.
  int max_seeds() const { return max_seeds_; }
  // What is on disk beyond max_seeds() and not used because a layer below it is missing: "" when
  // nothing; readers print it as a warning.
  const std::string& gap_warning() const { return gap_warning_; }
  // Layer `seeds` (<= max_seeds()) is read from its plain copy.
  bool layer_is_plain(int seeds) const;
  // The size of layer `seeds`'s file on disk, without opening it; 0 when it cannot be read (the
  // file's error is the probe's, not this figure's).
  uint64_t layer_file_bytes(int seeds) const;

  ProbeResult probe(const Position& position) const;
  ProbeResult probe_key(int seeds, const TableKey& key) const;
  // The layer's file (preferred_layer_path when the set was opened), opened and checked on
  // first use. A plain copy that fails its checks is an error, not a reason to read the
  // compressed file instead: `mancala db unpack` rewrites it.
  Expected<std::shared_ptr<const TableFile>> layer(int seeds) const;

 private:
  struct LayerSlot {
    std::string path;
    std::once_flag once;
    std::shared_ptr<const TableFile> file;
    std::string error;
  };

  std::string directory_;
  std::string table_name_;
  int houses_ = 0;
  int max_seeds_ = -1;
  std::string gap_warning_;
  std::unique_ptr<TableIndex> index_;
  std::unique_ptr<LayerSlot[]> layers_;
};

}  // namespace mancala::db
