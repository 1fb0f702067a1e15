#include "solver/tables/retrograde.h"

#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <climits>
#include <stdexcept>
#include <vector>

#include "solver/rules/moves.h"
#include "solver/tables/rank_walk.h"
#include "solver/tables/retrograde_kalah.h"
#include "solver/tables/retrograde_phases.h"
#include "solver/util/stopwatch.h"
#include "solver/util/thread_count.h"

namespace mancala {

namespace {

// A phase walks its layer in slices of this many positions, with a progress report after each.
constexpr uint64_t kSlice = 1 << 22;

template <class Body>
void sliced(const TableIndex& index, int seeds, int threads, const std::string& phase,
            const LayerProgressFn& progress, Body&& body) {
  const uint64_t size = index.layer_size(seeds);
  for (uint64_t begin = 0; begin < size; begin += kSlice) {
    for_each_rank(index, seeds, begin, std::min(size, begin + kSlice), threads, body);
    if (progress) progress({seeds, phase, std::min(size, begin + kSlice), size});
  }
}

// A layer's values (or one byte per position of another kind), all 0, in memory backed by 2 MB
// pages where the kernel offers them: the builder reads the layers at random, and with 4 KB pages
// nearly every read also waits for a page walk (measured: the Kalah pass 15-20% faster on 17- and
// 18-seed layers). The advice has to come before the pages are first touched, so the vector
// reserves its memory (a fresh mapping for a large layer), is advised, and only then filled.
template <class T = int8_t>
std::vector<T> new_layer_values(uint64_t size) {
  std::vector<T> values;
  values.reserve(size);
  constexpr uintptr_t kHugePage = uintptr_t{2} << 20;
  const uintptr_t begin =
      (reinterpret_cast<uintptr_t>(values.data()) + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(values.data()) + size) & ~(kHugePage - 1);
  if (begin < end) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  values.resize(size);
  return values;
}

}  // namespace

RetrogradeBuilder::RetrogradeBuilder(const Rules& rules, int max_seeds, LayerMethod method,
                                     int threads)
    : rules_(*table_rules_for(rules)),
      max_seeds_(max_seeds),
      one_pass_(rules_.kind == GameKind::Kalah && method == LayerMethod::Fastest),
      threads_(team_size(threads)),
      index_(2 * rules.houses, max_seeds),
      owned_(static_cast<size_t>(max_seeds) + 1),
      keepers_(static_cast<size_t>(max_seeds) + 1),
      views_(static_cast<size_t>(max_seeds) + 1),
      orders_(static_cast<size_t>(max_seeds) + 1, LayerOrder::Ranks) {}

void RetrogradeBuilder::set_layer(int seeds, std::vector<int8_t> values) {
  const auto s = static_cast<size_t>(seeds);
  owned_[s] = std::move(values);
  keepers_[s].reset();
  views_[s] = owned_[s];
  orders_[s] = LayerOrder::Ranks;
}

void RetrogradeBuilder::hold_layer_elsewhere(int seeds, std::span<const int8_t> values,
                                             std::shared_ptr<const void> keeper, LayerOrder order) {
  const auto s = static_cast<size_t>(seeds);
  keepers_[s] = std::move(keeper);
  views_[s] = values;
  orders_[s] = order;
  std::vector<int8_t>().swap(owned_[s]);  // the memory goes back now, not at the end
}

std::span<const int8_t> RetrogradeBuilder::build_layer(int seeds, const LayerProgressFn& progress,
                                                       const KalahPairHook& before_pair) {
  if (one_pass_)
    build_in_one_pass(seeds, progress, before_pair);
  else if (rules_.kind == GameKind::Oware)
    build_by_levels<GameKind::Oware>(seeds, progress);
  else
    build_by_levels<GameKind::Kalah>(seeds, progress);
  return views_[static_cast<size_t>(seeds)];
}

void RetrogradeBuilder::build_in_one_pass(int seeds, const LayerProgressFn& progress,
                                          const KalahPairHook& before_pair) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<int8_t> values = new_layer_values(index_.layer_size(seeds));
  value_kalah_layer(rules_, index_, views_, seeds, values.data(), threads_, "values", progress,
                    before_pair, orders_);
  last_levels_ = 0;
  last_level_scans_ = 0;
  last_timings_ = {0, 0, seconds_since(start)};
  set_layer(seeds, std::move(values));
}

std::span<const int8_t> RetrogradeBuilder::build_layer_into(int seeds, std::span<int8_t> out,
                                                            std::shared_ptr<const void> keeper,
                                                            LayerOrder order,
                                                            const LayerProgressFn& progress,
                                                            const KalahPairHook& before_pair) {
  if (!one_pass_ || out.size() != index_.layer_size(seeds))
    throw std::invalid_argument("build_layer_into: a one-pass layer of its own size");
  const auto start = std::chrono::steady_clock::now();
  value_kalah_layer(rules_, index_, views_, seeds, out.data(), threads_, "values", progress,
                    before_pair, orders_, order);
  last_levels_ = 0;
  last_level_scans_ = 0;
  last_timings_ = {0, 0, seconds_since(start)};
  hold_layer_elsewhere(seeds, out, std::move(keeper), order);
  return views_[static_cast<size_t>(seeds)];
}

// ---------------------------------------------------------------- exits and levels (Oware)

namespace {

using retrograde::kNoExit;

// Positions that can start a level: for each t, how many positions not yet valued the scan at
// the start of level t would take (a won one: its best exit is worth t; a lost one: it has no
// inner move left whose child is not won, and its best exit is worth -t). Kept as the levels go,
// so that a level with none skips its scan and a scan stops once it has found them all. A count
// may run high (two threads can settle one position at once), never low.
class LevelStarts {
 public:
  explicit LevelStarts(int seeds) : counts_(static_cast<size_t>(seeds) + 1, 0) {}
  // Per-thread changes, merged with add().
  using Delta = std::vector<int64_t>;
  Delta delta() const { return Delta(counts_.size(), 0); }
  void add(const Delta& d) {
    for (size_t t = 0; t < counts_.size(); ++t) counts_[t] += d[t];
  }
  int64_t at(int t) const { return counts_[static_cast<size_t>(t)]; }

  // A position just out of the exits phase.
  static void count_new(Delta& d, int exit_value, int inner_moves) {
    if (exit_value >= 1)
      ++d[static_cast<size_t>(exit_value)];
    else if (inner_moves == 0 && exit_value != kNoExit && exit_value <= -1)
      ++d[static_cast<size_t>(-exit_value)];
  }
  // A position found won at level t by an inner move: it no longer starts a lower level.
  static void count_won(Delta& d, int exit_value, int t) {
    if (exit_value >= 1 && exit_value < t) --d[static_cast<size_t>(exit_value)];
  }
  // A position not valued whose last inner move just turned out won at level t, with its best
  // exit worth more than -t: if that is below 0, it starts level -exit.
  static void count_cornered(Delta& d, int exit_value) {
    if (exit_value != kNoExit && exit_value <= -1) ++d[static_cast<size_t>(-exit_value)];
  }

 private:
  std::vector<int64_t> counts_;
};

}  // namespace

void for_each_inner_parent(const Rules& rules, const Position& child,
                           const std::function<void(const Position&, Move)>& visit) {
  if (rules.kind == GameKind::Oware)
    retrograde::visit_inner_parents<GameKind::Oware>(rules, child, visit);
  else
    retrograde::visit_inner_parents<GameKind::Kalah>(rules, child, visit);
}

template <GameKind K>
void RetrogradeBuilder::build_by_levels(int seeds, const LayerProgressFn& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t size = index_.layer_size(seeds);
  const int h = rules_.houses;
  const Rules& rules = rules_;
  const TableIndex& index = index_;
  const auto& layers = views_;

  std::vector<int8_t> exits = new_layer_values(size);
  // Inner moves whose child is not (yet) worth >= t.
  std::vector<uint8_t> inner_left = new_layer_values<uint8_t>(size);
  // 0 until the position is found won (> 0) or lost (< 0).
  std::vector<int8_t> values = new_layer_values(size);
  LevelStarts starts(seeds);

  // Phase "exits".
  std::vector<LevelStarts::Delta> thread_starts(static_cast<size_t>(threads_), starts.delta());
  sliced(index, seeds, threads_, "exits", progress, [&](uint64_t r, const TableKey& key) {
    const Position p = position_from_key(key.counts.data(), h);
    // Children that leave the layer are looked up in the layers below: work out every rank
    // first and prefetch, so that the cache misses overlap.
    const retrograde::PositionExits e = retrograde::position_exits<K>(rules, index, seeds, p);
    for (int i = 0; i < e.count; ++i)
      __builtin_prefetch(&layers[e.moves[i].layer][e.moves[i].rank]);
    int best = e.known;
    for (int i = 0; i < e.count; ++i)
      best = std::max(
          best, retrograde::exit_move_value(e.moves[i], layers[e.moves[i].layer][e.moves[i].rank]));
    exits[r] = static_cast<int8_t>(best);
    inner_left[r] = static_cast<uint8_t>(e.inner);
    LevelStarts::count_new(thread_starts[static_cast<size_t>(thread_in_team())], best, e.inner);
  });
  for (const LevelStarts::Delta& d : thread_starts) starts.add(d);

  // Phase "levels": for t = s .. 1, the positions worth at least t (won at level t) and at most
  // -t (lost at level t). A position is won at level t if a move leaving the layer is worth t,
  // or an inner move reaches a position lost at level t; it is lost at level t if no move
  // leaving the layer is worth more than -t and every inner move reaches a position won at level
  // t. Each set is a least fixpoint, grown from the level above by following inner moves
  // backwards, so the result does not depend on the order of work. What is never won or lost
  // is worth 0: a draw, or a cycle no side can force its way out of.
  const auto t1 = std::chrono::steady_clock::now();
  std::vector<uint64_t> frontier;
  int levels = 0, scans = 0;
  for (int t = seeds; t >= 1; --t) {
    ++levels;
    frontier.clear();
    // Seeds of level t: exits worth exactly t; lost positions whose exits just fell to -t. The
    // scan stops once it has found as many as were counted (none: no scan at all).
    const int64_t expected = starts.at(t);
    if (expected > 0) ++scans;
    for (uint64_t r = 0; r < size && static_cast<int64_t>(frontier.size()) < expected; ++r) {
      if (values[r] != 0) continue;
      if (retrograde::settled_at_level_start(exits[r], inner_left[r], t)) {
        values[r] = static_cast<int8_t>(exits[r]);
        frontier.push_back(r);
      }
    }
    uint64_t settled = 0;
    while (!frontier.empty()) {
      std::vector<uint64_t> next;
#pragma omp parallel num_threads(threads_)
      {
        std::vector<uint64_t> found;
        LevelStarts::Delta counted = starts.delta();
        TableKey key;
        // Parents are gathered a batch at a time and prefetched before they are updated, so
        // that the cache misses on the big arrays overlap.
        std::vector<std::pair<uint64_t, bool>> parents;  // (rank, child won)
        auto update = [&] {
          for (const auto& [q, won] : parents) {
            __builtin_prefetch(&values[q]);
            __builtin_prefetch(&inner_left[q]);
          }
          for (const auto& [q, won] : parents) {
            switch (retrograde::settle_parent(values[q], inner_left[q], exits[q], won, t)) {
              case retrograde::ParentChange::won:
                found.push_back(q);
                LevelStarts::count_won(counted, exits[q], t);
                break;
              case retrograde::ParentChange::lost:
                found.push_back(q);
                break;
              case retrograde::ParentChange::cornered:
                LevelStarts::count_cornered(counted, exits[q]);
                break;
              case retrograde::ParentChange::none:
                break;
            }
          }
          parents.clear();
        };
#pragma omp for schedule(dynamic, 256)
        for (size_t i = 0; i < frontier.size(); ++i) {
          const uint64_t r = frontier[i];
          index.unrank(r, seeds, key.counts.data());
          const Position p = position_from_key(key.counts.data(), h);
          const bool won = values[r] > 0;
          retrograde::visit_inner_parents<K>(rules, p, [&](const Position& parent, Move) {
            const TableKey pk = table_key(parent);
            parents.emplace_back(index.rank(pk.counts.data()), won);
          });
          if (parents.size() >= 64) update();
        }
        update();
#pragma omp critical
        {
          next.insert(next.end(), found.begin(), found.end());
          starts.add(counted);
        }
      }
      settled += frontier.size();
      frontier.swap(next);
      if (progress) progress({seeds, "level " + std::to_string(t), settled, size});
    }
  }
  last_levels_ = levels;
  last_level_scans_ = scans;
  last_timings_ = {std::chrono::duration<double>(t1 - t0).count(), seconds_since(t1), 0};
  set_layer(seeds, std::move(values));
}

}  // namespace mancala
