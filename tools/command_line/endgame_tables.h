// The endgame tables as the command line opens them: through the service layer
// (tools/service/game_tables.h), with its warnings printed and its reasons worded for a terminal.
#pragma once

#include <memory>
#include <string>

#include "db/table_values.h"
#include "solver/search/players.h"
#include "tools/service/game_tables.h"

namespace mancala::command_line {

// A handler for the first failed table probe: prints at once, on standard error, what failed and
// `instead` (what the command does without that value).
db::ProbeFailureHandler warn_on_probe_failure(const std::string& instead);

// The game's tables in `db_dir` (empty: the default directory), or null with a reason in
// `why_not` when there are none for this game or they cannot be read (then `unreadable` is set).
// A layer missing below the highest on disk is warned about now; the first probe that fails
// later is warned about when it happens, saying `instead`.
std::unique_ptr<db::TableValues> open_table_values(const Rules& rules, const std::string& db_dir,
                                                   std::string* why_not, const std::string& instead,
                                                   bool* unreadable = nullptr);

// Why the tables are not there, with the command that builds them when none are built.
std::string tables_advice(const Rules& rules, const service::GameTables& tables);
// The command that builds the game's tables: "mancala db build kalah --max-seeds 16".
std::string build_command(const Rules& rules);
// " (build them with: COMMAND)": what a message about missing tables ends with.
std::string build_advice(const Rules& rules);
// `message` (why a request on the game's tables failed in `db_dir`), with the command that builds
// them when there are none there.
std::string with_build_advice(const std::string& message, const Rules& rules,
                              const std::string& db_dir);
// Warns about a layer missing below the highest on disk (db::TableSet::gap_warning), saying what
// rebuilds it; nothing when `gap` is empty.
void warn_layer_gap(const std::string& gap);

// ", endgame tables up to S seeds" (with how many probes failed, if any) for a summary line.
std::string tables_note(int max_seeds, uint64_t failed_probes);

}  // namespace mancala::command_line
