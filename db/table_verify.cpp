#include "db/table_verify.h"

#include <omp.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "db/table_file.h"
#include "solver/moves.h"

namespace mancala::db {

namespace {

// Opens one layer file, checks it (the name and houses must agree with layer 0's; the data
// checksum) and reads its values; on failure the error goes to the report.
std::optional<std::vector<int8_t>> read_checked(const std::string& path, int seeds,
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
  Expected<std::vector<int8_t>> values = (*file)->read_all_checked();
  if (!values) {
    report.errors.push_back(values.error());
    return std::nullopt;
  }
  return std::move(*values);
}

}  // namespace

Expected<VerifyReport> verify_table_directory(const std::string& table_dir,
                                              const BuildProgressFn& progress, size_t keep) {
  VerifyReport report;
  std::vector<std::vector<int8_t>> layers;
  int houses = 0;
  for (int s = 0;; ++s) {
    // Every file of the layer: the compressed one and its plain copy, which must agree.
    const std::string compressed = table_dir + "/" + layer_file_name(s);
    const std::string plain = table_dir + "/" + plain_layer_file_name(s);
    const bool has_compressed = std::filesystem::exists(compressed);
    const bool has_plain = std::filesystem::exists(plain);
    if (!has_compressed && !has_plain) break;
    std::optional<std::vector<int8_t>> values, plain_values;
    if (has_compressed) values = read_checked(compressed, s, report, houses);
    if (has_plain) plain_values = read_checked(plain, s, report, houses);
    if (!report.errors.empty()) break;
    if (values && plain_values && *values != *plain_values) {
      const auto differ = std::mismatch(values->begin(), values->end(), plain_values->begin());
      report.errors.push_back(plain + ": differs from " + layer_file_name(s) + " at rank " +
                              std::to_string(differ.first - values->begin()) +
                              " (a stale or corrupt copy: delete it and run mancala db unpack)");
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

  for (int s = 0; s <= top; ++s) {
    const uint64_t size = index.layer_size(s);
    constexpr uint64_t kChunk = 1 << 14;
    const uint64_t chunks = (size + kChunk - 1) / kChunk;
    uint64_t mismatches = 0;
    std::vector<VerifyMismatch> found;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : mismatches)
    for (uint64_t c = 0; c < chunks; ++c) {
      TableKey key;
      const uint64_t lo = c * kChunk, hi = std::min(size, lo + kChunk);
      index.unrank(lo, s, key.counts.data());
      for (uint64_t r = lo; r < hi; ++r) {
        if (r > lo) next_key(key.counts.data(), index.slots());
        const Position p = position_from_key(key.counts.data(), houses);
        const MoveList moves = generate_moves(*rules, p);
        int expected;
        if (moves.empty()) {
          expected = final_outcome(*rules, p).difference();
        } else {
          expected = -1000;
          for (Move m : moves) {
            const Position child = apply_move(*rules, p, m);
            expected =
                std::max(expected, table_move_value(p, child, [&](const Position& after) {
                           const int left = after.seeds_in_houses(Side::South) +
                                            after.seeds_in_houses(Side::North);
                           const TableKey k = table_key(after);
                           return static_cast<int>(layers[left][index.rank(k.counts.data())]);
                         }));
          }
        }
        const int stored = layers[s][r];
        if (stored != expected) {
          ++mismatches;
#pragma omp critical
          if (found.size() < keep) found.push_back({s, r, to_string(p), stored, expected});
        }
      }
    }
    std::sort(found.begin(), found.end(),
              [](const auto& a, const auto& b) { return a.rank < b.rank; });
    for (auto& m : found)
      if (report.first_mismatches.size() < keep) report.first_mismatches.push_back(std::move(m));
    report.mismatch_count += mismatches;
    report.positions += size;
    report.layers = s + 1;
    if (progress) progress({s, "consistency", size, size});
  }
  return report;
}

}  // namespace mancala::db
