// The endgame tables of the browser's engine: built in memory layer by layer, on first use, by the
// worker that runs the engine, and handed to the page to keep (IndexedDB) and back on the next
// visit. There are no files in a browser and no zstd in its build: a layer is its builder's bytes,
// one a position (solver/tables/retrograde.h).
//
// Contract: one thread (a Web Worker runs the engine on one); a layer is read only once it is
// whole, so the tables reach a seed count exactly when all layers up to it are there.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "solver/tables/layer_progress.h"
#include "solver/tables/retrograde.h"
#include "solver/util/expected.h"
#include "tools/service/table_source.h"

namespace mancala::wasm {

// One game's layers 0..reach(), growing one layer at a time.
class GrowingTables : public ExactValues {
 public:
  // Room for layers 0..ceiling of `rules`'s game (table_rules_for must accept it).
  GrowingTables(const Rules& rules, int ceiling);

  std::optional<int> value(const Position& position) const override;
  int max_seeds() const override { return reach_; }
  int ceiling() const { return builder_.max_seeds(); }
  const RetrogradeBuilder& builder() const { return builder_; }

  // Builds the layer above the reach.
  void build_next(const LayerProgressFn& progress = {});
  // Installs the layer above the reach from bytes kept since it was built; refused when they are
  // not a layer's size.
  Expected<bool> add_kept(std::span<const int8_t> values);

 private:
  RetrogradeBuilder builder_;
  int reach_ = -1;
};

class BrowserTables : public service::TableSource {
 public:
  // The deepest layer a browser's tables go to: the builder's index is sized for it up front.
  // Kalah 6 houses to 20 seeds is 2.1 GB of layers, beyond a browser's memory; the worker builds
  // far less (the page asks), this only bounds what may be asked.
  static constexpr int kCeiling = 20;

  // The game's tables, created empty on first use; null when the game has no tables (Congkak,
  // Kalah above 6 houses).
  GrowingTables* tables_of(const Rules& rules);

  std::shared_ptr<const ExactValues> values_for(const Rules& rules) const override;
  std::vector<service::TablesFound> found() const override;
  // True when a layer was added since the last look.
  bool rescan() override;
  std::string place() const override { return "built in this browser"; }

 private:
  // By table name; a request holds its game's tables (values_for) while it runs.
  std::map<std::string, std::shared_ptr<GrowingTables>> tables_;
  std::map<std::string, int> seen_reach_;  // each game's reach at the last rescan
};

}  // namespace mancala::wasm
