#include "tools/table_answer.h"

#include <algorithm>

#include "solver/moves.h"
#include "solver/retrograde.h"

namespace mancala {

std::vector<TableMoveValue> best_first(std::vector<TableMoveValue> moves) {
  std::stable_sort(
      moves.begin(), moves.end(),
      [](const TableMoveValue& a, const TableMoveValue& b) { return a.value > b.value; });
  return moves;
}

TableAnswer value_every_move(const Rules& rules, const db::TableSet& tables, const Position& p) {
  TableAnswer answer;
  const Expected<Rules> table_rules = table_rules_for(rules);
  if (!table_rules) {
    answer.status = db::ProbeStatus::NotCovered;
    answer.message = table_rules.error();
    return answer;
  }
  const int seeds = p.seeds_on_board();
  if (seeds > tables.max_seeds()) {
    answer.status = db::ProbeStatus::NotCovered;
    answer.message = to_string(p) + " has " + std::to_string(seeds) + " seeds on the board; the " +
                     rules.table_name() + " tables in " + tables.directory() + " hold up to " +
                     std::to_string(tables.max_seeds()) +
                     (tables.max_seeds() < 0 ? " (none built: run mancala db build)" : "");
    return answer;
  }
  const db::ProbeResult root = tables.probe(p);
  if (!root.ok()) {
    answer.status = root.status;
    answer.message = root.message;
    return answer;
  }
  answer.status = db::ProbeStatus::Ok;
  answer.value = root.value;
  // A game already over by its own rules has no moves left, and its final score is what the
  // rules give, whatever the tables say about playing on (the tables never apply the Oware
  // majority rule: their positions have empty stores).
  if (is_game_over(rules, p)) {
    const Outcome end = final_outcome(rules, p);
    answer.value =
        (p.side_to_move == Side::South ? end.difference() : -end.difference()) - p.mover_lead();
    return answer;
  }
  for (Move m : generate_moves(*table_rules, p)) {
    db::ProbeResult child;
    const int value = table_move_value(p, apply_move(*table_rules, p, m), [&](const Position& q) {
      child = tables.probe(q);
      return child.value;
    });
    if (!child.ok()) {
      answer.status = child.status;
      answer.message = child.message;
      answer.moves.clear();
      return answer;
    }
    answer.moves.push_back({m, value});
  }
  return answer;
}

}  // namespace mancala
