#include "db/table_build.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "db/file_io.h"
#include "solver/tables/kalah_sub_layers.h"
#include "solver/tables/table_index.h"
#include "solver/util/stopwatch.h"

namespace mancala::db {

namespace {

// Asks the kernel to read the sub-layers `subs` of a layer mapped from a scratch file into its
// page cache ahead of the reads (MADV_WILLNEED): the pair of sub-layers about to be valued reads
// their values at random, and a fault on each page would wait for the disk one page at a time.
// A sub-layer is a run of ranks per mover's row, interleaved in rank order with the runs of the
// sub-layers beside it ((m - 1, o + 1) and (m + 1, o - 1)), which a pair mostly reads too: the
// runs of all of them are sorted and those one page or less apart asked for in one request (the
// kernel reads whole pages anyway): for layer 34, 8.3 M requests instead of 48 M runs. A layer
// in sub-layer order (kalah_sub_layers.h) has each sub-layer in one range: one request each.
void read_ahead(std::span<const int8_t> mapped, LayerOrder order, const TableIndex& index,
                const std::vector<SubLayer>& subs) {
  std::vector<std::pair<uint64_t, uint64_t>> runs;  // [begin, end) in places of the layer
  const int houses = index.slots() / 2;
  for (const SubLayer sub : subs) {
    if (order == LayerOrder::SubLayers) {
      const uint64_t begin = sub_layer_offset(houses, sub.seeds(), sub.mover_seeds);
      runs.emplace_back(begin, begin + sub_layer_size(houses, sub));
    } else {
      for_each_sub_layer_run(index, sub, [&](uint64_t begin, uint64_t size) {
        runs.emplace_back(begin, begin + size);
      });
    }
  }
  std::sort(runs.begin(), runs.end());
  const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto base = reinterpret_cast<uintptr_t>(mapped.data());
  uintptr_t from = 0, to = 0;  // the request being gathered, in addresses
  const auto ask = [&] {
    if (to > from) ::madvise(reinterpret_cast<void*>(from), to - from, MADV_WILLNEED);
  };
  for (const auto& [begin, end] : runs) {
    const uintptr_t first = (base + begin) / page * page;
    if (to > from && first <= to + page) {
      to = std::max<uintptr_t>(to, base + end);
    } else {
      ask();
      from = first;
      to = base + end;
    }
  }
  ask();
}

// A copy, in rank order, in a scratch file of its own, of layer `seeds` laid out in sub-layer
// order at `sub_layers`: its runs gathered and sorted by rank, then each copied from its place
// in sub-layer order (a run is one mover's row against every other row of its sub-layer, whole
// in both orders).
Expected<std::shared_ptr<const GuardedMapping>> rank_order_copy(const std::string& directory,
                                                                const TableIndex& index, int seeds,
                                                                const uint8_t* sub_layers) {
  struct Run {
    uint64_t rank, place, size;
  };
  std::vector<Run> runs;
  uint64_t place = 0;
  for_each_run_in_sub_layer_order(index, seeds, [&](uint64_t begin, uint64_t size) {
    runs.push_back({begin, place, size});
    place += size;
  });
  std::sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.rank < b.rank; });
  return map_unnamed_copy(directory, place, [&](const EmitBytes& emit) {
    for (const Run& run : runs) emit({sub_layers + run.place, run.size});
  });
}

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
  void write(LayerReport report, std::span<const int8_t> values) {
    push({std::move(report), values, true});
  }
  // Hands over a layer kept from an earlier build: nothing to write, reported in its turn.
  void keep(LayerReport report) { push({std::move(report), {}, false}); }

  // Waits until the layers handed over are done up to `seeds` (or a write failed).
  void wait_through(int seeds) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return done_through_ >= seeds || !error_.empty(); });
  }

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
    std::span<const int8_t> values;
    bool write = false;  // false: kept, nothing to write
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
      if (job.write) {
        const auto start = std::chrono::steady_clock::now();
        Expected<WriteReport> written = write_table_file(
            job.report.path, name_, houses_, job.report.seeds, job.values, options_, threads_);
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
          done_through_ = job.report.seeds;
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
  bool busy_ = false;      // a job has been taken and is not done yet
  int done_through_ = -1;  // the layers handed over are done up to this one
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

uint64_t build_memory_needed(const Rules& rules, int max_seeds,
                             std::optional<uint64_t> layer_memory) {
  if (const std::optional<BuildMemoryByPairs> by_pairs =
          build_memory_by_pairs(rules, max_seeds, layer_memory))
    return by_pairs->bytes;
  const RetrogradeBuilder builder(rules, max_seeds, LayerMethod::Fastest, 1);
  uint64_t bytes = builder.bytes_to_build(max_seeds);
  for (int s = std::max(0, max_seeds - 3); s < max_seeds; ++s)
    bytes += builder.index().layer_size(s);
  if (max_seeds > 0) bytes += builder.index().layer_size(max_seeds - 1) / 2;
  return bytes;
}

bool built_in_scratch(const Rules& rules, int seeds, std::optional<uint64_t> layer_memory) {
  if (!layer_memory) return false;
  const RetrogradeBuilder builder(rules, seeds, LayerMethod::Fastest, 1);
  const uint64_t below = seeds > 0 ? builder.index().layer_size(seeds - 1) : 0;
  return builder.uses_one_pass() && builder.bytes_to_build(seeds) + below > *layer_memory;
}

std::optional<BuildMemoryByPairs> build_memory_by_pairs(const Rules& rules, int max_seeds,
                                                        std::optional<uint64_t> layer_memory) {
  const RetrogradeBuilder builder(rules, max_seeds, LayerMethod::Fastest, 1);
  if (!builder.uses_one_pass() || max_seeds < 2) return std::nullopt;
  const uint64_t below = builder.index().layer_size(max_seeds - 1);
  const bool top_in_scratch = built_in_scratch(rules, max_seeds, layer_memory);
  const bool below_in_scratch = built_in_scratch(rules, max_seeds - 1, layer_memory);
  // The layers whose reads count: those in scratch files (all below the one below, which the
  // writer may still hold, and that one too when it was built in a scratch file itself).
  const int read_below = below_in_scratch ? max_seeds : max_seeds - 1;
  const PairWorkingSet largest =
      kalah_largest_pair_working_set(builder.rules(), max_seeds, read_below);
  BuildMemoryByPairs need{largest.pair, largest.read_positions, 0, top_in_scratch, 0};
  need.bytes = below / 2 + largest.read_positions;
  if (!below_in_scratch) need.bytes += below;
  if (top_in_scratch) {
    need.pair_writes = largest.pair_positions;
    need.bytes += largest.pair_positions;
  } else {
    need.bytes += builder.bytes_to_build(max_seeds);
  }
  return need;
}

uint64_t distributed_build_memory_per_rank(const Rules& rules, int max_seeds, int ranks) {
  const TableIndex index(2 * rules.houses, max_seeds);
  uint64_t bytes = 3 * index.layer_size(max_seeds);
  for (int s = 0; s <= max_seeds; ++s) bytes += index.layer_size(s);
  const double around = rules.kind == GameKind::Oware ? 1.3 : 1.5;
  const double per_rank = around * static_cast<double>(bytes) / std::max(ranks, 1);
  return static_cast<uint64_t>(per_rank) + 60'000'000;
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
  // Bounding the memory (BuildRequest::layer_memory): the layers held by the builder, those the
  // writer is done with (it reads them until then), and those moved to scratch files. While
  // layer s is built, the finished layers may hold what the bound leaves beside it; once the last
  // layer is built nothing moves any more (nothing reads the layers below but the writer).
  uint64_t held_bytes = 0, mapped_bytes = 0;
  std::optional<uint64_t> held_limit;
  std::vector<bool> written(static_cast<size_t>(request.max_seeds) + 1);
  std::vector<std::shared_ptr<const GuardedMapping>> scratch;
  const auto bound_memory = [&]() -> Expected<bool> {
    // The lowest first: a layer's positions lead mostly to the few layers just below it (a
    // capture takes a few seeds), so the highest layers are read the most.
    for (int t = 0; t <= request.max_seeds && held_limit && held_bytes > *held_limit; ++t) {
      if (!written[static_cast<size_t>(t)] || builder.held_elsewhere(t)) continue;
      const std::span<const int8_t> values = builder.layer(t);
      const auto bytes = [&values](uint64_t begin, uint64_t size) {
        return std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(values.data()) + begin,
                                        size);
      };
      // A Kalah layer (one pass) goes to its scratch file in sub-layer order, so that a pair's
      // reads are whole pages of their own (kalah_sub_layers.h); the level algorithm's reads
      // take rank order.
      const LayerOrder order = builder.uses_one_pass() ? LayerOrder::SubLayers : LayerOrder::Ranks;
      Expected<std::shared_ptr<const GuardedMapping>> copy =
          order == LayerOrder::SubLayers
              ? map_unnamed_copy(directory, values.size(),
                                 [&](const EmitBytes& emit) {
                                   for_each_run_in_sub_layer_order(
                                       builder.index(), t, [&](uint64_t begin, uint64_t size) {
                                         emit(bytes(begin, size));
                                       });
                                 })
              : map_unnamed_copy(directory, bytes(0, values.size()));
      if (!copy) return Error{copy.error()};
      const GuardedMapping& mapping = **copy;
      builder.hold_layer_elsewhere(
          t, {reinterpret_cast<const int8_t*>(mapping.data()), mapping.size()}, *copy, order);
      scratch.push_back(std::move(copy).value());
      held_bytes -= values.size();
      mapped_bytes += values.size();
    }
    return true;
  };
  // Kept layers read in place from their plain copies.
  std::vector<std::shared_ptr<const TableFile>> plain_copies;
  // A scratch file's pages come back from disk when the kernel dropped them; one that could not
  // be read back (an I/O error) reads as zeros, and the layers built over it are wrong. So does a
  // plain copy changed under the build.
  const auto scratch_sound = [&]() -> Expected<bool> {
    for (const auto& mapping : scratch)
      if (mapping->damaged())
        return Error{shown_path(directory) +
                     ": a scratch file of the layers below could not be "
                     "read back; the build stopped"};
    for (const auto& plain : plain_copies)
      if (plain->damaged())
        return Error{shown_path(plain->path()) +
                     ": changed or unreadable while the build read it; the build stopped"};
    return true;
  };
  // The rank-order copies of layers built in scratch files, until the writer is done with them.
  std::vector<std::shared_ptr<const GuardedMapping>> for_writer(
      static_cast<size_t>(request.max_seeds) + 1);
  auto pass_on_done = [&](bool wait) -> Expected<bool> {
    std::vector<LayerReport> done;
    Expected<bool> ok = writer.take_done(done, wait);
    for (LayerReport& report : done) {
      written[static_cast<size_t>(report.seeds)] = true;
      if (auto& copy = for_writer[static_cast<size_t>(report.seeds)]; copy) {
        std::erase(scratch, copy);
        copy.reset();                      // its disk goes back now
        mapped_bytes += report.positions;  // the layer itself, in its scratch file
      }
      report.mapped_bytes = mapped_bytes;
      if (layer_done) layer_done(report);
    }
    if (!ok) return ok;
    return bound_memory();
  };

  for (int s = 0; s <= request.max_seeds; ++s) {
    const std::string path = directory + "/" + layer_file_name(s);
    Expected<std::shared_ptr<const TableFile>> existing = TableFile::open(path, name, houses, s);
    const bool resuming = existing && (*existing)->data_checksum_ok();
    if (request.layer_memory) {
      // A layer built in a scratch file takes none of the bound (one read back to resume is
      // held in memory all the same).
      const uint64_t building =
          !resuming && built_in_scratch(request.rules, s, request.layer_memory)
              ? 0
              : builder.bytes_to_build(s);
      held_limit = *request.layer_memory > building ? *request.layer_memory - building : 0;
    }
    // Over the bound, the layers below the last one handed over must be written before this one
    // is built, so that they can move out: the writer then holds back at most one layer (its
    // write of a layer usually ends before the build of the next, and this does not wait).
    if (held_limit && held_bytes > *held_limit && s >= 2) {
      writer.wait_through(s - 2);
      if (Expected<bool> ok = pass_on_done(false); !ok) return ok;
    }
    const auto start = std::chrono::steady_clock::now();
    LayerReport report;
    report.seeds = s;
    report.positions = builder.index().layer_size(s);
    report.path = path;
    if (resuming) {
      // Resume: the layers above need this one's values. A sound plain copy beside the layer
      // (`db unpack`) holds them already, one byte a position in rank order: it is mapped and read
      // in place, as the scratch files are, instead of decoded into memory (Kalah's 30-seed layer
      // took 65 s to decode and 3.2 GB to hold). The tables are a function of the rules alone, so
      // any sound copy of this layer of this table holds the same values.
      if (std::shared_ptr<const TableFile> plain =
              open_sound_plain_copy(directory, name, houses, s)) {
        builder.hold_layer_elsewhere(s, plain->plain_values(), plain);
        plain_copies.push_back(std::move(plain));
        report.from_plain_copy = true;
      } else {
        Expected<std::vector<int8_t>> values = (*existing)->read_all({}, threads);
        if (!values) return Error{values.error()};
        held_bytes += values->size();
        builder.set_layer(s, std::move(*values));
      }
      report.resumed = true;
      report.file_size = (*existing)->header().file_size;
      report.seconds = seconds_since(start);
      writer.keep(std::move(report));
    } else {
      // Over layers held in scratch files, a Kalah layer is valued pair of sub-layers by pair,
      // each pair reading a known part of the layers below (kalah_sub_layers.h), read ahead.
      KalahPairHook read_ahead_pair;
      bool mapped_below = false;
      for (int t = 0; t < s; ++t) mapped_below = mapped_below || builder.held_elsewhere(t);
      if (builder.uses_one_pass() && mapped_below)
        read_ahead_pair = [&builder, s](SubLayer pair) {
          std::vector<std::vector<SubLayer>> by_layer(static_cast<size_t>(s));
          for (const SubLayer sub : kalah_pair_reads(builder.rules(), pair))
            by_layer[static_cast<size_t>(sub.seeds())].push_back(sub);
          for (int t = 0; t < s; ++t)
            if (builder.held_elsewhere(t) && !by_layer[static_cast<size_t>(t)].empty())
              read_ahead(builder.layer(t), builder.layer_order(t), builder.index(),
                         by_layer[static_cast<size_t>(t)]);
        };
      // A Kalah layer that does not fit in the bound beside the layer below is built in a
      // scratch file of its own, in sub-layer order, pair by pair (kalah_sub_layers.h): a pair
      // writes its own two sub-layers, two ranges, which the kernel may write back and drop once
      // written, so that the layer need not fit in memory beside the pair's reads. The layers
      // above read it there as it is; the writer reads a copy in rank order (the tables' files
      // are in rank order).
      const bool in_scratch = built_in_scratch(request.rules, s, request.layer_memory);
      std::span<const int8_t> values;
      if (in_scratch) {
        const uint64_t size = builder.index().layer_size(s);
        Expected<std::shared_ptr<const GuardedMapping>> place = map_unnamed_file(directory, size);
        if (!place) return Error{place.error()};
        const std::shared_ptr<const GuardedMapping> built = std::move(place).value();
        if (!read_ahead_pair)
          read_ahead_pair = [](SubLayer) {};  // pair by pair all the same: the writes stay local
        builder.build_layer_into(s,
                                 {reinterpret_cast<int8_t*>(built->writable_data()), built->size()},
                                 built, LayerOrder::SubLayers, progress, read_ahead_pair);
        scratch.push_back(built);
        if (Expected<bool> ok = scratch_sound(); !ok) return ok;
        Expected<std::shared_ptr<const GuardedMapping>> ranked =
            rank_order_copy(directory, builder.index(), s, built->data());
        if (!ranked) return Error{ranked.error()};
        values = {reinterpret_cast<const int8_t*>((*ranked)->data()), (*ranked)->size()};
        scratch.push_back(*ranked);
        for_writer[static_cast<size_t>(s)] = std::move(ranked).value();
      } else {
        values = builder.build_layer(s, progress, read_ahead_pair);
        if (Expected<bool> ok = scratch_sound(); !ok) return ok;
        held_bytes += values.size();
      }
      report.levels = builder.last_level_count();
      report.exits_seconds = builder.last_phase_seconds().exits;
      report.levels_seconds = builder.last_phase_seconds().levels;
      report.values_seconds = builder.last_phase_seconds().values;
      report.threads = threads;
      report.seconds = seconds_since(start);
      writer.write(std::move(report), values);
    }
    if (s == request.max_seeds) held_limit.reset();
    if (Expected<bool> ok = pass_on_done(false); !ok) return ok;
  }
  if (progress) progress({request.max_seeds, "write", 0, 1});
  return pass_on_done(true);
}

}  // namespace mancala::db
