#include "db/table_set.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "db/file_io.h"
#include "solver/tables/table_rules.h"

namespace mancala::db {

std::string default_database_directory() {
  if (const char* env = std::getenv("MANCALA_DB"); env && *env) return env;
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.local/share/mancala/db";
  return "mancala-db";
}

Expected<LayerFiles> layer_files(const std::string& table_dir, int seeds) {
  LayerFiles files;
  for (const bool plain : {false, true}) {
    const std::string path =
        table_dir + "/" + (plain ? plain_layer_file_name(seeds) : layer_file_name(seeds));
    Expected<PathKind> kind = path_kind(path);
    if (!kind) return Error{kind.error()};
    (plain ? files.plain : files.compressed) = *kind != PathKind::Missing;
  }
  return files;
}

Expected<std::string> preferred_layer_path(const std::string& table_dir, int seeds) {
  Expected<LayerFiles> files = layer_files(table_dir, seeds);
  if (!files) return Error{files.error()};
  if (files->plain) return table_dir + "/" + plain_layer_file_name(seeds);
  if (files->compressed) return table_dir + "/" + layer_file_name(seeds);
  return std::string();
}

std::string LayerScan::gap_message(const std::string& table_dir) const {
  if (missing.empty()) return "";
  std::string list;
  for (size_t i = 0; i < missing.size(); ++i) list += (i ? ", " : "") + std::to_string(missing[i]);
  return shown_path(table_dir) + ": layer" + (missing.size() > 1 ? "s " : " ") + list +
         (missing.size() > 1 ? " are" : " is") + " missing (no " +
         layer_file_name(missing.front()) + "), so the tables are used up to " +
         std::to_string(covered) + " seeds and layers " + std::to_string(covered + 2) + ".." +
         std::to_string(top) + " on disk are not";
}

Expected<LayerScan> scan_layers(const std::string& table_dir) {
  LayerScan scan;
  // A directory that exists but cannot be read is an error here, not "no tables".
  Expected<PathKind> kind = path_kind(table_dir);
  if (!kind) return Error{kind.error()};
  if (*kind == PathKind::Missing) return scan;
  if (*kind != PathKind::Directory) return Error{table_dir + ": is not a directory"};
  std::vector<LayerFiles> all;
  for (int s = 0; s <= kMaxTableSeeds; ++s) {
    Expected<LayerFiles> files = layer_files(table_dir, s);
    if (!files) return Error{files.error()};
    all.push_back(*files);
    if (files->any()) scan.top = s;
  }
  all.resize(static_cast<size_t>(scan.top + 1));
  scan.layers = std::move(all);
  while (scan.covered < scan.top && scan.layers[static_cast<size_t>(scan.covered + 1)].any())
    ++scan.covered;
  for (int s = scan.covered + 1; s < scan.top; ++s)
    if (!scan.layers[static_cast<size_t>(s)].any()) scan.missing.push_back(s);
  return scan;
}

Expected<std::vector<std::string>> table_directories(const std::string& path) {
  Expected<std::string> own = preferred_layer_path(path, 0);
  if (!own) return Error{own.error()};
  if (!own->empty()) return std::vector<std::string>{path};
  Expected<PathKind> kind = path_kind(path);
  if (!kind) return Error{kind.error()};
  std::vector<std::string> tables;
  if (*kind != PathKind::Directory) return tables;
  Expected<std::vector<std::string>> names = list_directory(path);
  if (!names) return Error{names.error()};
  for (const std::string& name : *names) {
    const std::string dir = path + "/" + name;
    Expected<PathKind> entry = path_kind(dir);
    if (!entry) return Error{entry.error()};
    if (*entry != PathKind::Directory) continue;
    Expected<std::string> layer0 = preferred_layer_path(dir, 0);
    if (!layer0) return Error{layer0.error()};
    if (!layer0->empty()) tables.push_back(dir);
  }
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
  Expected<LayerScan> scan = scan_layers(set->directory_);
  if (!scan) return Error{scan.error()};
  set->max_seeds_ = scan->covered;
  set->gap_warning_ = scan->gap_message(set->directory_);
  set->index_ = std::make_unique<TableIndex>(2 * set->houses_, std::max(0, set->max_seeds_));
  set->layers_ = std::make_unique<LayerSlot[]>(static_cast<size_t>(set->max_seeds_ + 1));
  for (int s = 0; s <= set->max_seeds_; ++s) {
    const LayerFiles& files = scan->layers[static_cast<size_t>(s)];
    set->layers_[static_cast<size_t>(s)].path =
        set->directory_ + "/" + (files.plain ? plain_layer_file_name(s) : layer_file_name(s));
  }
  return std::shared_ptr<const TableSet>(std::move(set));
}

bool TableSet::layer_is_plain(int seeds) const {
  if (seeds < 0 || seeds > max_seeds_) return false;
  const std::string& path = layers_[static_cast<size_t>(seeds)].path;
  const std::string suffix = ".plain.mtb";
  return path.size() >= suffix.size() &&
         path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

uint64_t TableSet::layer_file_bytes(int seeds) const {
  if (seeds < 0 || seeds > max_seeds_) return 0;
  std::error_code error;
  const uintmax_t bytes =
      std::filesystem::file_size(layers_[static_cast<size_t>(seeds)].path, error);
  return error ? 0 : static_cast<uint64_t>(bytes);
}

Expected<std::shared_ptr<const TableFile>> TableSet::layer(int seeds) const {
  if (seeds < 0 || seeds > max_seeds_)
    return Error{"no table layer for " + std::to_string(seeds) + " seeds in " +
                 shown_path(directory_)};
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
    // No layer at all is max_seeds_ -1: said so, not as tables that "hold up to -1".
    result.message =
        "the position has " + std::to_string(seeds) + " seeds on the board; " +
        (max_seeds_ < 0 ? "there are no " + table_name_ + " tables in " + shown_path(directory_)
                        : "the " + table_name_ + " tables in " + shown_path(directory_) +
                              " hold up to " + std::to_string(max_seeds_));
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
  const int seeds = position.seeds_on_board();
  return probe_key(seeds, table_key(position));
}

}  // namespace mancala::db
