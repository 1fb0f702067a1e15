#include "db/table_build.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "db/file_io.h"
#include "solver/rules/stopwatch.h"

namespace mancala::db {

namespace {

// Writes finished layers on a thread of its own, one after another in the order they were handed
// over, while the caller builds the next ones, each compressed by `threads` threads. Its reports
// come back in the same order, to be passed on from the calling thread. After a failed write it
// writes nothing more.
class LayerWriter {
 public:
  LayerWriter(std::string table_name, int houses, WriteOptions options, int threads)
      : name_(std::move(table_name)),
        houses_(houses),
        options_(options),
        threads_(threads),
        thread_([this] { run(); }) {}

  // Writes the layers still waiting, then stops (after a failed write there are none): a build
  // ended early, by an error or an exception from a progress callback (Ctrl-C in Python), keeps
  // every layer it finished, as the build did before writing overlapped it.
  ~LayerWriter() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closing_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }
  LayerWriter(const LayerWriter&) = delete;
  LayerWriter& operator=(const LayerWriter&) = delete;

  // Hands over a built layer; `values` must stay as they are until it is written.
  void write(LayerReport report, const std::vector<int8_t>& values) {
    push({std::move(report), &values});
  }
  // Hands over a layer kept from an earlier build: nothing to write, reported in its turn.
  void keep(LayerReport report) { push({std::move(report), nullptr}); }

  // Moves the reports of the layers done so far into `done`, in order; with `wait`, waits until
  // every layer handed over is done. An error once a write failed.
  Expected<bool> take_done(std::vector<LayerReport>& done, bool wait) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (wait) changed_.wait(lock, [&] { return (jobs_.empty() && !busy_) || !error_.empty(); });
    for (LayerReport& report : done_) done.push_back(std::move(report));
    done_.clear();
    if (!error_.empty()) return Error{error_};
    return true;
  }

 private:
  struct Job {
    LayerReport report;
    const std::vector<int8_t>* values;  // null: kept, nothing to write
  };

  void push(Job job) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      jobs_.push_back(std::move(job));
    }
    changed_.notify_all();
  }

  void run() {
    while (true) {
      Job job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [&] { return closing_ || !jobs_.empty(); });
        if (jobs_.empty()) return;  // closing, and nothing left to write
        job = std::move(jobs_.front());
        jobs_.pop_front();
        busy_ = true;
      }
      std::string error;
      if (job.values) {
        const auto start = std::chrono::steady_clock::now();
        Expected<WriteReport> written = write_table_file(
            job.report.path, name_, houses_, job.report.seeds, *job.values, options_, threads_);
        job.report.write_seconds = seconds_since(start);
        if (written) {
          job.report.file_size = written->file_size;
          job.report.write_threads = written->threads;
        } else {
          error = written.error();
        }
      }
      {
        std::lock_guard<std::mutex> lock(mutex_);
        busy_ = false;
        if (error.empty()) {
          done_.push_back(std::move(job.report));
        } else {
          error_ = error;
          jobs_.clear();
        }
      }
      changed_.notify_all();
    }
  }

  const std::string name_;
  const int houses_;
  const WriteOptions options_;
  const int threads_;
  std::mutex mutex_;
  std::condition_variable changed_;  // a job handed over or done, or closing
  std::deque<Job> jobs_;
  bool busy_ = false;  // a job has been taken and is not done yet
  std::vector<LayerReport> done_;
  std::string error_;
  bool closing_ = false;  // no more jobs will come
  std::thread thread_;    // last: it starts once everything above is ready
};

}  // namespace

Expected<bool> check_build_request(const BuildRequest& request) {
  Expected<Rules> table_rules = table_rules_for(request.rules);
  if (!table_rules) return Error{table_rules.error()};
  if (request.max_seeds < 0 || request.max_seeds > kMaxTableSeeds)
    return Error{"max seeds must be from 0 to " + std::to_string(kMaxTableSeeds) + ", not " +
                 std::to_string(request.max_seeds)};
  return true;
}

Expected<bool> build_tables(const BuildRequest& request, const LayerProgressFn& progress,
                            const std::function<void(const LayerReport&)>& layer_done) {
  if (Expected<bool> ok = check_build_request(request); !ok) return ok;
  const std::string name = request.rules.table_name();
  const int houses = request.rules.houses;
  const std::string directory = request.database_dir + "/" + table_directory_name(name);
  Expected<bool> made = make_directories(directory);
  if (!made) return Error{made.error()};
  // One writer at a time; under the lock, temporary files a killed build left are removed.
  Expected<WriterLock> lock = WriterLock::acquire(directory);
  if (!lock) return Error{lock.error()};
  remove_stale_temporaries(directory, "seeds-");

  // The builder outlives the writer, which reads its layers. Both run on the threads asked for.
  RetrogradeBuilder builder(request.rules, request.max_seeds, LayerMethod::Fastest,
                            request.threads);
  const int threads = builder.threads();
  LayerWriter writer(name, houses, request.write, threads);
  auto pass_on_done = [&](bool wait) -> Expected<bool> {
    std::vector<LayerReport> done;
    Expected<bool> ok = writer.take_done(done, wait);
    if (layer_done)
      for (const LayerReport& report : done) layer_done(report);
    return ok;
  };

  for (int s = 0; s <= request.max_seeds; ++s) {
    const auto start = std::chrono::steady_clock::now();
    LayerReport report;
    report.seeds = s;
    report.positions = builder.index().layer_size(s);
    report.path = directory + "/" + layer_file_name(s);
    Expected<std::shared_ptr<const TableFile>> existing =
        TableFile::open(report.path, name, houses, s);
    if (existing && (*existing)->data_checksum_ok()) {
      // Resume: the layers above need this one's values.
      Expected<std::vector<int8_t>> values = (*existing)->read_all({}, threads);
      if (!values) return Error{values.error()};
      builder.set_layer(s, std::move(*values));
      report.resumed = true;
      report.file_size = (*existing)->header().file_size;
      report.seconds = seconds_since(start);
      writer.keep(std::move(report));
    } else {
      const std::vector<int8_t>& values = builder.build_layer(s, progress);
      report.levels = builder.last_level_count();
      report.exits_seconds = builder.last_phase_seconds().exits;
      report.levels_seconds = builder.last_phase_seconds().levels;
      report.values_seconds = builder.last_phase_seconds().values;
      report.threads = threads;
      report.seconds = seconds_since(start);
      writer.write(std::move(report), values);
    }
    if (Expected<bool> ok = pass_on_done(false); !ok) return ok;
  }
  if (progress) progress({request.max_seeds, "write", 0, 1});
  return pass_on_done(true);
}

}  // namespace mancala::db
