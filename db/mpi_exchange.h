// Message passing for the distributed build (table_build_mpi.h): counted all-to-all exchanges
// between ranks, reductions, and agreement on errors. Internal to the db layer's MPI library (not
// installed: it includes <mpi.h>). Every member that talks is collective: every rank calls it,
// in the same order.
#pragma once

#include <mpi.h>

#include <chrono>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/util/stopwatch.h"

namespace mancala::db {

template <class T>
MPI_Datatype mpi_type();
template <>
inline MPI_Datatype mpi_type<uint64_t>() {
  return MPI_UINT64_T;
}
template <>
inline MPI_Datatype mpi_type<int8_t>() {
  return MPI_INT8_T;
}
template <>
inline MPI_Datatype mpi_type<int>() {
  return MPI_INT;
}
template <>
inline MPI_Datatype mpi_type<double>() {
  return MPI_DOUBLE;
}

inline int checked_count(uint64_t n) {
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
  Comm(int rank_in_world, int world_size) : rank(rank_in_world), size(world_size) {}
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

}  // namespace mancala::db
