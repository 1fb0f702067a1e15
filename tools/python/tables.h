// mancala.Tables as the searches see it: the tables of one game, shared by the Python objects that
// probe them (a Search or Player keeps its Tables alive).
#pragma once

#include <memory>
#include <string>

#include "db/table_values.h"
#include "solver/rules/rules.h"

namespace mancala::python {

struct TablesObject {
  TablesObject(const Rules& game_rules, const std::string& directory);

  Rules rules;
  std::unique_ptr<db::TableValues> values;
};

}  // namespace mancala::python
