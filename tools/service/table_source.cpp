#include "tools/service/table_source.h"

#include <algorithm>

#include "solver/tables/table_rules.h"

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

}  // namespace mancala::service
