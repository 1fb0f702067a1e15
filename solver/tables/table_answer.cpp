#include "solver/tables/table_answer.h"

#include "solver/tables/table_rules.h"

namespace mancala {

TableAnswer value_every_move(const Rules& rules, const ExactValues& tables, const Position& p,
                             const std::string& place) {
  TableAnswer answer;
  const Expected<Rules> table_rules = table_rules_for(rules);
  if (!table_rules) {
    answer.status = ProbeStatus::NotCovered;
    answer.message = table_rules.error();
    return answer;
  }
  const RootProbe probe = probe_tables_count(rules, tables, p);
  answer.status = probe.status;
  if (probe.status == ProbeStatus::NotCovered) {
    // The root probe decided it (the one check of the seeds on the way to the tables' bytes).
    answer.message =
        to_string(p) + " has " + std::to_string(p.seeds_on_board()) + " seeds on the board; " +
        (tables.max_seeds() < 0 ? "there are no " + rules.table_name() + " tables " + place
                                : "the " + rules.table_name() + " tables " + place +
                                      " hold up to " + std::to_string(tables.max_seeds()));
    return answer;
  }
  if (probe.status == ProbeStatus::Failed) {
    answer.message = tables.first_failure();
    return answer;
  }
  answer.value = probe.value;
  for (int i = 0; i < probe.count; ++i)
    answer.moves.push_back(
        {probe.moves[static_cast<size_t>(i)], probe.move_values[static_cast<size_t>(i)]});
  return answer;
}

}  // namespace mancala
