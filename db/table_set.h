// The tables of one game on disk (a directory of layer files), behind a tiny probe API:
// probe(position) gives the exact value or an explicit failure with a message. Layer files are
// mapped lazily, on first use, once, thread-safely. A layer with a plain copy
// (seeds-NN.plain.mtb, made by `mancala db unpack`) is read from it, else from seeds-NN.mtb.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "db/table_file.h"
#include "solver/rules/position.h"
#include "solver/rules/rules.h"
#include "solver/tables/table_index.h"

namespace mancala::db {

enum class ProbeStatus : uint8_t {
  Ok,
  NotCovered,  // more seeds on the board than the tables hold
  Failed,      // a layer is missing, corrupt, or of another game
};

struct ProbeResult {
  ProbeStatus status = ProbeStatus::Failed;
  int value = 0;        // with Ok: the table value for the side to move
  std::string message;  // otherwise: why not

  bool ok() const { return status == ProbeStatus::Ok; }
};

// The database directory: --db DIR, else $MANCALA_DB, else ~/.local/share/mancala/db.
std::string default_database_directory();

// The file readers use for layer `seeds` of the table in `table_dir`: its plain copy when there
// is one, else the compressed file; empty when neither exists.
std::string preferred_layer_path(const std::string& table_dir, int seeds);

// The table directories at `path`: `path` itself when it holds layer 0 of a table, else the
// directories in it that do, sorted by name.
std::vector<std::string> table_directories(const std::string& path);

class TableSet {
 public:
  // Looks for the game's tables under `database_dir`. Fails only for games that have no tables
  // (Congkak, Kalah with more than 6 houses); a directory without files covers 0 seeds... none.
  static Expected<std::shared_ptr<const TableSet>> open(const std::string& database_dir,
                                                        const Rules& game_rules);

  const std::string& directory() const { return directory_; }
  const std::string& table_name() const { return table_name_; }
  int houses() const { return houses_; }
  // The largest S with a file (plain or compressed) for every layer 0..S; -1 when there are
  // none.
  int max_seeds() const { return max_seeds_; }

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
  std::unique_ptr<TableIndex> index_;
  std::unique_ptr<LayerSlot[]> layers_;
};

}  // namespace mancala::db
