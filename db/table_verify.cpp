#include "db/table_verify.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <random>

#include "db/probe_failures.h"
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

// A layer missing below the highest one on disk is an error: the readers stop below it.
void report_missing_layers(const std::string& table_dir, const LayerScan& scan,
                           VerifyReport& report) {
  for (int s : scan.missing)
    report.errors.push_back(table_dir + "/" + layer_file_name(s) + ": missing (layers " +
                            std::to_string(s + 1) + ".." + std::to_string(scan.top) +
                            " are on disk but unusable without it)");
}

// A plain copy holding another value than its layer's compressed file at `rank`.
std::string copy_differs(const std::string& plain_path, int seeds, uint64_t rank) {
  return plain_path + ": differs from " + layer_file_name(seeds) + " at rank " +
         std::to_string(rank) + " (a stale or corrupt copy: delete it and unpack the tables again)";
}

// The table rules of the tables named `table_name`, under which the verify recomputes values.
Expected<Rules> verified_rules(const std::string& table_name) {
  Expected<Rules> game_rules = parse_table_name(table_name);
  if (!game_rules) return Error{game_rules.error()};
  return table_rules_for(*game_rules);
}

// The mismatches of one layer, found by several threads at once: all counted, the first `keep`
// found kept; then into the report, the kept ones by rank.
class LayerMismatches {
 public:
  explicit LayerMismatches(size_t keep) : keep_(keep) {}
  void found(VerifyMismatch mismatch) {
    count_.fetch_add(1, std::memory_order_relaxed);
    std::lock_guard<std::mutex> lock(mutex_);
    if (kept_.size() < keep_) kept_.push_back(std::move(mismatch));
  }
  void add_to(VerifyReport& report) {
    std::sort(kept_.begin(), kept_.end(),
              [](const auto& a, const auto& b) { return a.rank < b.rank; });
    for (auto& m : kept_)
      if (report.first_mismatches.size() < keep_) report.first_mismatches.push_back(std::move(m));
    report.mismatch_count += count_.load();
  }

 private:
  size_t keep_;
  std::atomic<uint64_t> count_{0};
  std::mutex mutex_;
  std::vector<VerifyMismatch> kept_;  // guarded by mutex_
};

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

// The layers' files, read in place as probes read them (verify_table_sample): layer s from its
// compressed file, else from its plain copy.
class FileValues : public ExactValues {
 public:
  FileValues(const std::vector<std::shared_ptr<const TableFile>>& files, const TableIndex& index)
      : files_(files), index_(index) {}
  std::optional<int> value(const Position& position) const override {
    const int seeds = position.seeds_on_board();
    if (seeds > max_seeds()) return std::nullopt;
    const TableKey key = table_key(position);
    Expected<int> v = files_[static_cast<size_t>(seeds)]->value(index_.rank(key.counts.data()));
    if (v) return *v;
    failures_.record(v.error());
    return std::nullopt;
  }
  int max_seeds() const override { return static_cast<int>(files_.size()) - 1; }
  uint64_t failures() const override { return failures_.count(); }
  std::string first_failure() const override { return failures_.first(); }
  void record_failure(const std::string& message) const { failures_.record(message); }

 private:
  const std::vector<std::shared_ptr<const TableFile>>& files_;
  const TableIndex& index_;
  ProbeFailures failures_;
};

// The ranks of layer `seeds` (of `size` positions) that a sampled verify checks: `per_layer` drawn
// uniformly from a generator seeded by the sampling's seed and the layer, sorted (the probes of
// neighbouring ranks share blocks).
std::vector<uint64_t> drawn_ranks(const VerifySampling& sampling, int seeds, uint64_t size) {
  std::mt19937_64 generator(sampling.seed * 0x9E3779B97F4A7C15u + static_cast<uint64_t>(seeds));
  std::uniform_int_distribution<uint64_t> rank(0, size - 1);
  std::vector<uint64_t> ranks(sampling.per_layer);
  for (uint64_t& r : ranks) r = rank(generator);
  std::sort(ranks.begin(), ranks.end());
  return ranks;
}

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
  report_missing_layers(table_dir, *scan, report);
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
      report.errors.push_back(
          copy_differs(plain, s, static_cast<uint64_t>(differ.first - values->begin())));
      break;
    }
    if (has_plain) ++report.plain_layers;
    layers.push_back(std::move(values ? *values : *plain_values));
    if (progress) progress({s, "checksums", 1, 1});
  }
  if (layers.empty() && report.errors.empty())
    return Error{table_dir + ": no table layers (seeds-00.mtb, ...) found"};
  if (!report.errors.empty()) return report;

  Expected<Rules> rules = verified_rules(report.table_name);
  if (!rules) return Error{rules.error()};
  const int top = static_cast<int>(layers.size()) - 1;
  const TableIndex index(2 * houses, top);

  const LayerValues values(layers, index);

  for (int s = 0; s <= top; ++s) {
    const uint64_t size = index.layer_size(s);
    // Every position's stored value must be what its moves give from the stored values: the
    // root probe under the table rules, the one valuation the search and `db query` use too.
    LayerMismatches mismatches(keep);
    for_each_rank(index, s, 0, size, threads, [&](uint64_t r, const TableKey& key) {
      const Position p = position_from_key(key.counts.data(), houses);
      const RootProbe probe = probe_root(*rules, values, p);
      const int stored = layers[static_cast<size_t>(s)][r];
      if (probe.ok() && stored == probe.value) return;
      mismatches.found({s, r, to_string(p), stored, probe.value});
    });
    mismatches.add_to(report);
    report.positions += size;
    report.layers = s + 1;
    if (progress) progress({s, "consistency", size, size});
  }
  return report;
}

Expected<VerifyReport> verify_table_sample(const std::string& table_dir,
                                           const VerifySampling& sampling,
                                           const LayerProgressFn& progress, int threads,
                                           size_t keep) {
  threads = team_size(threads);
  VerifyReport report;
  Expected<LayerScan> scan = scan_layers(table_dir);
  if (!scan) return Error{scan.error()};
  report_missing_layers(table_dir, *scan, report);
  // Every file of every layer opened and its checksums checked, as the whole verify does; the
  // values are read later, in place.
  std::vector<std::shared_ptr<const TableFile>> files, plain_copies;
  int houses = -1;
  for (int s = 0; s <= scan->covered; ++s) {
    const LayerFiles& present = scan->layers[static_cast<size_t>(s)];
    std::shared_ptr<const TableFile> compressed, plain;
    for (const bool is_plain : {false, true}) {
      if (!(is_plain ? present.plain : present.compressed)) continue;
      const std::string path =
          table_dir + "/" + (is_plain ? plain_layer_file_name(s) : layer_file_name(s));
      Expected<std::shared_ptr<const TableFile>> file =
          TableFile::open(path, report.table_name, houses, s);
      if (!file) {
        report.errors.push_back(file.error());
        continue;
      }
      if (report.table_name.empty()) {
        report.table_name =
            std::string((*file)->header().name, strnlen((*file)->header().name, kNameSize));
        houses = static_cast<int>((*file)->header().houses);
      }
      if (Expected<bool> sound = (*file)->check_data_checksum(); !sound) {
        report.errors.push_back(sound.error());
        continue;
      }
      (is_plain ? plain : compressed) = std::move(*file);
    }
    if (!report.errors.empty()) break;
    if (plain) ++report.plain_layers;
    files.push_back(compressed ? compressed : plain);
    plain_copies.push_back(compressed ? plain : nullptr);
    if (progress) progress({s, "checksums", 1, 1});
  }
  if (files.empty() && report.errors.empty())
    return Error{table_dir + ": no table layers (seeds-00.mtb, ...) found"};
  if (!report.errors.empty()) return report;

  Expected<Rules> rules = verified_rules(report.table_name);
  if (!rules) return Error{rules.error()};
  const int top = static_cast<int>(files.size()) - 1;
  const TableIndex index(2 * houses, top);
  const FileValues values(files, index);

  for (int s = 0; s <= top; ++s) {
    const uint64_t size = index.layer_size(s);
    LayerMismatches mismatches(keep);
    // One position: its stored value (and its plain copy's) against its moves' values, read from
    // the files as the whole verify reads them from memory.
    auto check = [&](uint64_t r, const TableKey& key) {
      const Position p = position_from_key(key.counts.data(), houses);
      const RootProbe probe = probe_root(*rules, values, p);
      Expected<int> stored = files[static_cast<size_t>(s)]->value(r);
      if (!stored) {
        values.record_failure(stored.error());
        return;
      }
      if (const auto& copy = plain_copies[static_cast<size_t>(s)]; copy) {
        Expected<int> copied = copy->value(r);
        if (!copied || *copied != *stored) {
          values.record_failure(copy_differs(copy->path(), s, r));
          return;
        }
      }
      if (probe.ok() && *stored == probe.value) return;
      mismatches.found({s, r, to_string(p), *stored, probe.value});
    };
    uint64_t checked = 0;
    if (size <= sampling.per_layer) {
      for_each_rank(index, s, 0, size, threads, check);
      checked = size;
    } else {
      const std::vector<uint64_t> ranks = drawn_ranks(sampling, s, size);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 64)
      for (size_t i = 0; i < ranks.size(); ++i) {
        TableKey key;
        index.unrank(ranks[i], s, key.counts.data());
        check(ranks[i], key);
      }
      checked = ranks.size();
    }
    // A value that could not be read is the file's error, not a mismatch.
    if (values.failures() > 0) {
      report.errors.push_back(values.first_failure());
      return report;
    }
    mismatches.add_to(report);
    report.positions += checked;
    report.sampled_from += size;
    report.layers = s + 1;
    if (progress) progress({s, "consistency", size, size});
  }
  return report;
}

}  // namespace mancala::db
