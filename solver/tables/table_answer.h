// A position and every move from it valued from the endgame tables, with the reason when the
// tables cannot say: what `mancala db query` prints and the JSON API's /tables answers, from any
// source of exact values (the files of a database directory, tables built in memory).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "solver/rules/position.h"
#include "solver/rules/rules.h"
#include "solver/tables/exact_values.h"

namespace mancala {

struct TableMoveValue {
  Move move = 0;
  int value = 0;  // for the mover: its gain by the move and what follows with perfect play
};

struct TableAnswer {
  ProbeStatus status = ProbeStatus::Failed;
  std::string message;                // why not, unless Ok
  int value = 0;                      // the position's table value for the side to move
  std::vector<TableMoveValue> moves;  // every legal move, in house order

  bool ok() const { return status == ProbeStatus::Ok; }
};

// The moves best first, ties in house order.
inline std::vector<TableMoveValue> best_first(std::vector<TableMoveValue> moves) {
  std::stable_sort(
      moves.begin(), moves.end(),
      [](const TableMoveValue& a, const TableMoveValue& b) { return a.value > b.value; });
  return moves;
}

// Values `p` and each of its moves on the tables' count (probe_tables_count): a game over by its
// own rules (the Oware majority) is worth what the rules give, with no moves. NotCovered when the
// tables hold fewer seeds than `p` has on the board, its message naming the tables by `place`
// ("in DIR", "built in this browser"); Failed, with the source's first failure, when a probe the
// tables should answer failed.
TableAnswer value_every_move(const Rules& rules, const ExactValues& tables, const Position& p,
                             const std::string& place);

}  // namespace mancala
