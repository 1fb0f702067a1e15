// The catalogue of games every door shows: each kind with its sizes, defaults and variants (read
// from the rule book's one table, solver/rules/rules.h game_forms) and the endgame tables found
// for it in a database directory.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/table_values.h"
#include "solver/rules/rules.h"

namespace mancala::service {

// One table name ("kalah:6", "oware:abapa") for every game that has tables, each once, in the
// order of game_forms(): sizes, then variants.
std::vector<Rules> games_with_tables();

struct TablesFound {
  std::string table;  // "kalah:6"
  int max_seeds = -1;
};

// Every game's tables opened from one database directory, for a server that answers many games.
// Read-only after construction: safe to use from any number of threads.
class TableShelf {
 public:
  // Opens every game's tables under `database_dir` (empty: the default directory).
  explicit TableShelf(const std::string& database_dir,
                      const db::ProbeFailureHandler& on_probe_failure = {});
  ~TableShelf();

  const std::string& directory() const { return directory_; }
  // The tables of `rules`'s game, or null when none were found.
  const db::TableValues* values_for(const Rules& rules) const;
  const std::vector<TablesFound>& found() const { return found_; }
  // What is wrong with the tables on disk, each problem once: a directory that cannot be read, a
  // layer missing below the highest (the tables stop below it).
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  std::string directory_;
  std::map<std::string, std::unique_ptr<db::TableValues>> values_;  // by table name
  std::vector<TablesFound> found_;
  std::vector<std::string> warnings_;
};

}  // namespace mancala::service
