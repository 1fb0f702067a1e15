#include "solver/tables/retrograde.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <vector>

#include "solver/rules/moves.h"
#include "solver/tables/rank_walk.h"
#include "solver/tables/retrograde_phases.h"

namespace mancala {

namespace {

// A phase walks its layer in slices of this many positions, with a progress report after each.
constexpr uint64_t kSlice = 1 << 22;

template <class Body>
void sliced(const TableIndex& index, int seeds, const std::string& phase,
            const LayerProgressFn& progress, Body&& body) {
  const uint64_t size = index.layer_size(seeds);
  for (uint64_t begin = 0; begin < size; begin += kSlice) {
    for_each_rank(index, seeds, begin, std::min(size, begin + kSlice), body);
    if (progress) progress({seeds, phase, std::min(size, begin + kSlice), size});
  }
}

}  // namespace

RetrogradeBuilder::RetrogradeBuilder(const Rules& rules, int max_seeds)
    : rules_(*table_rules_for(rules)),
      max_seeds_(max_seeds),
      index_(2 * rules.houses, max_seeds),
      layers_(static_cast<size_t>(max_seeds) + 1) {}

void RetrogradeBuilder::set_layer(int seeds, std::vector<int8_t> values) {
  layers_[seeds] = std::move(values);
}

void for_each_inner_parent(const Rules& rules, const Position& child,
                           const std::function<void(const Position&, Move)>& visit) {
  if (rules.kind == GameKind::Oware)
    retrograde::visit_inner_parents<GameKind::Oware>(rules, child, visit);
  else
    retrograde::visit_inner_parents<GameKind::Kalah>(rules, child, visit);
}

const std::vector<int8_t>& RetrogradeBuilder::build_layer(int seeds,
                                                          const LayerProgressFn& progress) {
  if (rules_.kind == GameKind::Oware)
    build_layer_for<GameKind::Oware>(seeds, progress);
  else
    build_layer_for<GameKind::Kalah>(seeds, progress);
  return layers_[seeds];
}

template <GameKind K>
void RetrogradeBuilder::build_layer_for(int seeds, const LayerProgressFn& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t size = index_.layer_size(seeds);
  const int h = rules_.houses;
  const Rules& rules = rules_;
  const TableIndex& index = index_;
  const auto& layers = layers_;

  std::vector<int8_t> exits(size);
  std::vector<uint8_t> inner_left(size);  // inner moves whose child is not (yet) worth >= t
  std::vector<int8_t> values(size, 0);    // 0 until the position is found won (> 0) or lost (< 0)

  // Phase "exits".
  sliced(index, seeds, "exits", progress, [&](uint64_t r, const TableKey& key) {
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
  });

  // Phase "levels": for t = s .. 1, the positions worth at least t (won at level t) and at most
  // -t (lost at level t). A position is won at level t if a move leaving the layer is worth t,
  // or an inner move reaches a position lost at level t; it is lost at level t if no move
  // leaving the layer is worth more than -t and every inner move reaches a position won at level
  // t. Each set is a least fixpoint, grown from the level above by following inner moves
  // backwards, so the result does not depend on the order of work. What is never won or lost
  // is worth 0: a draw, or a cycle no side can force its way out of.
  const auto t1 = std::chrono::steady_clock::now();
  std::vector<uint64_t> frontier;
  int levels = 0;
  for (int t = seeds; t >= 1; --t) {
    ++levels;
    frontier.clear();
    // Seeds of level t: exits worth exactly t; lost positions whose exits just fell to -t.
    for (uint64_t r = 0; r < size; ++r) {
      if (values[r] != 0) continue;
      if (retrograde::settled_at_level_start(exits[r], inner_left[r], t)) {
        values[r] = static_cast<int8_t>(exits[r]);
        frontier.push_back(r);
      }
    }
    uint64_t settled = 0;
    while (!frontier.empty()) {
      std::vector<uint64_t> next;
#pragma omp parallel
      {
        std::vector<uint64_t> found;
        TableKey key;
        // Parents are gathered a batch at a time and prefetched before they are updated, so
        // that the cache misses on the big arrays overlap.
        std::vector<std::pair<uint64_t, bool>> parents;  // (rank, child won)
        auto update = [&] {
          for (const auto& [q, won] : parents) {
            __builtin_prefetch(&values[q]);
            __builtin_prefetch(&inner_left[q]);
          }
          for (const auto& [q, won] : parents)
            if (retrograde::settle_parent(values[q], inner_left[q], exits[q], won, t))
              found.push_back(q);
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
        next.insert(next.end(), found.begin(), found.end());
      }
      settled += frontier.size();
      frontier.swap(next);
      if (progress) progress({seeds, "level " + std::to_string(t), settled, size});
    }
  }
  last_levels_ = levels;
  const auto t2 = std::chrono::steady_clock::now();
  last_timings_ = {std::chrono::duration<double>(t1 - t0).count(),
                   std::chrono::duration<double>(t2 - t1).count()};
  layers_[seeds] = std::move(values);
}

}  // namespace mancala
