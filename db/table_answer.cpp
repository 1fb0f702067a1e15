#include "db/table_answer.h"

#include "db/file_io.h"
#include "solver/rules/moves.h"
#include "solver/tables/exact_values.h"
#include "solver/tables/table_rules.h"

namespace mancala::db {

TableAnswer value_every_move(const Rules& rules, const db::TableValues& tables, const Position& p) {
  TableAnswer answer;
  const Expected<Rules> table_rules = table_rules_for(rules);
  if (!table_rules) {
    answer.status = ProbeStatus::NotCovered;
    answer.message = table_rules.error();
    return answer;
  }
  // A fresh view of the same tables, so that the failure it reports is this call's.
  const db::TableValues values(tables.shared_tables());
  const RootProbe probe = probe_tables_count(rules, values, p);
  answer.status = probe.status;
  if (probe.status == ProbeStatus::NotCovered) {
    // The root probe decided it (the one check of the seeds on the way to the tables' bytes).
    const db::TableSet& set = tables.tables();
    answer.message =
        to_string(p) + " has " + std::to_string(p.seeds_on_board()) + " seeds on the board; " +
        (set.max_seeds() < 0
             ? "there are no " + rules.table_name() + " tables in " + shown_path(set.directory())
             : "the " + rules.table_name() + " tables in " + shown_path(set.directory()) +
                   " hold up to " + std::to_string(set.max_seeds()));
    return answer;
  }
  if (probe.status == ProbeStatus::Failed) {
    answer.message = values.first_failure();
    return answer;
  }
  answer.value = probe.value;
  for (int i = 0; i < probe.count; ++i)
    answer.moves.push_back(
        {probe.moves[static_cast<size_t>(i)], probe.move_values[static_cast<size_t>(i)]});
  return answer;
}

}  // namespace mancala::db
