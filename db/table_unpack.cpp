#include "db/table_unpack.h"

#include <chrono>

#include "db/file_io.h"
#include "db/table_set.h"
#include "solver/tables/table_index.h"
#include "solver/util/stopwatch.h"

namespace mancala::db {

namespace {

// Layer `seeds` copied from its compressed file, whose blocks are all decompressed and checked.
Expected<WriteReport> write_plain_copy(const std::string& directory, const std::string& name,
                                       int houses, int seeds, int threads,
                                       const LayerProgressFn& progress) {
  const std::string source = directory + "/" + layer_file_name(seeds);
  const std::string target = directory + "/" + plain_layer_file_name(seeds);
  Expected<std::shared_ptr<const TableFile>> file = TableFile::open(source, name, houses, seeds);
  if (!file) return Error{file.error() + " (no sound layer to copy to " + target + ")"};
  Expected<std::vector<int8_t>> values = (*file)->read_all_checked(
      [&](uint64_t done, uint64_t total) {
        if (progress) progress({seeds, "decode", done, total});
      },
      threads);
  if (!values) return Error{values.error()};
  if (progress) progress({seeds, "write", 0, 1});
  WriteOptions plain;
  plain.plain = true;
  return write_table_file(target, name, houses, seeds, *values, plain);
}

}  // namespace

Expected<UnpackPlan> plan_unpack(const UnpackRequest& request) {
  if (request.max_seeds < -1)
    return Error{"max seeds must be at least 0 (or -1: every layer), not " +
                 std::to_string(request.max_seeds)};
  Expected<std::shared_ptr<const TableSet>> tables =
      TableSet::open(request.database_dir, request.rules);
  if (!tables) return Error{tables.error()};
  const std::string name = request.rules.table_name();
  UnpackPlan plan;
  plan.directory = (*tables)->directory();
  Expected<PathKind> kind = path_kind(plan.directory);
  if (!kind) return Error{kind.error()};
  if (*kind != PathKind::Directory)
    return Error{plan.directory + ": no " + name + " tables (no such directory)"};
  plan.warning = (*tables)->gap_warning();
  const int available = (*tables)->max_seeds();
  if (available < 0) return Error{plan.directory + ": no " + name + " tables (no seeds-00.mtb)"};
  if (request.max_seeds > available)
    return Error{"cannot unpack up to " + std::to_string(request.max_seeds) + " seeds: the " +
                 name + " tables in " + plan.directory + " hold layers 0.." +
                 std::to_string(available)};
  plan.last_layer = request.max_seeds < 0 ? available : request.max_seeds;
  return plan;
}

Expected<bool> unpack_tables(const UnpackRequest& request, const LayerProgressFn& progress,
                             const std::function<void(const UnpackLayerReport&)>& layer_done) {
  Expected<UnpackPlan> plan = plan_unpack(request);
  if (!plan) return Error{plan.error()};
  const std::string name = request.rules.table_name();
  const int houses = request.rules.houses;
  // One writer at a time; under the lock, temporary files a killed unpack left are removed.
  Expected<WriterLock> lock = WriterLock::acquire(plan->directory);
  if (!lock) return Error{lock.error()};
  remove_stale_temporaries(plan->directory, "seeds-");
  const TableIndex index(2 * houses, plan->last_layer);
  for (int s = 0; s <= plan->last_layer; ++s) {
    const auto t0 = std::chrono::steady_clock::now();
    UnpackLayerReport report;
    report.seeds = s;
    report.positions = index.layer_size(s);
    report.path = plan->directory + "/" + plain_layer_file_name(s);
    if (const std::shared_ptr<const TableFile> existing =
            open_sound_plain_copy(plan->directory, name, houses, s)) {
      report.kept = true;
      report.file_size = existing->header().file_size;
    } else {  // missing, or failed its checks: (re)written
      Expected<WriteReport> written =
          write_plain_copy(plan->directory, name, houses, s, request.threads, progress);
      if (!written) return Error{written.error()};
      report.file_size = written->file_size;
    }
    report.seconds = seconds_since(t0);
    if (layer_done) layer_done(report);
  }
  return true;
}

Expected<bool> convert_tables(const ConvertRequest& request, const LayerProgressFn& progress,
                              const std::function<void(const ConvertLayerReport&)>& layer_done) {
  if (request.write.plain) return Error{"plain copies are made by unpacking, not converting"};
  Expected<UnpackPlan> plan = plan_unpack(
      UnpackRequest{request.rules, request.max_seeds, request.database_dir, request.threads});
  if (!plan) return Error{plan.error()};
  const std::string name = request.rules.table_name();
  const int houses = request.rules.houses;
  Expected<WriterLock> lock = WriterLock::acquire(plan->directory);
  if (!lock) return Error{lock.error()};
  remove_stale_temporaries(plan->directory, "seeds-");
  const TableIndex index(2 * houses, plan->last_layer);
  for (int s = 0; s <= plan->last_layer; ++s) {
    const auto t0 = std::chrono::steady_clock::now();
    ConvertLayerReport report;
    report.seeds = s;
    report.positions = index.layer_size(s);
    report.path = plan->directory + "/" + layer_file_name(s);
    Expected<std::shared_ptr<const TableFile>> file = TableFile::open(report.path, name, houses, s);
    if (!file) return Error{file.error()};
    report.old_size = (*file)->header().file_size;
    if ((*file)->encoding() == request.write.encoding &&
        (*file)->block_size() == block_size_of(request.write)) {
      report.kept = true;
      report.file_size = report.old_size;
    } else {
      Expected<std::vector<int8_t>> values = (*file)->read_all_checked(
          [&](uint64_t done, uint64_t total) {
            if (progress) progress({s, "decode", done, total});
          },
          request.threads);
      if (!values) return Error{values.error()};
      file.value().reset();  // the mapping is released before the file is replaced
      if (progress) progress({s, "write", 0, 1});
      Expected<WriteReport> written =
          write_table_file(report.path, name, houses, s, *values, request.write, request.threads);
      if (!written) return Error{written.error()};
      report.file_size = written->file_size;
    }
    report.seconds = seconds_since(t0);
    if (layer_done) layer_done(report);
  }
  return true;
}

}  // namespace mancala::db
