#include "db/table_build_mpi.h"

#include <fcntl.h>
#include <mpi.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <vector>

#include "db/checksum_stream.h"
#include "db/file_io.h"
#include "db/table_blocks.h"
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

// ---------------------------------------------------------------------------------------------
// Message passing: counted all-to-all exchanges and agreement on errors.

template <class T>
MPI_Datatype mpi_type();
template <>
MPI_Datatype mpi_type<uint64_t>() {
  return MPI_UINT64_T;
}
template <>
MPI_Datatype mpi_type<int8_t>() {
  return MPI_INT8_T;
}
template <>
MPI_Datatype mpi_type<int>() {
  return MPI_INT;
}
template <>
MPI_Datatype mpi_type<double>() {
  return MPI_DOUBLE;
}

int checked_count(uint64_t n) {
  if (n > static_cast<uint64_t>(INT_MAX))
    throw std::length_error("an exchange of more than 2^31 items in one message");
  return static_cast<int>(n);
}

// Items for each destination rank, filled by each OpenMP thread separately and sent as one
// buffer per destination: thread 0's items first, then thread 1's, and so on.
template <class T>
class Outbox {
 public:
  Outbox(int threads, int ranks)
      : items_(static_cast<size_t>(threads), std::vector<std::vector<T>>(ranks)) {}
  std::vector<T>& of(int thread, int destination) { return items_[thread][destination]; }
  int threads() const { return static_cast<int>(items_.size()); }
  int ranks() const { return static_cast<int>(items_[0].size()); }
  // Where thread `thread`'s items to `destination` start in that destination's buffer.
  uint64_t offset_in_destination(int thread, int destination) const {
    uint64_t offset = 0;
    for (int t = 0; t < thread; ++t) offset += items_[t][destination].size();
    return offset;
  }
  // Flattens into send (destination-major) and counts per destination; empties the outbox.
  void flatten(std::vector<T>& send, std::vector<uint64_t>& counts) {
    counts.assign(static_cast<size_t>(ranks()), 0);
    uint64_t total = 0;
    for (int d = 0; d < ranks(); ++d)
      for (int t = 0; t < threads(); ++t) counts[d] += items_[t][d].size();
    for (uint64_t c : counts) total += c;
    send.clear();
    send.reserve(total);
    for (int d = 0; d < ranks(); ++d)
      for (int t = 0; t < threads(); ++t)
        send.insert(send.end(), items_[t][d].begin(), items_[t][d].end());
  }
  void clear() {
    for (auto& per_thread : items_)
      for (auto& items : per_thread) {
        items.clear();
        items.shrink_to_fit();
      }
  }

 private:
  std::vector<std::vector<std::vector<T>>> items_;  // [thread][destination]
};

class Comm {
 public:
  explicit Comm(const MpiSession& session) : rank(session.rank()), size(session.size()) {}
  int rank;
  int size;
  // Per layer: exchanges, seconds inside them, items and bytes sent to other ranks.
  uint64_t exchanges = 0;
  double exchange_seconds = 0;
  uint64_t items_sent = 0;
  uint64_t bytes_sent = 0;

  // Sends send[counts[0] items to rank 0, the next counts[1] to rank 1, ...]; receives into
  // `received`, `received_counts[r]` items from rank r, in rank order.
  template <class T>
  void all_to_all(const std::vector<T>& send, const std::vector<uint64_t>& counts,
                  std::vector<T>& received, std::vector<uint64_t>& received_counts) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<int> send_counts(size), send_displs(size), recv_counts(size), recv_displs(size);
    uint64_t at = 0;
    for (int r = 0; r < size; ++r) {
      send_counts[r] = checked_count(counts[r]);
      send_displs[r] = checked_count(at);
      at += counts[r];
      if (r != rank) {
        items_sent += counts[r];
        bytes_sent += counts[r] * sizeof(T);
      }
    }
    MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    uint64_t total = 0;
    received_counts.assign(static_cast<size_t>(size), 0);
    for (int r = 0; r < size; ++r) {
      recv_displs[r] = checked_count(total);
      received_counts[r] = static_cast<uint64_t>(recv_counts[r]);
      total += received_counts[r];
    }
    received.resize(total);
    MPI_Alltoallv(send.data(), send_counts.data(), send_displs.data(), mpi_type<T>(),
                  received.data(), recv_counts.data(), recv_displs.data(), mpi_type<T>(),
                  MPI_COMM_WORLD);
    ++exchanges;
    exchange_seconds += seconds_since(t0);
  }

  // `value` combined over every rank by `op` (MPI_SUM, MPI_MAX, MPI_MIN); every rank gets it.
  template <class T>
  T all_reduce(T value, MPI_Op op) const {
    T out{};
    MPI_Allreduce(&value, &out, 1, mpi_type<T>(), op, MPI_COMM_WORLD);
    return out;
  }
  void barrier() const { MPI_Barrier(MPI_COMM_WORLD); }

  // Every rank learns whether any rank failed, and the message of the lowest failed rank
  // ("" when none did).
  std::string agree(const std::string& error) const {
    const int first = all_reduce(error.empty() ? size : rank, MPI_MIN);
    if (first == size) return "";
    std::string message = error;
    int length = static_cast<int>(message.size());
    MPI_Bcast(&length, 1, MPI_INT, first, MPI_COMM_WORLD);
    message.resize(static_cast<size_t>(length));
    MPI_Bcast(message.data(), length, MPI_CHAR, first, MPI_COMM_WORLD);
    if (size > 1 && first != 0 && message.find("rank ") != 0)
      message = "rank " + std::to_string(first) + ": " + message;
    return message;
  }
  bool agree_flag(bool flag) const {  // true when every rank says true
    return all_reduce(flag ? 1 : 0, MPI_MIN) == 1;
  }
  void reset_counters() {
    exchanges = 0;
    exchange_seconds = 0;
    items_sent = 0;
    bytes_sent = 0;
  }
};

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
      : comm_(session),
        request_(request),
        options_(options),
        rules_(*table_rules_for(request.rules)),
        index_(2 * request.rules.houses, request.max_seeds),
        name_(request.rules.table_name()),
        houses_(request.rules.houses),
        directory_(request.database_dir + "/" + table_directory_name(name_)),
        progress_(progress),
        layer_done_(layer_done),
        threads_(threads_or_all_cores(request.threads)) {
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
  Expected<WriteReport> write_coded_layer(int s, const std::vector<int8_t>& values);
  Expected<uint64_t> finish_layer_file(int s, uint64_t count, LayerSections layout,
                                       const std::string& temporary, const std::string& path,
                                       uint64_t index_offset, uint64_t index_bytes,
                                       uint64_t data_offset, bool decode_all);
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

// The data checksum of an open layer file, streamed from disk in bounded pieces (a reader that
// maps and touches the whole file would hold it all in memory).
Expected<bool> stream_section_checksum(const std::string& path, uint64_t offset, uint64_t size,
                                       uint64_t& checksum) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return Error{path + ": missing or unreadable"};
  Checksum64Stream stream(size);
  std::vector<uint8_t> buffer(uint64_t{4} << 20);
  uint64_t done = 0;
  while (done < size) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(buffer.size(), size - done));
    const ssize_t n = ::pread(fd, buffer.data(), want, static_cast<off_t>(offset + done));
    if (n <= 0) {
      ::close(fd);
      return Error{path + ": read failed"};
    }
    stream.update(buffer.data(), static_cast<size_t>(n));
    done += static_cast<uint64_t>(n);
  }
  ::close(fd);
  checksum = stream.finish();
  return true;
}

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
      uint64_t checksum = 0;
      Expected<bool> read =
          stream_section_checksum(report.path, header.data_offset, header.data_size, checksum);
      sound = read && checksum == header.data_checksum;
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
// Writing a layer file.

// Writes `size` bytes at `offset`, in pieces that fit MPI's int counts.
std::string write_at(MPI_File file, uint64_t offset, const uint8_t* data, uint64_t size) {
  constexpr uint64_t kPiece = uint64_t{1} << 30;
  for (uint64_t done = 0; done < size;) {
    const int n = static_cast<int>(std::min(kPiece, size - done));
    MPI_Status status;
    const int rc = MPI_File_write_at(file, static_cast<MPI_Offset>(offset + done), data + done, n,
                                     MPI_BYTE, &status);
    if (rc != MPI_SUCCESS) {
      char text[MPI_MAX_ERROR_STRING];
      int length = 0;
      MPI_Error_string(rc, text, &length);
      return "write failed (disk full?): " + std::string(text, static_cast<size_t>(length));
    }
    done += static_cast<uint64_t>(n);
  }
  return "";
}

// Reads [offset, offset + size) of `path` back and compares it with `expected`.
std::string compare_with_file(int fd, uint64_t offset, const uint8_t* expected, uint64_t size) {
  std::vector<uint8_t> buffer(std::min<uint64_t>(size, uint64_t{4} << 20));
  for (uint64_t done = 0; done < size;) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(buffer.size(), size - done));
    const ssize_t n = ::pread(fd, buffer.data(), want, static_cast<off_t>(offset + done));
    if (n <= 0) return "read back failed";
    if (std::memcmp(buffer.data(), expected + done, static_cast<size_t>(n)) != 0)
      return "read back different bytes at offset " + std::to_string(offset + done);
    done += static_cast<uint64_t>(n);
  }
  return "";
}

// A coded layer (kCodedBlocks): the symbol counts of every rank's values summed on every rank
// (integers: the same code whatever the ranks), then each rank codes its own groups and writes
// them and their index entries where write_table_file would have put them.
// Rank 0 checksums the sections from the file, writes the header, checks the file as any reader
// would (with `decode_all`, every block decoded too) and renames it into place; every rank
// learns the outcome, and the file's size.
Expected<uint64_t> DistributedBuild::finish_layer_file(int s, uint64_t count, LayerSections layout,
                                                       const std::string& temporary,
                                                       const std::string& path,
                                                       uint64_t index_offset, uint64_t index_bytes,
                                                       uint64_t data_offset, bool decode_all) {
  std::string error;
  uint64_t file_size = 0;
  if (comm_.rank == 0) {
    Expected<bool> ok =
        stream_section_checksum(temporary, index_offset, index_bytes, layout.index_checksum);
    if (ok)
      ok = stream_section_checksum(temporary, data_offset, layout.data_size, layout.data_checksum);
    if (!ok) error = ok.error();
    const TableHeader header = layer_header(name_, houses_, s, count, layout);
    file_size = header.file_size;
    if (error.empty()) {
      const int fd = ::open(temporary.c_str(), O_WRONLY);
      const bool written =
          fd >= 0 &&
          ::pwrite(fd, &header, sizeof header, 0) == static_cast<ssize_t>(sizeof header) &&
          ::fsync(fd) == 0;
      if (fd >= 0) ::close(fd);
      if (!written) error = temporary + ": write failed (disk full?)";
    }
    if (error.empty()) {
      Expected<std::shared_ptr<const TableFile>> check =
          TableFile::open(temporary, name_, houses_, s);
      if (!check) {
        error = path + ": written file failed its check: " + check.error();
      } else if (decode_all) {
        Expected<std::vector<int8_t>> all = (*check)->read_all({}, threads_);
        if (!all) error = path + ": written file failed its check: " + all.error();
      }
    }
    if (error.empty()) {
      std::error_code ec;
      std::filesystem::rename(temporary, path, ec);
      if (ec) error = path + ": cannot rename into place: " + ec.message();
    }
    if (!error.empty()) std::filesystem::remove(temporary);
  }
  error = comm_.agree(error);
  if (!error.empty()) return Error{error};
  MPI_Bcast(&file_size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  return file_size;
}

Expected<WriteReport> DistributedBuild::write_coded_layer(int s,
                                                          const std::vector<int8_t>& values) {
  const uint32_t block = block_size_of(request_.write);
  const LayerPartition& partition = partitions_[s];
  const uint64_t count = index_.layer_size(s);
  const uint64_t blocks = (count + block - 1) / block;
  const uint64_t group_positions = uint64_t{kGroupBlocks} * block;
  const int me = comm_.rank;
  const std::string path = directory_ + "/" + layer_file_name(s);
  const std::string temporary = path + ".tmp";

  struct Chunk {
    uint64_t begin, end, local;
    CodedGroups groups;
    std::vector<uint8_t> data;  // the groups' bytes, written at the chunk's offset
  };
  std::vector<Chunk> chunks;
  partition.for_each_run(me, [&](uint64_t b, uint64_t e, uint64_t l) {
    chunks.push_back({b, e, l, {}, {}});
  });
  std::vector<uint64_t> counts;
  count_contexts(values.data(), 0, block, s, counts);
  for (const Chunk& chunk : chunks)
    count_contexts(values.data() + chunk.local, chunk.end - chunk.begin, block, s, counts);
  MPI_Allreduce(MPI_IN_PLACE, counts.data(), checked_count(counts.size()), MPI_UINT64_T, MPI_SUM,
                MPI_COMM_WORLD);
  const std::vector<uint8_t> lengths = code_lengths(counts, s);
  Expected<std::shared_ptr<const ValueCode>> code =
      ValueCode::from_lengths(lengths.data(), lengths.size(), s);
  if (!code) return Error{path + ": " + code.error()};
  int coding_threads = threads_;
  for (Chunk& chunk : chunks) {
    chunk.groups = encode_groups(values.data() + chunk.local, chunk.end - chunk.begin, block,
                                 **code, threads_);
    chunk.data = join_pieces(std::move(chunk.groups.data));
  }

  // Where each chunk's groups go: the coded sizes of every chunk, in rank order.
  std::vector<uint64_t> chunk_offsets(partition.chunk_count() + 1, 0);
  {
    std::vector<uint64_t> mine;
    for (const Chunk& chunk : chunks) mine.push_back(chunk.data.size());
    int my_count = static_cast<int>(mine.size());
    std::vector<int> sizes_per_rank(comm_.size), displs(comm_.size);
    MPI_Allgather(&my_count, 1, MPI_INT, sizes_per_rank.data(), 1, MPI_INT, MPI_COMM_WORLD);
    int total = 0;
    for (int r = 0; r < comm_.size; ++r) {
      displs[r] = total;
      total += sizes_per_rank[r];
    }
    std::vector<uint64_t> sizes(static_cast<size_t>(total));
    MPI_Allgatherv(mine.data(), my_count, MPI_UINT64_T, sizes.data(), sizes_per_rank.data(),
                   displs.data(), MPI_UINT64_T, MPI_COMM_WORLD);
    for (uint64_t c = 0; c < partition.chunk_count(); ++c) {
      const uint64_t owner = c % static_cast<uint64_t>(comm_.size);
      const uint64_t k = c / static_cast<uint64_t>(comm_.size);
      chunk_offsets[c + 1] = chunk_offsets[c] + sizes[displs[owner] + k];
    }
  }
  const uint64_t data_size = chunk_offsets.back();
  const uint64_t index_bytes = coded_group_count(blocks) * sizeof(CodedGroup);
  const uint64_t index_offset = kHeaderSize;
  const uint64_t code_offset = index_offset + index_bytes;
  const uint64_t data_offset = code_offset + lengths.size();
  for (Chunk& chunk : chunks)
    for (CodedGroup& entry : chunk.groups.index)
      entry.offset += chunk_offsets[chunk.begin / partition.chunk()];

  std::string error;
  if (me == 0) std::filesystem::remove(temporary);
  comm_.barrier();
  MPI_File file;
  int rc = MPI_File_open(MPI_COMM_WORLD, temporary.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY,
                         MPI_INFO_NULL, &file);
  if (!comm_.agree_flag(rc == MPI_SUCCESS)) {
    if (rc == MPI_SUCCESS)  // a file opened on some ranks only: nothing collective is safe now
      throw std::runtime_error(temporary + ": could be opened on some ranks only");
    return Error{temporary + ": cannot create"};
  }
  auto entry_offset = [&](const Chunk& chunk) {
    return index_offset + chunk.begin / group_positions * sizeof(CodedGroup);
  };
  for (size_t i = 0; i < chunks.size() && error.empty(); ++i) {
    const Chunk& chunk = chunks[i];
    error = write_at(file, entry_offset(chunk),
                     reinterpret_cast<const uint8_t*>(chunk.groups.index.data()),
                     chunk.groups.index.size() * sizeof(CodedGroup));
    if (error.empty())
      error = write_at(file, data_offset + chunk_offsets[chunk.begin / partition.chunk()],
                       chunk.data.data(), chunk.data.size());
  }
  if (me == 0 && error.empty()) error = write_at(file, code_offset, lengths.data(), lengths.size());
  if (MPI_File_close(&file) != MPI_SUCCESS && error.empty()) error = "closing failed";
  if (!error.empty()) error = temporary + ": " + error;
  error = comm_.agree(error);
  if (!error.empty()) {
    if (me == 0) std::filesystem::remove(temporary);
    return Error{error};
  }

  // Every rank reads its own part back before the file is trusted.
  {
    const int fd = ::open(temporary.c_str(), O_RDONLY);
    if (fd < 0) error = temporary + ": cannot read back";
    for (size_t i = 0; i < chunks.size() && error.empty(); ++i) {
      const Chunk& chunk = chunks[i];
      error = compare_with_file(fd, entry_offset(chunk),
                                reinterpret_cast<const uint8_t*>(chunk.groups.index.data()),
                                chunk.groups.index.size() * sizeof(CodedGroup));
      if (error.empty())
        error = compare_with_file(fd, data_offset + chunk_offsets[chunk.begin / partition.chunk()],
                                  chunk.data.data(), chunk.data.size());
      if (!error.empty()) error = temporary + ": " + error;
    }
    if (fd >= 0) ::close(fd);
  }
  error = comm_.agree(error);
  if (!error.empty()) {
    if (me == 0) std::filesystem::remove(temporary);
    return Error{error};
  }

  // Every group checked against its checksum and every block decoded, as any reader would.
  LayerSections layout;
  layout.encoding = kCodedBlocks;
  layout.block_size = block;
  layout.block_count = blocks;
  layout.dictionary_size = lengths.size();
  layout.data_size = data_size;
  layout.dictionary_checksum = checksum64(lengths.data(), lengths.size());
  const Expected<uint64_t> file_size =
      finish_layer_file(s, count, layout, temporary, path, index_offset, index_bytes, data_offset,
                        /*decode_all=*/true);
  if (!file_size) return Error{file_size.error()};
  return WriteReport{*file_size, blocks, lengths.size(), coding_threads};
}

Expected<WriteReport> DistributedBuild::write_layer(int s, const std::vector<int8_t>& values) {
  if (request_.write.encoding == kCodedBlocks) return write_coded_layer(s, values);
  const WriteOptions& options = request_.write;
  const LayerPartition& partition = partitions_[s];
  const uint64_t count = index_.layer_size(s);
  const uint64_t block = block_size_of(options);
  const uint64_t blocks = (count + block - 1) / block;
  const int me = comm_.rank;
  const std::string path = directory_ + "/" + layer_file_name(s);
  const std::string temporary = path + ".tmp";

  struct Chunk {
    uint64_t begin, end, local;
    std::vector<uint8_t> data;            // its compressed blocks, one after another
    std::vector<uint64_t> block_offsets;  // each block's offset in `data`
  };
  std::vector<Chunk> chunks;
  partition.for_each_run(me, [&](uint64_t b, uint64_t e, uint64_t l) {
    chunks.push_back({b, e, l, {}, {}});
  });

  // The dictionary: rank 0 trains it on the same sampled blocks as write_table_file, gathered
  // from their owners in sample order.
  std::vector<uint8_t> dictionary;
  {
    const std::vector<uint64_t> samples = dictionary_sample_blocks(blocks, options);
    std::vector<uint8_t> mine;
    for (uint64_t b : samples) {
      const uint64_t lo = b * block, hi = std::min(count, lo + block);
      if (partition.owner(lo) != me) continue;
      const size_t at = mine.size();
      mine.resize(at + (hi - lo));
      zigzag_encode(values.data() + partition.local(lo), hi - lo, mine.data() + at);
    }
    int my_bytes = checked_count(mine.size());
    std::vector<int> bytes(comm_.size), displs(comm_.size);
    MPI_Gather(&my_bytes, 1, MPI_INT, bytes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    uint64_t total = 0;
    for (int r = 0; r < comm_.size; ++r) {
      displs[r] = checked_count(total);
      total += static_cast<uint64_t>(bytes[r]);
    }
    std::vector<uint8_t> gathered(me == 0 ? total : 0);
    MPI_Gatherv(mine.data(), my_bytes, MPI_UINT8_T, gathered.data(), bytes.data(), displs.data(),
                MPI_UINT8_T, 0, MPI_COMM_WORLD);
    uint64_t dictionary_size = 0;
    if (me == 0 && !samples.empty()) {
      // Put the samples back in sample order: each rank sent its own in that order.
      std::vector<uint8_t> sample_bytes;
      std::vector<size_t> sample_sizes;
      std::vector<uint64_t> cursor(displs.begin(), displs.end());
      for (uint64_t b : samples) {
        const uint64_t lo = b * block, hi = std::min(count, lo + block);
        uint64_t& at = cursor[partition.owner(lo)];
        sample_bytes.insert(sample_bytes.end(), gathered.begin() + static_cast<ptrdiff_t>(at),
                            gathered.begin() + static_cast<ptrdiff_t>(at + (hi - lo)));
        sample_sizes.push_back(hi - lo);
        at += hi - lo;
      }
      dictionary = train_dictionary(sample_bytes, sample_sizes, options);
      dictionary_size = dictionary.size();
    }
    MPI_Bcast(&dictionary_size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    dictionary.resize(dictionary_size);
    MPI_Bcast(dictionary.data(), checked_count(dictionary_size), MPI_UINT8_T, 0, MPI_COMM_WORLD);
  }

  // Every rank compresses its own blocks.
  std::string error;
  int compressing_threads = 0;
  {
    const PreparedDictionary prepared(dictionary, options);
    for (Chunk& chunk : chunks) {
      CompressedBlocks compressed = compress_blocks(
          values.data() + chunk.local, chunk.end - chunk.begin, block, prepared, options, threads_);
      compressing_threads = std::max(compressing_threads, compressed.threads);
      if (compressed.failed) error = path + ": compression failed";
      std::vector<std::vector<uint8_t>>& frames = compressed.frames;
      chunk.block_offsets.resize(frames.size());
      uint64_t size = 0;
      for (size_t i = 0; i < frames.size(); ++i) {
        chunk.block_offsets[i] = size;
        size += frames[i].size();
      }
      chunk.data.reserve(size);
      for (std::vector<uint8_t>& c : frames) {
        chunk.data.insert(chunk.data.end(), c.begin(), c.end());
        std::vector<uint8_t>().swap(c);
      }
    }
  }
  error = comm_.agree(error);
  if (!error.empty()) return Error{error};

  // Where each chunk's blocks go: the compressed sizes of every chunk, in rank order.
  std::vector<uint64_t> chunk_offsets(partition.chunk_count() + 1, 0);
  {
    std::vector<uint64_t> mine;
    for (const Chunk& chunk : chunks) mine.push_back(chunk.data.size());
    int my_count = static_cast<int>(mine.size());
    std::vector<int> counts(comm_.size), displs(comm_.size);
    MPI_Allgather(&my_count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    int total = 0;
    for (int r = 0; r < comm_.size; ++r) {
      displs[r] = total;
      total += counts[r];
    }
    std::vector<uint64_t> sizes(static_cast<size_t>(total));
    MPI_Allgatherv(mine.data(), my_count, MPI_UINT64_T, sizes.data(), counts.data(), displs.data(),
                   MPI_UINT64_T, MPI_COMM_WORLD);
    // Chunk c is the (c / ranks)-th chunk of rank c % ranks.
    for (uint64_t c = 0; c < partition.chunk_count(); ++c) {
      const uint64_t owner = c % static_cast<uint64_t>(comm_.size);
      const uint64_t k = c / static_cast<uint64_t>(comm_.size);
      chunk_offsets[c + 1] = chunk_offsets[c] + sizes[displs[owner] + k];
    }
  }
  const uint64_t data_size = chunk_offsets.back();
  const uint64_t index_bytes = (blocks + 1) * sizeof(uint64_t);
  const uint64_t index_offset = kHeaderSize;
  const uint64_t dictionary_offset = index_offset + index_bytes;
  const uint64_t data_offset = dictionary_offset + dictionary.size();

  // The temporary file, written by every rank with MPI-IO: each its own index entries and
  // blocks, rank 0 the dictionary and the index's last entry; the header comes last.
  if (me == 0) std::filesystem::remove(temporary);
  comm_.barrier();
  MPI_File file;
  int rc = MPI_File_open(MPI_COMM_WORLD, temporary.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY,
                         MPI_INFO_NULL, &file);
  if (!comm_.agree_flag(rc == MPI_SUCCESS)) {
    if (rc == MPI_SUCCESS)  // a file opened on some ranks only: nothing collective is safe now
      throw std::runtime_error(temporary + ": could be opened on some ranks only");
    return Error{temporary + ": cannot create"};
  }
  std::vector<std::vector<uint64_t>> index_entries(chunks.size());
  for (size_t i = 0; i < chunks.size() && error.empty(); ++i) {
    const Chunk& chunk = chunks[i];
    const uint64_t c = chunk.begin / partition.chunk();
    for (uint64_t o : chunk.block_offsets) index_entries[i].push_back(chunk_offsets[c] + o);
    error = write_at(file, index_offset + (chunk.begin / block) * sizeof(uint64_t),
                     reinterpret_cast<const uint8_t*>(index_entries[i].data()),
                     index_entries[i].size() * sizeof(uint64_t));
    if (error.empty())
      error = write_at(file, data_offset + chunk_offsets[c], chunk.data.data(), chunk.data.size());
  }
  if (me == 0 && error.empty()) {
    error = write_at(file, index_offset + blocks * sizeof(uint64_t),
                     reinterpret_cast<const uint8_t*>(&data_size), sizeof data_size);
    if (error.empty())
      error = write_at(file, dictionary_offset, dictionary.data(), dictionary.size());
  }
  if (MPI_File_close(&file) != MPI_SUCCESS && error.empty()) error = "closing failed";
  if (!error.empty()) error = temporary + ": " + error;
  error = comm_.agree(error);
  if (!error.empty()) {
    if (me == 0) std::filesystem::remove(temporary);
    return Error{error};
  }

  // Every rank reads its own part back before the file is trusted.
  {
    const int fd = ::open(temporary.c_str(), O_RDONLY);
    if (fd < 0) error = temporary + ": cannot read back";
    for (size_t i = 0; i < chunks.size() && error.empty(); ++i) {
      const Chunk& chunk = chunks[i];
      error = compare_with_file(fd, index_offset + (chunk.begin / block) * sizeof(uint64_t),
                                reinterpret_cast<const uint8_t*>(index_entries[i].data()),
                                index_entries[i].size() * sizeof(uint64_t));
      if (error.empty())
        error = compare_with_file(fd, data_offset + chunk_offsets[chunk.begin / partition.chunk()],
                                  chunk.data.data(), chunk.data.size());
      if (!error.empty()) error = temporary + ": " + error;
    }
    if (fd >= 0) ::close(fd);
  }
  error = comm_.agree(error);
  if (!error.empty()) {
    if (me == 0) std::filesystem::remove(temporary);
    return Error{error};
  }

  LayerSections layout;
  layout.encoding = kZstdBlocks;
  layout.block_size = static_cast<uint32_t>(block);
  layout.block_count = blocks;
  layout.dictionary_size = dictionary.size();
  layout.data_size = data_size;
  layout.dictionary_checksum = checksum64(dictionary.data(), dictionary.size());
  const Expected<uint64_t> file_size =
      finish_layer_file(s, count, layout, temporary, path, index_offset, index_bytes, data_offset,
                        /*decode_all=*/false);
  if (!file_size) return Error{file_size.error()};
  return WriteReport{*file_size, blocks, dictionary.size(), compressing_threads};
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
  error = Comm(session).agree(error);
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
