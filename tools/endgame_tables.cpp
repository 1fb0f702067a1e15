#include "tools/endgame_tables.h"

namespace mancala::cli {

std::unique_ptr<db::TableValues> open_table_values(const Rules& rules, const std::string& db_dir,
                                                   std::string* why_not) {
  const std::string dir = db_dir.empty() ? db::default_database_directory() : db_dir;
  Expected<std::shared_ptr<const db::TableSet>> set = db::TableSet::open(dir, rules);
  if (!set) {
    if (why_not) *why_not = set.error();
    return nullptr;
  }
  if ((*set)->max_seeds() < 0) {
    if (why_not)
      *why_not = "no " + rules.table_name() + " tables in " + dir +
                 " (build them with: mancala db build " + rules.name() + " --max-seeds 16)";
    return nullptr;
  }
  return std::make_unique<db::TableValues>(*set);
}

}  // namespace mancala::cli
