#include "tools/wasm/browser_tables.h"

#include "solver/tables/table_rules.h"

namespace mancala::wasm {

GrowingTables::GrowingTables(const Rules& rules, int ceiling)
    : builder_(rules, ceiling, LayerMethod::Fastest, 1) {}

std::optional<int> GrowingTables::value(const Position& position) const {
  if (position.seeds_on_board() > reach_) return std::nullopt;
  return builder_.value_of(position);
}

void GrowingTables::build_next(const LayerProgressFn& progress) {
  builder_.build_layer(reach_ + 1, progress);
  ++reach_;
}

Expected<bool> GrowingTables::add_kept(std::span<const int8_t> values) {
  const int seeds = reach_ + 1;
  if (seeds > ceiling()) return Error{"the tables are full"};
  const uint64_t size = builder_.index().layer_size(seeds);
  if (values.size() != size)
    return Error{"layer " + std::to_string(seeds) + " has " + std::to_string(values.size()) +
                 " bytes where it should have " + std::to_string(size)};
  builder_.set_layer(seeds, std::vector<int8_t>(values.begin(), values.end()));
  ++reach_;
  return true;
}

GrowingTables* BrowserTables::tables_of(const Rules& rules) {
  const Expected<Rules> table_rules = table_rules_for(rules);
  if (!table_rules) return nullptr;
  std::shared_ptr<GrowingTables>& tables = tables_[rules.table_name()];
  if (!tables) tables = std::make_shared<GrowingTables>(rules, kCeiling);
  return tables.get();
}

std::shared_ptr<const ExactValues> BrowserTables::values_for(const Rules& rules) const {
  if (!table_rules_for(rules)) return nullptr;
  const auto it = tables_.find(rules.table_name());
  if (it == tables_.end() || it->second->max_seeds() < 0) return nullptr;
  return it->second;
}

std::vector<service::TablesFound> BrowserTables::found() const {
  std::vector<service::TablesFound> out;
  for (const Rules& rules : service::games_with_tables())
    if (const auto it = tables_.find(rules.table_name());
        it != tables_.end() && it->second->max_seeds() >= 0)
      out.push_back({it->first, it->second->max_seeds()});
  return out;
}

bool BrowserTables::rescan() {
  bool changed = false;
  for (const auto& [name, tables] : tables_) {
    int& seen = seen_reach_.try_emplace(name, -1).first->second;
    if (seen != tables->max_seeds()) changed = true;
    seen = tables->max_seeds();
  }
  return changed;
}

}  // namespace mancala::wasm
