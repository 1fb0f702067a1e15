#include "tools/service/game_tables.h"

#include "db/file_io.h"
#include "solver/tables/table_rules.h"

namespace mancala::service {

std::string database_directory(const std::string& given) {
  return given.empty() ? db::default_database_directory() : given;
}

GameTables open_game_tables(const Rules& rules, const std::string& database_dir,
                            db::ProbeFailureHandler on_probe_failure) {
  if (Expected<Rules> table_rules = table_rules_for(rules); !table_rules) {
    GameTables out;
    out.directory = database_directory(database_dir);
    out.problem = TablesProblem::GameHasNoTables;
    out.reason = table_rules.error();
    return out;
  }
  const std::string directory = database_directory(database_dir);
  return game_tables_from(rules, directory, db::TableSet::open(directory, rules),
                          std::move(on_probe_failure));
}

GameTables game_tables_from(const Rules& rules, const std::string& directory,
                            const Expected<std::shared_ptr<const db::TableSet>>& set,
                            db::ProbeFailureHandler on_probe_failure) {
  GameTables out;
  out.directory = directory;
  if (!set) {
    out.problem = TablesProblem::Unreadable;
    out.reason = set.error();
    return out;
  }
  out.gap_warning = (*set)->gap_warning();
  if ((*set)->max_seeds() < 0) {
    out.problem = TablesProblem::NoneBuilt;
    out.reason = "no " + rules.table_name() + " tables in " + db::shown_path(out.directory);
    return out;
  }
  out.values = std::make_unique<db::TableValues>(*set, std::move(on_probe_failure));
  return out;
}

}  // namespace mancala::service
