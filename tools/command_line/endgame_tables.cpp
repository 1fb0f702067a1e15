#include "tools/command_line/endgame_tables.h"

#include <fmt/core.h>

#include "solver/tables/table_rules.h"
#include "tools/command_line/cli.h"

namespace mancala::cli {

db::ProbeFailureHandler warn_on_probe_failure(const std::string& instead) {
  return [instead](const std::string& message) {
    warn("endgame table probe failed: " + message + "; " + instead);
  };
}

std::unique_ptr<db::TableValues> open_table_values(const Rules& rules, const std::string& db_dir,
                                                   std::string* why_not, const std::string& instead,
                                                   bool* unreadable) {
  const std::string dir = database_directory(db_dir);
  if (unreadable) *unreadable = false;
  if (!table_rules_for(rules)) {
    if (why_not) *why_not = rules.name() + " has no endgame tables";
    return nullptr;
  }
  Expected<std::shared_ptr<const db::TableSet>> set = db::TableSet::open(dir, rules);
  if (!set) {
    if (why_not) *why_not = set.error();
    if (unreadable) *unreadable = true;
    return nullptr;
  }
  if (!(*set)->gap_warning().empty()) warn((*set)->gap_warning());
  if ((*set)->max_seeds() < 0) {
    if (why_not)
      *why_not = "no " + rules.table_name() + " tables in " + dir +
                 " (build them with: mancala db build " + rules.name() + " --max-seeds 16)";
    return nullptr;
  }
  return std::make_unique<db::TableValues>(*set, warn_on_probe_failure(instead));
}

std::string tables_note(int max_seeds, uint64_t failed_probes) {
  return fmt::format(
      ", endgame tables up to {} seeds{}", max_seeds,
      failed_probes ? fmt::format(" ({} probes failed: see the warning)", failed_probes) : "");
}

}  // namespace mancala::cli
