// The catalogue of games every door shows: each kind with its sizes, defaults and variants (read
// from the rule book's one table, solver/rules/rules.h game_forms) and the endgame tables found
// for it in a database directory.
#pragma once

#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

#include "db/table_values.h"
#include "solver/rules/rules.h"
#include "tools/service/table_source.h"

namespace mancala::service {

// Every game's tables opened from one database directory, for a server that answers many games.
// Safe to use from any number of threads. The directory can be looked at again (rescan()) while
// requests are answered, so that layers a build writes beside a running server are used as they
// land: a request holds its game's tables (values_for) for as long as it runs, so tables replaced
// by a rescan are closed only when the last request using them is done.
class TableShelf : public TableSource {
 public:
  // Opens every game's tables under `database_dir` (empty: the default directory).
  explicit TableShelf(const std::string& database_dir,
                      const db::ProbeFailureHandler& on_probe_failure = {});
  ~TableShelf();

  const std::string& directory() const { return directory_; }
  // The tables of `rules`'s game (a db::TableValues), or null when none were found.
  std::shared_ptr<const ExactValues> values_for(const Rules& rules) const override;
  std::vector<TablesFound> found() const override;
  // "in DIR".
  std::string place() const override;
  // What is wrong with the tables on disk, each problem once: a directory that cannot be read, a
  // layer missing below the highest (the tables stop below it).
  std::vector<std::string> warnings() const;
  // Looks at the directory again and opens anew each game whose tables now reach a different
  // number of seeds (a finished layer is renamed into place whole, so a layer being written is
  // never seen). A game whose tables did not change keeps its open files and caches. True when
  // any game changed.
  bool rescan() override;

 private:
  struct Shelved {
    std::shared_ptr<const db::TableValues> values;
    int max_seeds = -1;
  };
  // Reads the directory: each game's tables (reusing `kept` where the reach is unchanged) and the
  // warnings.
  void scan(std::map<std::string, Shelved>& values, std::vector<std::string>& warnings) const;

  std::string directory_;
  db::ProbeFailureHandler on_probe_failure_;
  mutable std::shared_mutex mutex_;        // guards values_ and warnings_
  std::map<std::string, Shelved> values_;  // by table name; only games with tables
  std::vector<std::string> warnings_;
};

}  // namespace mancala::service
