#include "solver/tables/table_rules.h"

#include "solver/tables/table_index.h"

namespace mancala {

Expected<Rules> table_rules_for(const Rules& game_rules) {
  if (game_rules.kind == GameKind::Congkak)
    return Error{"there are no endgame tables for Congkak (relay sowing): its levels use search"};
  if (game_rules.kind == GameKind::Kalah && game_rules.houses > kMaxTableHouses)
    return Error{"endgame tables cover Kalah with at most 6 houses"};
  Rules rules = game_rules;
  rules.seeds = static_cast<uint8_t>(kMaxTableSeeds / rules.houses + 1);
  return rules;
}

}  // namespace mancala
