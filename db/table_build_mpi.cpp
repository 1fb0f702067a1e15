#include "db/table_build_mpi.h"

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <random>
#include <vector>

#include "db/file_io.h"
#include "db/mpi_exchange.h"
#include "db/mpi_layer_write.h"
#include "db/table_file.h"
#include "solver/tables/rank_walk.h"
#include "solver/tables/retrograde_phases.h"
#include "solver/util/stopwatch.h"
#include "solver/util/thread_count.h"

namespace mancala::db {

// ---------------------------------------------------------------------------------------------
// The session.

Expected<std::unique_ptr<MpiSession>> MpiSession::start() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) return Error{"MPI is already started in this process"};
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    return Error{"MPI_Init_thread failed"};
  // The default, said out loud: an MPI error on the world communicator stops the whole job (a
  // rank that dies takes the others down instead of leaving them waiting for it).
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm machine;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &machine);
  int local_size = 1;
  MPI_Comm_size(machine, &local_size);
  MPI_Comm_free(&machine);
  std::unique_ptr<MpiSession> session(new MpiSession(rank, size, local_size));
  if (provided < MPI_THREAD_FUNNELED)
    return Error{"this MPI library offers no thread support (MPI_THREAD_FUNNELED is needed)"};
  return session;
}

bool MpiSession::available() {
  return true;
}

MpiSession::~MpiSession() {
  if (std::uncaught_exceptions() > 0) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Finalize();
}

void MpiSession::abort(int code) const {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::abort();  // MPI_Abort does not return; this keeps [[noreturn]] honest
}

void MpiSession::barrier() const {
  MPI_Barrier(MPI_COMM_WORLD);
}

namespace {

// Peak resident memory of this process (VmHWM), bytes; 0 when unknown.
uint64_t peak_resident_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  return 0;
}

// ---------------------------------------------------------------------------------------------
// The build.

// Positions a rank works through between two exchanges of phase exits, and frontier positions
// between two exchanges of phase levels: bounds the message buffers (a position asks for at
// most one value per house and has a few inner parents), and keeps every count of an exchange
// well inside MPI's int counts.
constexpr uint64_t kExitsSlice = uint64_t{1} << 18;
constexpr uint64_t kFrontierPiece = uint64_t{1} << 16;
// Less work than this is done by one thread: waking the others would cost more.
constexpr size_t kParallelBatch = 256;

// A request for the value of position `local` (the owner's local index) of layer `layer`.
constexpr int kLayerShift = 58;
uint64_t value_request(int layer, uint64_t local) {
  return (static_cast<uint64_t>(layer) << kLayerShift) | local;
}
// An update for an inner parent: its owner's local index, and whether the child was won.
uint64_t parent_update(uint64_t local, bool child_won) {
  return (local << 1) | (child_won ? 1 : 0);
}

// A value asked of another rank, waiting for the answer: the asking position (its index in the
// slice) and the move's gain and sign.
struct PendingExit {
  uint32_t position;
  int8_t gain;
  int8_t sign;
};

struct LayerWork {
  std::vector<int8_t> exits;
  std::vector<uint8_t> inner_left;
  std::vector<int8_t> values;
  int levels = 0;
  double exits_seconds = 0;
  double levels_seconds = 0;
  uint64_t value_requests = 0;  // sent by this rank
  uint64_t level_updates = 0;
};

class DistributedBuild {
 public:
  DistributedBuild(const MpiSession& session, const BuildRequest& request,
                   const DistributedOptions& options,
                   const std::function<void(const DistributedProgress&)>& progress,
                   const std::function<void(const DistributedLayerReport&)>& layer_done)
      : comm_(session.rank(), session.size()),
        request_(request),
        options_(options),
        rules_(*table_rules_for(request.rules)),
        index_(2 * request.rules.houses, request.max_seeds),
        name_(request.rules.table_name()),
        houses_(request.rules.houses),
        directory_(request.database_dir + "/" + table_directory_name(name_)),
        progress_(progress),
        layer_done_(layer_done),
        threads_(team_size(request.threads)) {
    // A coded layer's chunks hold whole index groups, so that each rank codes its own groups.
    const uint64_t unit = request.write.encoding == kCodedBlocks
                              ? uint64_t{kGroupBlocks} * block_size_of(request.write)
                              : block_size_of(request.write);
    for (int s = 0; s <= request.max_seeds; ++s)
      partitions_.push_back(
          LayerPartition::make(index_.layer_size(s), comm_.size, unit, options.partition));
    parts_.resize(static_cast<size_t>(request.max_seeds) + 1);
  }

  Expected<bool> run();

 private:
  std::string check_shared_directory();
  // Reads layer s back when its file is there and sound; false when it must be built.
  Expected<bool> resume_layer(int s, LayerReport& report);
  template <GameKind K>
  LayerWork build_layer(int s);
  template <GameKind K>
  void exits_phase(int s, LayerWork& work);
  template <GameKind K>
  void levels_phase(int s, LayerWork& work);
  Expected<WriteReport> write_layer(int s, const std::vector<int8_t>& values);
  void report_progress(int s, const std::string& phase, uint64_t done_here, uint64_t total);

  Comm comm_;
  const BuildRequest& request_;
  DistributedOptions options_;
  Rules rules_;
  TableIndex index_;
  std::string name_;
  int houses_;
  std::string directory_;
  const std::function<void(const DistributedProgress&)>& progress_;
  const std::function<void(const DistributedLayerReport&)>& layer_done_;
  int threads_;
  std::vector<LayerPartition> partitions_;
  std::vector<std::vector<int8_t>> parts_;  // this rank's part of each layer, in local order
};

void DistributedBuild::report_progress(int s, const std::string& phase, uint64_t done_here,
                                       uint64_t total) {
  // Collective: every rank reports its share; rank 0 tells the caller.
  std::array<uint64_t, 3> mine{done_here, comm_.items_sent, comm_.bytes_sent}, all{};
  MPI_Reduce(mine.data(), all.data(), 3, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  if (comm_.rank == 0 && progress_) progress_({s, phase, all[0], total, all[1], all[2]});
}

std::string DistributedBuild::check_shared_directory() {
  // Rank 0 makes the directory and leaves a token in it; every rank must read the same token.
  std::string error;
  const std::string marker = directory_ + "/.shared-directory-check";
  uint64_t token = 0;
  if (comm_.rank == 0) {
    std::error_code ec;
    std::filesystem::create_directories(directory_, ec);
    if (ec) error = directory_ + ": cannot create: " + ec.message();
    token = std::random_device{}() * 0x100000000ull + std::random_device{}();
    if (error.empty()) {
      std::ofstream out(marker, std::ios::trunc);
      out << token << "\n";
      out.close();
      if (!out) error = marker + ": cannot write";
    }
  }
  error = comm_.agree(error);
  if (!error.empty()) return error;
  MPI_Bcast(&token, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  std::ifstream in(marker);
  uint64_t seen = 0;
  if (!(in >> seen) || seen != token)
    error = "rank " + std::to_string(comm_.rank) + " does not see " + directory_ +
            " as rank 0 does: the output directory must be one that every rank reaches (a "
            "shared filesystem)";
  error = comm_.agree(error);
  comm_.barrier();
  if (comm_.rank == 0) std::filesystem::remove(marker);
  return error;
}

Expected<bool> DistributedBuild::run() {
  if (request_.write.plain)
    return Error{
        "the distributed build writes compressed layers only (plain copies are unpacked from "
        "them)"};
  if (std::string error = check_shared_directory(); !error.empty()) return Error{error};

  for (int s = 0; s <= request_.max_seeds; ++s) {
    const auto t0 = std::chrono::steady_clock::now();
    comm_.reset_counters();
    DistributedLayerReport report;
    report.ranks = comm_.size;
    LayerReport& layer = report.layer;
    layer.seeds = s;
    layer.positions = index_.layer_size(s);
    layer.path = directory_ + "/" + layer_file_name(s);
    Expected<bool> resumed = resume_layer(s, layer);
    if (!resumed) return Error{resumed.error()};
    double phase_seconds = 0;
    if (!*resumed) {
      LayerWork work = rules_.kind == GameKind::Oware ? build_layer<GameKind::Oware>(s)
                                                      : build_layer<GameKind::Kalah>(s);
      layer.levels = work.levels;
      layer.exits_seconds = work.exits_seconds;
      layer.levels_seconds = work.levels_seconds;
      report.value_requests = comm_.all_reduce(work.value_requests, MPI_SUM);
      report.level_updates = comm_.all_reduce(work.level_updates, MPI_SUM);
      // Time at work in the phases: what waiting for the others in exchanges leaves.
      phase_seconds = work.exits_seconds + work.levels_seconds - comm_.exchange_seconds;
      report_progress(s, "write", 0, 1);
      const auto w0 = std::chrono::steady_clock::now();
      Expected<WriteReport> written = write_layer(s, work.values);
      if (!written) return Error{written.error()};
      layer.write_seconds = seconds_since(w0);
      layer.file_size = written->file_size;
      layer.threads = threads_;
      layer.write_threads = written->threads;
      parts_[s] = std::move(work.values);
    }
    report.message_bytes = comm_.all_reduce(comm_.bytes_sent, MPI_SUM);
    report.exchanges = comm_.exchanges;
    report.exchange_seconds = comm_.all_reduce(comm_.exchange_seconds, MPI_MAX);
    const double slowest = comm_.all_reduce(phase_seconds, MPI_MAX);
    const double mean = comm_.all_reduce(phase_seconds, MPI_SUM) / comm_.size;
    report.imbalance = mean > 0 ? slowest / mean - 1 : 0;
    const uint64_t peak = peak_resident_bytes();
    report.peak_memory_max = comm_.all_reduce(peak, MPI_MAX);
    report.peak_memory_min = comm_.all_reduce(peak, MPI_MIN);
    layer.seconds = comm_.all_reduce(seconds_since(t0), MPI_MAX);
    if (comm_.rank == 0 && layer_done_) layer_done_(report);
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Resuming.

Expected<bool> DistributedBuild::resume_layer(int s, LayerReport& report) {
  // Rank 0 decides whether the file is sound (the checks of every reader, then the data
  // checksum), as build_tables does; a file that fails is built again.
  // A sound plain copy beside it (`db unpack`) holds the values in rank order: each rank copies
  // its runs from it instead of decoding blocks (as build_tables reads it in place).
  const std::string plain_path = directory_ + "/" + plain_layer_file_name(s);
  int sound = 0, plain_sound = 0;
  uint64_t file_size = 0;
  if (comm_.rank == 0) {
    Expected<std::shared_ptr<const TableFile>> file =
        TableFile::open(report.path, name_, houses_, s);
    if (file) {
      const TableHeader& header = (*file)->header();
      const Expected<uint64_t> checksum =
          file_section_checksum(report.path, header.data_offset, header.data_size);
      sound = checksum && *checksum == header.data_checksum;
      file_size = header.file_size;
    }
    if (sound) plain_sound = open_sound_plain_copy(directory_, name_, houses_, s) != nullptr;
  }
  MPI_Bcast(&sound, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(&plain_sound, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(&file_size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  if (!sound) return false;

  report_progress(s, "read", 0, index_.layer_size(s));
  std::string error;
  const LayerPartition& partition = partitions_[s];
  std::vector<int8_t> part(partition.local_size(comm_.rank));
  // The plain copy's bytes are copied run by run; otherwise each rank decodes only the blocks
  // that hold its part (the file's block size need not be the partition's: a block is decoded
  // once for each rank part it overlaps).
  const std::string& path = plain_sound ? plain_path : report.path;
  Expected<std::shared_ptr<const TableFile>> file = TableFile::open(path, name_, houses_, s);
  if (!file) {
    error = file.error() + " (rank 0 reads it: is the output directory shared by every rank?)";
  } else if (plain_sound) {
    const std::span<const int8_t> values = (*file)->plain_values();
    partition.for_each_run(comm_.rank, [&](uint64_t begin, uint64_t end, uint64_t local) {
      std::memcpy(part.data() + local, values.data() + begin, end - begin);
    });
    if ((*file)->damaged()) error = shown_path(path) + ": changed while it was read";
  } else {
    const TableFile& table = **file;
    const uint64_t block = table.block_size();
    struct Piece {
      uint64_t file_block, begin, end, local;  // ranks [begin, end) of the block, kept at local
    };
    std::vector<Piece> pieces;
    partition.for_each_run(comm_.rank, [&](uint64_t begin, uint64_t end, uint64_t local) {
      for (uint64_t b = begin / block; b * block < end; ++b) {
        const uint64_t lo = std::max(begin, b * block), hi = std::min(end, (b + 1) * block);
        pieces.push_back({b, lo, hi, local + (lo - begin)});
      }
    });
#pragma omp parallel num_threads(threads_)
    {
      std::vector<int8_t> decoded(block);
#pragma omp for schedule(dynamic, 16)
      for (size_t i = 0; i < pieces.size(); ++i) {
        const Piece& piece = pieces[i];
        Expected<bool> ok = table.read_block(piece.file_block, decoded.data());
        if (!ok) {
#pragma omp critical
          error = ok.error();
          continue;
        }
        std::memcpy(part.data() + piece.local,
                    decoded.data() + (piece.begin - piece.file_block * block),
                    piece.end - piece.begin);
      }
    }
  }
  error = comm_.agree(error);
  if (!error.empty()) return Error{error};
  parts_[s] = std::move(part);
  report.resumed = true;
  report.from_plain_copy = plain_sound != 0;
  report.file_size = file_size;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Phase "exits".

template <GameKind K>
LayerWork DistributedBuild::build_layer(int s) {
  LayerWork work;
  const uint64_t local_size = partitions_[s].local_size(comm_.rank);
  work.exits.assign(local_size, retrograde::kNoExit);
  work.inner_left.assign(local_size, 0);
  work.values.assign(local_size, 0);
  const auto t0 = std::chrono::steady_clock::now();
  exits_phase<K>(s, work);
  work.exits_seconds = seconds_since(t0);
  const auto t1 = std::chrono::steady_clock::now();
  levels_phase<K>(s, work);
  work.levels_seconds = seconds_since(t1);
  return work;
}

template <GameKind K>
void DistributedBuild::exits_phase(int s, LayerWork& work) {
  const LayerPartition& partition = partitions_[s];
  const uint64_t local_size = partition.local_size(comm_.rank);
  const int me = comm_.rank;
  const int h = houses_;
  const uint64_t total = index_.layer_size(s);

  // The runs of this rank's ranks, to be cut into slices of local indices.
  struct Run {
    uint64_t begin, end, local;
  };
  std::vector<Run> runs;
  partition.for_each_run(me, [&](uint64_t b, uint64_t e, uint64_t l) {
    runs.push_back({b, e, l});
  });

  const uint64_t slices = comm_.all_reduce((local_size + kExitsSlice - 1) / kExitsSlice, MPI_MAX);
  Outbox<uint64_t> requests(threads_, comm_.size);
  Outbox<PendingExit> pending(threads_, comm_.size);
  std::vector<uint64_t> send, received, send_counts, received_counts;
  std::vector<int8_t> answers, replies;
  std::vector<uint64_t> answer_counts, reply_counts;
  uint64_t done = 0;
  for (uint64_t slice = 0; slice < slices; ++slice) {
    const uint64_t slice_lo = std::min(local_size, slice * kExitsSlice);
    const uint64_t slice_hi = std::min(local_size, slice_lo + kExitsSlice);
    // Walk the slice run by run: values of children owned here at once, others asked for.
    for (const Run& run : runs) {
      const uint64_t lo = std::max(slice_lo, run.local);
      const uint64_t hi = std::min(slice_hi, run.local + (run.end - run.begin));
      if (lo >= hi) continue;
      const uint64_t first_rank = run.begin + (lo - run.local);
      for_each_rank(
          index_, s, first_rank, first_rank + (hi - lo), threads_,
          [&](uint64_t r, const TableKey& key) {
            const int thread = omp_get_thread_num();
            const uint64_t l = run.local + (r - run.begin);
            const Position p = position_from_key(key.counts.data(), h);
            const retrograde::PositionExits e = retrograde::position_exits<K>(rules_, index_, s, p);
            int best = e.known;
            for (int i = 0; i < e.count; ++i) {
              const retrograde::ExitMove& m = e.moves[i];
              const LayerPartition& below = partitions_[m.layer];
              const int owner = below.owner(m.rank);
              const uint64_t child = below.local(m.rank);
              if (owner == me) {
                best = std::max(best, retrograde::exit_move_value(m, parts_[m.layer][child]));
              } else {
                requests.of(thread, owner).push_back(value_request(m.layer, child));
                pending.of(thread, owner)
                    .push_back({static_cast<uint32_t>(l - slice_lo), static_cast<int8_t>(m.gain),
                                static_cast<int8_t>(m.sign)});
              }
            }
            work.exits[l] = static_cast<int8_t>(best);
            work.inner_left[l] = static_cast<uint8_t>(e.inner);
          });
    }
    // Ask the owners, answer what was asked here, then fold the answers in.
    requests.flatten(send, send_counts);
    requests.clear();
    for (int d = 0; d < comm_.size; ++d) work.value_requests += send_counts[d];
    comm_.all_to_all(send, send_counts, received, received_counts);
    answers.resize(received.size());
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (size_t i = 0; i < received.size(); ++i) {
      const uint64_t request = received[i];
      const int layer = static_cast<int>(request >> kLayerShift);
      answers[i] = parts_[layer][request & ((uint64_t{1} << kLayerShift) - 1)];
    }
    comm_.all_to_all(answers, received_counts, replies, reply_counts);
    // Replies come back per destination in the order asked: thread 0's requests, then 1's, ...
    std::vector<uint64_t> destination_start(comm_.size + 1, 0);
    for (int d = 0; d < comm_.size; ++d)
      destination_start[d + 1] = destination_start[d] + reply_counts[d];
      // Each thread folds in the answers to its own requests: all of a position's requests were
      // made by one thread, so no two threads touch the same position.
#pragma omp parallel num_threads(threads_)
    for (int thread = omp_get_thread_num(); thread < threads_; thread += omp_get_num_threads()) {
      for (int d = 0; d < comm_.size; ++d) {
        const std::vector<PendingExit>& mine = pending.of(thread, d);
        const uint64_t at = destination_start[d] + pending.offset_in_destination(thread, d);
        for (size_t i = 0; i < mine.size(); ++i) {
          const PendingExit& w = mine[i];
          int8_t& exits = work.exits[slice_lo + w.position];
          exits = static_cast<int8_t>(
              std::max<int>(exits, w.gain + w.sign * static_cast<int>(replies[at + i])));
        }
      }
    }
    pending.clear();
    done += slice_hi - slice_lo;
    report_progress(s, "exits", done, total);
  }
}

// ---------------------------------------------------------------------------------------------
// Phase "levels".

template <GameKind K>
void DistributedBuild::levels_phase(int s, LayerWork& work) {
  const LayerPartition& partition = partitions_[s];
  const uint64_t local_size = partition.local_size(comm_.rank);
  const int me = comm_.rank;
  const int h = houses_;
  const uint64_t total = index_.layer_size(s);
  std::vector<int8_t>& values = work.values;
  std::vector<uint8_t>& inner_left = work.inner_left;
  const std::vector<int8_t>& exits = work.exits;

  Outbox<uint64_t> updates(threads_, comm_.size);
  std::vector<uint64_t> send, received, send_counts, received_counts;
  // Settled positions whose inner parents are still to be told. Parents kept here are told at
  // once (they may settle and join the queue in the same round); parents kept elsewhere wait for
  // the round's exchange. So a round follows chains of settled positions as far as they stay on
  // this rank: rounds are counted in hops between ranks, not in steps of the chains.
  std::vector<uint64_t> queue;
  uint64_t settled = 0;
  for (int t = s; t >= 1; --t) {
    ++work.levels;
    // Positions settled by their own moves at the start of level t.
#pragma omp parallel num_threads(threads_)
    {
      std::vector<uint64_t> found;
#pragma omp for schedule(static) nowait
      for (uint64_t l = 0; l < local_size; ++l) {
        if (values[l] != 0) continue;
        if (retrograde::settled_at_level_start(exits[l], inner_left[l], t)) {
          values[l] = exits[l];
          found.push_back(l);
        }
      }
#pragma omp critical
      queue.insert(queue.end(), found.begin(), found.end());
    }
    const std::string phase = "level " + std::to_string(t);
    while (true) {
      // One collective step: is there work left anywhere, and how far has the layer come?
      std::array<uint64_t, 4> mine{queue.size(), settled, comm_.items_sent, comm_.bytes_sent},
          all{};
      MPI_Allreduce(mine.data(), all.data(), 4, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
      if (comm_.rank == 0 && progress_) progress_({s, phase, all[1], total, all[2], all[3]});
      if (all[0] == 0) break;
      // At most kFrontierPiece positions per round, so that the updates of a round stay bounded.
      uint64_t budget = kFrontierPiece;
      while (budget > 0 && !queue.empty()) {
        const uint64_t take = std::min<uint64_t>(budget, queue.size());
        const uint64_t lo = queue.size() - take;
        budget -= take;
        settled += take;
        std::vector<uint64_t> batch(queue.begin() + static_cast<ptrdiff_t>(lo), queue.end());
        queue.resize(lo);
        // Chains of a few positions are common at the end of a level: not worth waking threads.
#pragma omp parallel if (batch.size() >= kParallelBatch) num_threads(threads_)
        {
          const int thread = omp_get_thread_num();
          std::vector<uint64_t> found;
          TableKey key;
          // Parents kept here are gathered a batch at a time and prefetched before they are
          // updated, so that the cache misses overlap; the others go to their owners.
          std::vector<std::pair<uint64_t, bool>> parents;  // (local index, child won)
          auto update = [&] {
            for (const auto& [q, won] : parents) {
              __builtin_prefetch(&values[q]);
              __builtin_prefetch(&inner_left[q]);
            }
            for (const auto& [q, won] : parents)
              if (retrograde::settled(
                      retrograde::settle_parent(values[q], inner_left[q], exits[q], won, t)))
                found.push_back(q);
            parents.clear();
          };
#pragma omp for schedule(dynamic, 256)
          for (size_t i = 0; i < batch.size(); ++i) {
            const uint64_t l = batch[i];
            index_.unrank(partition.global(me, l), s, key.counts.data());
            const Position p = position_from_key(key.counts.data(), h);
            const bool won = values[l] > 0;
            retrograde::visit_inner_parents<K>(rules_, p, [&](const Position& parent, Move) {
              const TableKey pk = table_key(parent);
              const uint64_t q = index_.rank(pk.counts.data());
              const int owner = partition.owner(q);
              if (owner == me)
                parents.emplace_back(partition.local(q), won);
              else
                updates.of(thread, owner).push_back(parent_update(partition.local(q), won));
            });
            if (parents.size() >= 64) update();
          }
          update();
#pragma omp critical
          queue.insert(queue.end(), found.begin(), found.end());
        }
      }
      // The round's exchange: updates to their owners, who settle what they settle.
      updates.flatten(send, send_counts);
      updates.clear();
      for (int d = 0; d < comm_.size; ++d) work.level_updates += send_counts[d];
      comm_.all_to_all(send, send_counts, received, received_counts);
#pragma omp parallel if (received.size() >= kParallelBatch) num_threads(threads_)
      {
        std::vector<uint64_t> found;
#pragma omp for schedule(static) nowait
        for (size_t i = 0; i < received.size(); ++i) {
          const uint64_t q = received[i] >> 1;
          if (retrograde::settled(retrograde::settle_parent(values[q], inner_left[q], exits[q],
                                                            received[i] & 1, t)))
            found.push_back(q);
        }
#pragma omp critical
        queue.insert(queue.end(), found.begin(), found.end());
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Writing a layer file: one writer per encoding (mpi_layer_write.h).

Expected<WriteReport> DistributedBuild::write_layer(int s, const std::vector<int8_t>& values) {
  const DistributedLayer layer{comm_,
                               partitions_[s],
                               name_,
                               houses_,
                               s,
                               index_.layer_size(s),
                               directory_ + "/" + layer_file_name(s),
                               threads_};
  return request_.write.encoding == kCodedBlocks
             ? write_coded_layer_distributed(layer, values, request_.write)
             : write_zstd_layer_distributed(layer, values, request_.write);
}

}  // namespace

Expected<bool> check_distributed_build_fits(const MpiSession& session, const BuildRequest& request,
                                            const DistributedOptions& options) {
  if (Expected<bool> ok = check_build_request(request); !ok) return ok;
  std::string error;
  if (options.machine_memory > 0) {
    const int here = session.ranks_on_this_machine();
    const uint64_t room = build_memory_room(options.machine_memory);
    const auto needed_here = [&](int max_seeds) {
      return distributed_build_memory_per_rank(request.rules, max_seeds, session.size()) *
             static_cast<uint64_t>(here);
    };
    if (needed_here(request.max_seeds) > room) {
      int deepest = request.max_seeds - 1;
      while (deepest > 0 && needed_here(deepest) > room) --deepest;
      const auto gigabytes = [](uint64_t bytes) {
        char text[32];
        std::snprintf(text, sizeof text, "%.1f", static_cast<double>(bytes) / 1e9);
        return std::string(text);
      };
      error = "layers up to " + std::to_string(request.max_seeds) + " seeds over " +
              std::to_string(session.size()) + " ranks need about " +
              gigabytes(needed_here(request.max_seeds)) + " GB on this machine, which runs " +
              std::to_string(here) + " of them and has " + gigabytes(options.machine_memory) +
              " GB; with these ranks the deepest build that fits here goes to " +
              std::to_string(deepest) + " seeds";
    }
  }
  error = Comm(session.rank(), session.size()).agree(error);
  if (!error.empty()) return Error{error};
  return true;
}

Expected<bool> build_tables_distributed(
    const MpiSession& session, const BuildRequest& request, const DistributedOptions& options,
    const std::function<void(const DistributedProgress&)>& progress,
    const std::function<void(const DistributedLayerReport&)>& layer_done) {
  if (Expected<bool> ok = check_build_request(request); !ok) return ok;
  if (request.write.encoding == kCodedBlocks && block_size_of(request.write) > kMaxCodedBlockSize)
    return Error{"a coded block holds at most " + std::to_string(kMaxCodedBlockSize) +
                 " positions"};
  if (Expected<bool> fits = check_distributed_build_fits(session, request, options); !fits)
    return fits;
  DistributedBuild build(session, request, options, progress, layer_done);
  return build.run();
}

}  // namespace mancala::db
