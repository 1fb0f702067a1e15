#include "db/table_answer.h"

#include "db/file_io.h"

namespace mancala::db {

TableAnswer value_every_move(const Rules& rules, const db::TableValues& tables, const Position& p) {
  // A fresh view of the same tables, so that the failure it reports is this call's.
  const db::TableValues values(tables.shared_tables());
  return mancala::value_every_move(rules, values, p,
                                   "in " + shown_path(tables.tables().directory()));
}

}  // namespace mancala::db
