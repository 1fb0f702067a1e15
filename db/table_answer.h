// A position and every move from it valued from a database directory's tables, for `mancala db
// query` and the doors that read files (the answer itself: solver/tables/table_answer.h).
#pragma once

#include "db/table_values.h"
#include "solver/rules/position.h"
#include "solver/rules/rules.h"
#include "solver/tables/table_answer.h"

namespace mancala::db {

using mancala::best_first;
using mancala::TableAnswer;
using mancala::TableMoveValue;

// value_every_move (solver/tables/table_answer.h) over the files' tables, the reason for a
// position not covered naming their directory, and a failure this call's own.
TableAnswer value_every_move(const Rules& rules, const db::TableValues& tables, const Position& p);

}  // namespace mancala::db
