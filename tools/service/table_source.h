// Where a door that answers many games gets each game's endgame tables: the files of a database
// directory (TableShelf, tools/service/catalogue.h) or tables built in memory (the browser's
// engine, tools/wasm). The JSON API (tools/api) reads only this interface, so that it is the same
// code in the server and in the browser.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "solver/rules/rules.h"
#include "solver/tables/exact_values.h"

namespace mancala::service {

// One table name ("kalah:6", "oware:abapa") for every game that has tables, each once, in the
// order of game_forms(): sizes, then variants.
std::vector<Rules> games_with_tables();

struct TablesFound {
  std::string table;  // "kalah:6"
  int max_seeds = -1;
};

// Safe to use from any number of threads. A request holds its game's tables (values_for) for as
// long as it runs, so that tables a rescan replaces are let go only when the last request using
// them is done.
class TableSource {
 public:
  virtual ~TableSource() = default;
  // The tables of `rules`'s game, or null when there are none.
  virtual std::shared_ptr<const ExactValues> values_for(const Rules& rules) const = 0;
  // Every game's tables there are, in games_with_tables()'s order.
  virtual std::vector<TablesFound> found() const = 0;
  // Looks for tables again (layers written since); true when any game's tables changed.
  virtual bool rescan() = 0;
  // Where the tables are, to end a sentence about them: "in /srv/db", "built in this browser".
  virtual std::string place() const = 0;
};

}  // namespace mancala::service
