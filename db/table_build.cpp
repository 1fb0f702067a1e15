#include "db/table_build.h"

#include <chrono>

#include "db/file_io.h"

namespace mancala::db {

Expected<bool> build_tables(const BuildRequest& request, const LayerProgressFn& progress,
                            const std::function<void(const LayerReport&)>& layer_done) {
  Expected<Rules> table_rules = table_rules_for(request.rules);
  if (!table_rules) return Error{table_rules.error()};
  if (request.max_seeds < 0 || request.max_seeds > kMaxTableSeeds)
    return Error{"--max-seeds must be from 0 to " + std::to_string(kMaxTableSeeds)};
  const std::string name = request.rules.table_name();
  const int houses = request.rules.houses;
  const std::string directory = request.database_dir + "/" + table_directory_name(name);
  Expected<bool> made = make_directories(directory);
  if (!made) return Error{made.error()};
  // One writer at a time; under the lock, temporary files a killed build left are removed.
  Expected<WriterLock> lock = WriterLock::acquire(directory);
  if (!lock) return Error{lock.error()};
  remove_stale_temporaries(directory, "seeds-");

  RetrogradeBuilder builder(request.rules, request.max_seeds);
  for (int s = 0; s <= request.max_seeds; ++s) {
    const auto t0 = std::chrono::steady_clock::now();
    LayerReport report;
    report.seeds = s;
    report.positions = builder.index().layer_size(s);
    report.path = directory + "/" + layer_file_name(s);
    Expected<std::shared_ptr<const TableFile>> existing =
        TableFile::open(report.path, name, houses, s);
    if (existing && (*existing)->data_checksum_ok()) {
      // Resume: the layers above need this one's values.
      Expected<std::vector<int8_t>> values = (*existing)->read_all();
      if (!values) return Error{values.error()};
      builder.set_layer(s, std::move(*values));
      report.resumed = true;
      report.file_size = (*existing)->header().file_size;
    } else {
      const std::vector<int8_t>& values = builder.build_layer(s, progress);
      report.levels = builder.last_level_count();
      report.exits_seconds = builder.last_phase_seconds().exits;
      report.levels_seconds = builder.last_phase_seconds().levels;
      if (progress) progress({s, "write", 0, 1});
      const auto w0 = std::chrono::steady_clock::now();
      Expected<WriteReport> written =
          write_table_file(report.path, name, houses, s, values, request.write);
      if (!written) return Error{written.error()};
      report.write_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
      report.file_size = written->file_size;
    }
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (layer_done) layer_done(report);
  }
  return true;
}

}  // namespace mancala::db
