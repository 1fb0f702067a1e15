#include "solver/retrograde.h"

#include <omp.h>

#include <algorithm>
#include <atomic>

#include "solver/moves.h"

namespace mancala {

namespace {

// Marks "no move leaves the layer" in the exits array; a real value is never below -64.
constexpr int8_t kNoExit = INT8_MIN;

// Work is cut into chunks that each walk their ranks with next_key, and chunks into slices
// between progress reports.
constexpr uint64_t kChunk = 1 << 14;
constexpr uint64_t kSlice = 1 << 22;

template <class Body>
void for_each_rank(const TableIndex& index, int seeds, uint64_t begin, uint64_t end, Body&& body) {
  const uint64_t chunks = (end - begin + kChunk - 1) / kChunk;
#pragma omp parallel for schedule(dynamic, 1)
  for (uint64_t c = 0; c < chunks; ++c) {
    const uint64_t lo = begin + c * kChunk;
    const uint64_t hi = std::min(end, lo + kChunk);
    TableKey key;
    index.unrank(lo, seeds, key.counts.data());
    for (uint64_t r = lo; r < hi; ++r) {
      body(r, key);
      if (r + 1 < hi) next_key(key.counts.data(), index.slots());
    }
  }
}

template <class Body>
void sliced(const TableIndex& index, int seeds, const std::string& phase,
            const BuildProgressFn& progress, Body&& body) {
  const uint64_t size = index.layer_size(seeds);
  for (uint64_t begin = 0; begin < size; begin += kSlice) {
    for_each_rank(index, seeds, begin, std::min(size, begin + kSlice), body);
    if (progress) progress({seeds, phase, std::min(size, begin + kSlice), size});
  }
}

}  // namespace

Expected<Rules> table_rules_for(const Rules& game_rules) {
  if (game_rules.kind == GameKind::Congkak)
    return Error{"there are no endgame tables for Congkak (relay sowing): its levels use search"};
  if (game_rules.kind == GameKind::Kalah && game_rules.houses > kMaxTableHouses)
    return Error{"endgame tables cover Kalah with at most 6 houses"};
  Rules rules = game_rules;
  // A table position has empty stores, so the Oware majority rule (which reads the stores) must
  // never end play inside the tables: a seeds-per-house this large puts half the seeds out of
  // reach. Tables do not depend on the seeds per house otherwise.
  rules.seeds = static_cast<uint8_t>(kMaxTableSeeds / rules.houses + 1);
  return rules;
}

RetrogradeBuilder::RetrogradeBuilder(const Rules& rules, int max_seeds)
    : rules_(*table_rules_for(rules)),
      max_seeds_(max_seeds),
      index_(2 * rules.houses, max_seeds),
      layers_(static_cast<size_t>(max_seeds) + 1) {}

bool RetrogradeBuilder::has_layer(int seeds) const {
  return !layers_[seeds].empty() && layers_[seeds].size() == index_.layer_size(seeds);
}

void RetrogradeBuilder::set_layer(int seeds, std::vector<int8_t> values) {
  layers_[seeds] = std::move(values);
}

const std::vector<int8_t>& RetrogradeBuilder::build_layer(int seeds, const BuildProgressFn& progress) {
  const uint64_t size = index_.layer_size(seeds);
  const int h = rules_.houses;
  const Rules& rules = rules_;
  const TableIndex& index = index_;
  const auto& layers = layers_;

  std::vector<int8_t> exits(size);
  std::vector<uint8_t> has_inner(size);
  std::vector<int8_t> current(size);

  // Phase "exits".
  sliced(index, seeds, "exits", progress, [&](uint64_t r, const TableKey& key) {
    const Position p = position_from_key(key.counts.data(), h);
    const MoveList moves = generate_moves(rules, p);
    if (moves.empty()) {  // the game is over: each row to its owner
      const Outcome end = final_outcome(rules, p);
      exits[r] = static_cast<int8_t>(end.difference());
      has_inner[r] = 0;
      return;
    }
    int best = kNoExit;
    bool inner = false;
    for (Move m : moves) {
      const Position child = apply_move(rules, p, m);
      const int left = child.seeds_in_houses(Side::South) + child.seeds_in_houses(Side::North);
      if (left == seeds) {
        inner = true;
        continue;
      }
      const int value = table_move_value(p, child, [&](const Position& c) {
        const TableKey k = table_key(c);
        return static_cast<int>(layers[left][index.rank(k.counts.data())]);
      });
      best = std::max(best, value);
    }
    exits[r] = static_cast<int8_t>(best);
    has_inner[r] = inner;
  });

  // Phase "fixpoint": v1 = max(exit, 0) where inner moves exist, then sweeps until stable.
  for (uint64_t r = 0; r < size; ++r)
    current[r] = has_inner[r] ? std::max<int8_t>(exits[r], 0) : exits[r];
  std::vector<int8_t> next = current;
  int sweeps = 0;
  while (true) {
    ++sweeps;
    std::atomic<uint64_t> changed{0};
    sliced(index, seeds, "fixpoint " + std::to_string(sweeps), progress,
           [&](uint64_t r, const TableKey& key) {
             if (!has_inner[r]) return;
             const Position p = position_from_key(key.counts.data(), h);
             int best = exits[r];
             for (Move m : generate_moves(rules, p)) {
               const Position child = apply_move(rules, p, m);
               const int left = child.seeds_in_houses(Side::South) + child.seeds_in_houses(Side::North);
               if (left != seeds) continue;
               const TableKey k = table_key(child);
               best = std::max(best, -static_cast<int>(current[index.rank(k.counts.data())]));
             }
             next[r] = static_cast<int8_t>(best);
             if (next[r] != current[r]) changed.fetch_add(1, std::memory_order_relaxed);
           });
    current.swap(next);
    if (changed.load() == 0) break;
  }
  last_sweeps_ = sweeps;
  layers_[seeds] = std::move(current);
  return layers_[seeds];
}

}  // namespace mancala
