#include "tools/service/catalogue.h"

#include <algorithm>

#include "db/file_io.h"
#include "solver/tables/table_rules.h"
#include "tools/service/game_tables.h"

namespace mancala::service {

TableShelf::TableShelf(const std::string& database_dir,
                       const db::ProbeFailureHandler& on_probe_failure)
    : directory_(database_directory(database_dir)), on_probe_failure_(on_probe_failure) {
  scan(values_, warnings_);
}

TableShelf::~TableShelf() = default;

void TableShelf::scan(std::map<std::string, Shelved>& values,
                      std::vector<std::string>& warnings) const {
  warnings.clear();
  for (const Rules& rules : games_with_tables()) {
    const std::string name = rules.table_name();
    // Finding the layers reads the directory only; the files are opened on first probe.
    const Expected<std::shared_ptr<const db::TableSet>> set = db::TableSet::open(directory_, rules);
    const int reach = set ? (*set)->max_seeds() : -1;
    const auto kept = values.find(name);
    if (kept != values.end() && kept->second.max_seeds == reach && reach >= 0) {
      if (!(*set)->gap_warning().empty() &&
          std::find(warnings.begin(), warnings.end(), (*set)->gap_warning()) == warnings.end())
        warnings.push_back((*set)->gap_warning());
      continue;
    }
    GameTables tables = game_tables_from(rules, directory_, set, on_probe_failure_);
    // Each problem once (an unreadable database directory fails every game alike).
    const std::string problem =
        tables.problem == TablesProblem::Unreadable ? tables.reason : tables.gap_warning;
    if (!problem.empty() && std::find(warnings.begin(), warnings.end(), problem) == warnings.end())
      warnings.push_back(problem);
    if (!tables) {
      values.erase(name);
      continue;
    }
    const int max_seeds = tables.max_seeds();
    values[name] =
        Shelved{std::shared_ptr<const db::TableValues>(std::move(tables.values)), max_seeds};
  }
}

bool TableShelf::rescan() {
  std::map<std::string, Shelved> values;
  {
    std::shared_lock lock(mutex_);
    values = values_;
  }
  std::vector<std::string> warnings;
  scan(values, warnings);
  std::unique_lock lock(mutex_);
  const auto reach = [](const std::map<std::string, Shelved>& m) {
    std::vector<std::pair<std::string, int>> out;
    for (const auto& [name, shelved] : m) out.emplace_back(name, shelved.max_seeds);
    return out;
  };
  const bool changed = reach(values) != reach(values_) || warnings != warnings_;
  values_ = std::move(values);
  warnings_ = std::move(warnings);
  return changed;
}

std::shared_ptr<const ExactValues> TableShelf::values_for(const Rules& rules) const {
  if (!table_rules_for(rules)) return nullptr;
  std::shared_lock lock(mutex_);
  const auto it = values_.find(rules.table_name());
  return it == values_.end() ? nullptr : it->second.values;
}

std::string TableShelf::place() const {
  return "in " + db::shown_path(directory_);
}

std::vector<TablesFound> TableShelf::found() const {
  std::vector<TablesFound> out;
  std::shared_lock lock(mutex_);
  // In the catalogue's order, not the map's.
  for (const Rules& rules : games_with_tables())
    if (const auto it = values_.find(rules.table_name()); it != values_.end())
      out.push_back({it->first, it->second.max_seeds});
  return out;
}

std::vector<std::string> TableShelf::warnings() const {
  std::shared_lock lock(mutex_);
  return warnings_;
}

}  // namespace mancala::service
