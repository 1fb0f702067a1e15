#include "tools/service/catalogue.h"

#include <algorithm>

#include "solver/tables/table_rules.h"
#include "tools/service/game_tables.h"

namespace mancala::service {

std::vector<Rules> games_with_tables() {
  std::vector<Rules> games;
  for (const GameForm& form : game_forms())
    for (int houses = form.min_houses; houses <= form.max_houses; ++houses)
      for (int v = 0; v < form.variant_count; ++v) {
        const Rules rules = rules_of_form(form.kind, houses, form.default_seeds, v);
        if (!table_rules_for(rules)) continue;
        const bool seen = std::any_of(games.begin(), games.end(), [&](const Rules& r) {
          return r.table_name() == rules.table_name();
        });
        if (!seen) games.push_back(rules);
      }
  return games;
}

TableShelf::TableShelf(const std::string& database_dir,
                       const db::ProbeFailureHandler& on_probe_failure)
    : directory_(database_directory(database_dir)) {
  for (const Rules& rules : games_with_tables()) {
    GameTables tables = open_game_tables(rules, directory_, on_probe_failure);
    // Each problem once (an unreadable database directory fails every game alike).
    const std::string problem =
        tables.problem == TablesProblem::Unreadable ? tables.reason : tables.gap_warning;
    if (!problem.empty() &&
        std::find(warnings_.begin(), warnings_.end(), problem) == warnings_.end())
      warnings_.push_back(problem);
    if (!tables) continue;
    found_.push_back({rules.table_name(), tables.max_seeds()});
    values_[rules.table_name()] = std::move(tables.values);
  }
}

TableShelf::~TableShelf() = default;

const db::TableValues* TableShelf::values_for(const Rules& rules) const {
  if (!table_rules_for(rules)) return nullptr;
  const auto it = values_.find(rules.table_name());
  return it == values_.end() ? nullptr : it->second.get();
}

}  // namespace mancala::service
