#include "db/table_verify.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>

#include "db/table_file.h"
#include "db/table_set.h"
#include "solver/rules/moves.h"
#include "solver/tables/exact_values.h"
#include "solver/tables/rank_walk.h"
#include "solver/tables/table_index.h"
#include "solver/tables/table_rules.h"
#include "solver/util/thread_count.h"

namespace mancala::db {

namespace {

// Opens one layer file, checks it (the name and houses must agree with layer 0's; the data
// checksum) and reads its values; on failure the error goes to the report.
std::optional<std::vector<int8_t>> read_checked(const std::string& path, int seeds, int threads,
                                                VerifyReport& report, int& houses) {
  Expected<std::shared_ptr<const TableFile>> file =
      TableFile::open(path, report.table_name, report.table_name.empty() ? -1 : houses, seeds);
  if (!file) {
    report.errors.push_back(file.error());
    return std::nullopt;
  }
  if (report.table_name.empty()) {
    report.table_name =
        std::string((*file)->header().name, strnlen((*file)->header().name, kNameSize));
    houses = static_cast<int>((*file)->header().houses);
  }
  Expected<std::vector<int8_t>> values = (*file)->read_all_checked({}, threads);
  if (!values) {
    report.errors.push_back(values.error());
    return std::nullopt;
  }
  return std::move(*values);
}

// The layers read from the files, as the exact values the root probe reads.
class LayerValues : public ExactValues {
 public:
  LayerValues(const std::vector<std::vector<int8_t>>& layers, const TableIndex& index)
      : layers_(layers), index_(index) {}
  std::optional<int> value(const Position& position) const override {
    const int seeds = position.seeds_on_board();
    if (seeds > max_seeds()) return std::nullopt;
    const TableKey key = table_key(position);
    return layers_[static_cast<size_t>(seeds)][index_.rank(key.counts.data())];
  }
  int max_seeds() const override { return static_cast<int>(layers_.size()) - 1; }

 private:
  const std::vector<std::vector<int8_t>>& layers_;
  const TableIndex& index_;
};

}  // namespace

Expected<uint64_t> verify_memory_needed(const std::string& table_dir) {
  Expected<LayerScan> scan = scan_layers(table_dir);
  if (!scan) return Error{scan.error()};
  uint64_t total = 0, largest = 0;
  for (int s = 0; s <= scan->covered; ++s) {
    const LayerFiles& files = scan->layers[static_cast<size_t>(s)];
    const std::string path =
        table_dir + "/" + (files.compressed ? layer_file_name(s) : plain_layer_file_name(s));
    Expected<std::shared_ptr<const TableFile>> file = TableFile::open(path, "", -1, s);
    if (!file) continue;
    total += (*file)->size();
    largest = std::max(largest, (*file)->size());
  }
  return total + largest;
}

Expected<VerifyReport> verify_table_directory(const std::string& table_dir,
                                              const LayerProgressFn& progress, int threads,
                                              size_t keep, uint64_t memory_room) {
  threads = team_size(threads);
  if (memory_room > 0) {
    Expected<uint64_t> needed = verify_memory_needed(table_dir);
    if (!needed) return Error{needed.error()};
    if (*needed > memory_room)
      return Error{table_dir + ": verifying these tables holds every layer's values at once, " +
                   std::to_string((*needed + (1 << 20) - 1) >> 20) + " MB, more than the " +
                   std::to_string(memory_room >> 20) + " MB of memory there is room for"};
  }
  VerifyReport report;
  std::vector<std::vector<int8_t>> layers;
  int houses = 0;
  Expected<LayerScan> scan = scan_layers(table_dir);
  if (!scan) return Error{scan.error()};
  // A layer missing below the highest one on disk is an error: the readers stop below it.
  for (int s : scan->missing)
    report.errors.push_back(table_dir + "/" + layer_file_name(s) + ": missing (layers " +
                            std::to_string(s + 1) + ".." + std::to_string(scan->top) +
                            " are on disk but unusable without it)");
  for (int s = 0; s <= scan->covered; ++s) {
    // Every file of the layer: the compressed one and its plain copy, which must agree.
    const std::string compressed = table_dir + "/" + layer_file_name(s);
    const std::string plain = table_dir + "/" + plain_layer_file_name(s);
    const bool has_compressed = scan->layers[static_cast<size_t>(s)].compressed;
    const bool has_plain = scan->layers[static_cast<size_t>(s)].plain;
    std::optional<std::vector<int8_t>> values, plain_values;
    const size_t errors_before = report.errors.size();
    if (has_compressed) values = read_checked(compressed, s, threads, report, houses);
    if (has_plain) plain_values = read_checked(plain, s, threads, report, houses);
    if (report.errors.size() > errors_before) break;
    if (values && plain_values && *values != *plain_values) {
      const auto differ = std::mismatch(values->begin(), values->end(), plain_values->begin());
      report.errors.push_back(plain + ": differs from " + layer_file_name(s) + " at rank " +
                              std::to_string(differ.first - values->begin()) +
                              " (a stale or corrupt copy: delete it and unpack the tables again)");
      break;
    }
    if (has_plain) ++report.plain_layers;
    layers.push_back(std::move(values ? *values : *plain_values));
    if (progress) progress({s, "checksums", 1, 1});
  }
  if (layers.empty() && report.errors.empty())
    return Error{table_dir + ": no table layers (seeds-00.mtb, ...) found"};
  if (!report.errors.empty()) return report;

  Expected<Rules> game_rules = parse_table_name(report.table_name);
  if (!game_rules) return Error{game_rules.error()};
  Expected<Rules> rules = table_rules_for(*game_rules);
  if (!rules) return Error{rules.error()};
  const int top = static_cast<int>(layers.size()) - 1;
  const TableIndex index(2 * houses, top);

  const LayerValues values(layers, index);

  for (int s = 0; s <= top; ++s) {
    const uint64_t size = index.layer_size(s);
    // Every position's stored value must be what its moves give from the stored values: the
    // root probe under the table rules, the one valuation the search and `db query` use too.
    std::atomic<uint64_t> mismatches{0};
    std::mutex found_mutex;
    std::vector<VerifyMismatch> found;
    for_each_rank(index, s, 0, size, threads, [&](uint64_t r, const TableKey& key) {
      const Position p = position_from_key(key.counts.data(), houses);
      const RootProbe probe = probe_root(*rules, values, p);
      const int stored = layers[static_cast<size_t>(s)][r];
      if (probe.ok() && stored == probe.value) return;
      mismatches.fetch_add(1, std::memory_order_relaxed);
      std::lock_guard<std::mutex> lock(found_mutex);
      if (found.size() < keep) found.push_back({s, r, to_string(p), stored, probe.value});
    });
    std::sort(found.begin(), found.end(),
              [](const auto& a, const auto& b) { return a.rank < b.rank; });
    for (auto& m : found)
      if (report.first_mismatches.size() < keep) report.first_mismatches.push_back(std::move(m));
    report.mismatch_count += mismatches.load();
    report.positions += size;
    report.layers = s + 1;
    if (progress) progress({s, "consistency", size, size});
  }
  return report;
}

}  // namespace mancala::db
