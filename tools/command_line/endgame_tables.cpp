#include "tools/command_line/endgame_tables.h"

#include <fmt/core.h>

#include "tools/command_line/command_line.h"
#include "tools/service/game_tables.h"

namespace mancala::command_line {

db::ProbeFailureHandler warn_on_probe_failure(const std::string& instead) {
  return [instead](const std::string& message) {
    warn("endgame table probe failed: " + message + "; " + instead);
  };
}

std::string build_command(const Rules& rules) {
  return "mancala db build " + rules.name() + " --max-seeds 16";
}

std::string build_advice(const Rules& rules) {
  return " (build them with: " + build_command(rules) + ")";
}

std::string tables_advice(const Rules& rules, const service::GameTables& tables) {
  if (tables.problem != service::TablesProblem::NoneBuilt) return tables.reason;
  return tables.reason + build_advice(rules);
}

std::string with_build_advice(const std::string& message, const Rules& rules,
                              const std::string& db_dir) {
  if (service::open_game_tables(rules, db_dir).problem != service::TablesProblem::NoneBuilt)
    return message;
  return message + "; build them with: " + build_command(rules);
}

void warn_layer_gap(const std::string& gap) {
  if (!gap.empty()) warn(gap + " (mancala db build rebuilds what is missing)");
}

std::unique_ptr<db::TableValues> open_table_values(const Rules& rules, const std::string& db_dir,
                                                   std::string* why_not, const std::string& instead,
                                                   bool* unreadable) {
  service::GameTables tables =
      service::open_game_tables(rules, db_dir, warn_on_probe_failure(instead));
  if (unreadable) *unreadable = tables.problem == service::TablesProblem::Unreadable;
  warn_layer_gap(tables.gap_warning);
  if (!tables && why_not) *why_not = tables_advice(rules, tables);
  return std::move(tables.values);
}

std::string tables_note(int max_seeds, uint64_t failed_probes) {
  return fmt::format(
      ", endgame tables up to {} seeds{}", max_seeds,
      failed_probes ? fmt::format(" ({} probes failed: see the warning)", failed_probes) : "");
}

}  // namespace mancala::command_line
