#include "tools/service/solving.h"

#include "db/table_values.h"
#include "solver/search/solve.h"
#include "solver/tables/built_tables.h"
#include "solver/tables/table_rules.h"

namespace mancala::service {

size_t solve_transposition_megabytes(std::optional<size_t> asked, bool over_built_tables,
                                     const Rules& rules, const Position& position) {
  if (asked) return *asked;
  if (over_built_tables) return kTranspositionMegabytesOverBuiltTables;
  const bool small = rules.kind != GameKind::Oware &&
                     position.seeds_on_board() * rules.houses <= kSmallSolveSeedsTimesHouses;
  return small ? kSmallSolveTranspositionMegabytes : kSolveTranspositionMegabytes;
}

int seeds_to_build_before_solving(const Rules& rules, const Position& position,
                                  int tables_max_seeds, std::optional<int> asked) {
  if (!table_rules_for(rules)) return -1;
  const int wanted = asked ? *asked : seeds_worth_building(rules, position);
  return wanted > tables_max_seeds ? wanted : -1;
}

SolveMemory solve_memory(const db::DecodedTableValues& tables, const Solver& solver) {
  SolveMemory need;
  need.decoded_tables = tables.decoded_bytes();
  need.table_files = tables.in_place_file_bytes();
  need.transposition = solver.transposition_words() * sizeof(uint64_t);
  return need;
}

}  // namespace mancala::service
