#include "db/table_set.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "solver/tables/table_rules.h"

namespace mancala::db {

std::string default_database_directory() {
  if (const char* env = std::getenv("MANCALA_DB"); env && *env) return env;
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.local/share/mancala/db";
  return "mancala-db";
}

std::string preferred_layer_path(const std::string& table_dir, int seeds) {
  for (const std::string& name : {plain_layer_file_name(seeds), layer_file_name(seeds)})
    if (std::filesystem::exists(table_dir + "/" + name)) return table_dir + "/" + name;
  return "";
}

std::vector<std::string> table_directories(const std::string& path) {
  std::vector<std::string> tables;
  if (!preferred_layer_path(path, 0).empty()) return {path};
  if (std::filesystem::is_directory(path))
    for (const auto& entry : std::filesystem::directory_iterator(path))
      if (entry.is_directory() && !preferred_layer_path(entry.path().string(), 0).empty())
        tables.push_back(entry.path().string());
  std::sort(tables.begin(), tables.end());
  return tables;
}

Expected<std::shared_ptr<const TableSet>> TableSet::open(const std::string& database_dir,
                                                         const Rules& game_rules) {
  Expected<Rules> rules = table_rules_for(game_rules);
  if (!rules) return Error{rules.error()};
  auto set = std::make_shared<TableSet>();
  set->table_name_ = game_rules.table_name();
  set->houses_ = game_rules.houses;
  set->directory_ = database_dir + "/" + table_directory_name(set->table_name_);
  std::vector<std::string> paths;
  while (static_cast<int>(paths.size()) <= kMaxTableSeeds) {
    std::string path = preferred_layer_path(set->directory_, static_cast<int>(paths.size()));
    if (path.empty()) break;
    paths.push_back(std::move(path));
  }
  set->max_seeds_ = static_cast<int>(paths.size()) - 1;
  set->index_ = std::make_unique<TableIndex>(2 * set->houses_, std::max(0, set->max_seeds_));
  set->layers_ = std::make_unique<LayerSlot[]>(paths.size());
  for (size_t s = 0; s < paths.size(); ++s) set->layers_[s].path = std::move(paths[s]);
  return std::shared_ptr<const TableSet>(std::move(set));
}

Expected<std::shared_ptr<const TableFile>> TableSet::layer(int seeds) const {
  if (seeds < 0 || seeds > max_seeds_)
    return Error{"no table layer for " + std::to_string(seeds) + " seeds in " + directory_};
  LayerSlot& slot = layers_[static_cast<size_t>(seeds)];
  std::call_once(slot.once, [&] {
    Expected<std::shared_ptr<const TableFile>> file =
        TableFile::open(slot.path, table_name_, houses_, seeds);
    if (file)
      slot.file = *file;
    else
      slot.error = file.error();
  });
  if (!slot.file) return Error{slot.error};
  return slot.file;
}

ProbeResult TableSet::probe_key(int seeds, const TableKey& key) const {
  ProbeResult result;
  if (seeds > max_seeds_) {
    result.status = ProbeStatus::NotCovered;
    result.message = "the position has " + std::to_string(seeds) + " seeds on the board; the " +
                     table_name_ + " tables in " + directory_ + " hold up to " +
                     std::to_string(max_seeds_);
    return result;
  }
  Expected<std::shared_ptr<const TableFile>> file = layer(seeds);
  if (!file) {
    result.message = file.error();
    return result;
  }
  Expected<int> value = (*file)->value(index_->rank(key.counts.data()));
  if (!value) {
    result.message = value.error();
    return result;
  }
  result.status = ProbeStatus::Ok;
  result.value = *value;
  return result;
}

ProbeResult TableSet::probe(const Position& position) const {
  if (position.houses != houses_) {
    ProbeResult result;
    result.message = "the position has " + std::to_string(position.houses) +
                     " houses a side; the tables have " + std::to_string(houses_);
    return result;
  }
  const int seeds = position.seeds_in_houses(Side::South) + position.seeds_in_houses(Side::North);
  return probe_key(seeds, table_key(position));
}

}  // namespace mancala::db
