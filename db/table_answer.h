// A position and every move from it valued from the endgame tables: what `mancala db query`
// prints, for the web API's /tables and /analyse answers.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "db/table_set.h"
#include "db/table_values.h"
#include "solver/rules/position.h"
#include "solver/rules/rules.h"

namespace mancala::db {

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

// Values `p` and each of its moves with the root probe (solver/tables/exact_values.h), as `db
// query` does: the values the tables store, except that a game over by its own rules (the Oware
// majority) is worth what the rules give, with no moves. NotCovered when the tables hold fewer
// seeds than `p` has on the board, Failed (with the reason) when a layer cannot be read.
TableAnswer value_every_move(const Rules& rules, const db::TableValues& tables, const Position& p);

}  // namespace mancala::db
