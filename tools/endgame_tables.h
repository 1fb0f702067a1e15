// Building computer players for the commands: levels, time budget, and the endgame tables for
// level 6 (and for analyse and solve).
#pragma once

#include <memory>
#include <string>

#include "db/table_values.h"
#include "solver/search/players.h"

namespace mancala::cli {

// The game's tables in `db_dir` (empty: the default directory), or null with a reason in
// `why_not` when there are none for this game.
std::unique_ptr<db::TableValues> open_table_values(const Rules& rules, const std::string& db_dir,
                                                   std::string* why_not);

}  // namespace mancala::cli
