#include "solver/retrograde.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <vector>

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


namespace {

// The next slot of a sowing by `mover` after `slot`: Kalah skips the opponent's store; Oware
// skips both stores and the emptied house `origin`.
int next_sown_slot(const Rules& rules, int h, Side mover, int origin, int slot) {
  const int ring = 2 * h + 2;
  while (true) {
    if (++slot == ring) slot = 0;
    const bool store = slot == h || slot == 2 * h + 1;
    if (rules.kind == GameKind::Oware) {
      if (!store && slot != origin) return slot;
    } else if (slot != (mover == Side::South ? 2 * h + 1 : h)) {
      return slot;
    }
  }
}

}  // namespace

void for_each_inner_parent(const Rules& rules, const Position& child,
                           const std::function<void(const Position&, Move)>& visit) {
  const int h = child.houses;
  const Side mover = opponent(child.side_to_move);  // who made the inner move
  const int seeds = child.seeds_in_houses(Side::South) + child.seeds_in_houses(Side::North);
  for (int house = 0; house < h; ++house) {
    const int origin = child.house_slot(mover, house);
    if (child.slots[origin] != 0) continue;  // an inner move leaves its house empty
    // Take back one seed after another along the sowing; once a slot has none to give, no
    // longer sowing can have reached past it either.
    Position parent = child;
    parent.side_to_move = mover;
    int slot = origin;
    for (int n = 1; n <= seeds; ++n) {
      slot = next_sown_slot(rules, h, mover, origin, slot);
      if (slot == origin || parent.slots[slot] == 0) break;
      --parent.slots[slot];
      Position candidate = parent;
      candidate.slots[origin] = static_cast<uint16_t>(n);
      // The candidate is a parent only if the move is legal there and gives exactly `child`.
      const MoveList moves = generate_moves(rules, candidate);
      if (moves.contains(static_cast<Move>(house)) &&
          apply_move(rules, candidate, static_cast<Move>(house)) == child)
        visit(candidate, static_cast<Move>(house));
    }
  }
}

const std::vector<int8_t>& RetrogradeBuilder::build_layer(int seeds, const BuildProgressFn& progress) {
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
    const MoveList moves = generate_moves(rules, p);
    if (moves.empty()) {  // the game is over: each row to its owner
      exits[r] = static_cast<int8_t>(final_outcome(rules, p).difference());
      return;
    }
    int best = kNoExit;
    int inner = 0;
    for (Move m : moves) {
      const Position child = apply_move(rules, p, m);
      const int left = child.seeds_in_houses(Side::South) + child.seeds_in_houses(Side::North);
      if (left == seeds) {
        ++inner;
        continue;
      }
      const int value = table_move_value(p, child, [&](const Position& c) {
        const TableKey k = table_key(c);
        return static_cast<int>(layers[left][index.rank(k.counts.data())]);
      });
      best = std::max(best, value);
    }
    exits[r] = static_cast<int8_t>(best);
    inner_left[r] = static_cast<uint8_t>(inner);
  });

  // Phase "levels": for t = s .. 1, the positions worth at least t (won at level t) and at most
  // -t (lost at level t). A position is won at level t if a move leaving the layer is worth t,
  // or an inner move reaches a position lost at level t; it is lost at level t if no move
  // leaving the layer is worth more than -t and every inner move reaches a position won at level
  // t. Each set is a least fixpoint, grown from the level above by following inner moves
  // backwards, so the result does not depend on the order of work. What is never won or lost
  // is worth 0: a draw, or a cycle no side can force its way out of.
  std::vector<uint64_t> frontier;
  int levels = 0;
  for (int t = seeds; t >= 1; --t) {
    ++levels;
    frontier.clear();
    // Seeds of level t: exits worth exactly t; lost positions whose exits just fell to -t.
    for (uint64_t r = 0; r < size; ++r) {
      if (values[r] != 0) continue;
      if (exits[r] == t || (inner_left[r] == 0 && exits[r] == -t)) {
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
#pragma omp for schedule(dynamic, 256)
        for (size_t i = 0; i < frontier.size(); ++i) {
          const uint64_t r = frontier[i];
          index.unrank(r, seeds, key.counts.data());
          const Position p = position_from_key(key.counts.data(), h);
          const bool won = values[r] > 0;
          for_each_inner_parent(rules, p, [&](const Position& parent, Move) {
            const TableKey pk = table_key(parent);
            const uint64_t q = index.rank(pk.counts.data());
            std::atomic_ref<int8_t> value(values[q]);
            if (won) {
              // One more inner move of q reaches a won position.
              std::atomic_ref<uint8_t> left(inner_left[q]);
              if (left.fetch_sub(1) == 1 && (exits[q] == kNoExit || exits[q] <= -t)) {
                int8_t expected = 0;
                if (value.compare_exchange_strong(expected, static_cast<int8_t>(-t))) found.push_back(q);
              }
            } else {
              int8_t expected = 0;
              if (value.compare_exchange_strong(expected, static_cast<int8_t>(t))) found.push_back(q);
            }
          });
        }
#pragma omp critical
        next.insert(next.end(), found.begin(), found.end());
      }
      settled += frontier.size();
      frontier.swap(next);
      if (progress) progress({seeds, "level " + std::to_string(t), settled, size});
    }
  }
  last_sweeps_ = levels;
  layers_[seeds] = std::move(values);
  return layers_[seeds];
}

}  // namespace mancala
