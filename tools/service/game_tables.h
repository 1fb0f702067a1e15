// Opening a game's endgame tables for a door: the tables, or why there are none, as a value.
// Every door opens tables here and words the reason for its users (the command line adds which
// command builds them, Python which function, the HTTP API answers 404).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "db/table_set.h"
#include "db/table_values.h"
#include "solver/rules/rules.h"
#include "solver/util/expected.h"

namespace mancala::service {

enum class TablesProblem : uint8_t {
  None,             // opened
  GameHasNoTables,  // Congkak, Kalah with more than 6 houses: no tables exist for this game
  NoneBuilt,        // the game has tables, but the directory holds none of them
  Unreadable,       // the directory or a layer cannot be read
};

struct GameTables {
  std::unique_ptr<db::TableValues> values;  // null unless problem is None
  TablesProblem problem = TablesProblem::None;
  std::string reason;       // a sentence of fact when not opened ("no kalah:6 tables in DIR")
  std::string directory;    // the database directory that was read
  std::string gap_warning;  // a layer missing below the highest: the tables stop below it

  explicit operator bool() const { return values != nullptr; }
  int max_seeds() const { return values ? values->tables().max_seeds() : -1; }
};

// The database directory a door was given, or the default one ($MANCALA_DB, else
// ~/.local/share/mancala/db) when `given` is empty.
std::string database_directory(const std::string& given);

// The tables of `rules`'s game in `database_dir` (empty: the default directory). `on_probe_failure`
// is called on the first failed probe (a layer damaged while in use), with the reason.
GameTables open_game_tables(const Rules& rules, const std::string& database_dir,
                            db::ProbeFailureHandler on_probe_failure = {});

// The same from the layers already found in `directory` (db::TableSet::open's answer), for a
// caller that looked at them first (the server's shelf, deciding whether a game changed).
GameTables game_tables_from(const Rules& rules, const std::string& directory,
                            const Expected<std::shared_ptr<const db::TableSet>>& set,
                            db::ProbeFailureHandler on_probe_failure = {});

}  // namespace mancala::service
