#include "solver/tables/retrograde_kalah.h"

#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <cstdint>

#include "solver/rules/moves.h"

namespace mancala {

// ---------------------------------------------------------------- why one pass in this order
//
// An inner move keeps every seed on the board, so it sows only within the mover's own row: the
// mover's store comes right after its last house (a seed there leaves the board), and the other
// row only after the store; and it captures nothing (a capture puts seeds in a store). Every seed
// it sows moves from the emptied house to a house nearer the mover's store. Call the potential of
// a position the sum over its seeds of their distance to their owner's store (a seed in house i
// of its owner's row, houses numbered from 0, farthest from the store, is h - i houses away): an
// inner move lowers it by at least one, and no other inner move raises it. So the inner moves of
// a layer cannot form a cycle, and if the positions of a layer are valued in order of rising
// potential, every inner child (lower potential) is valued before its parent, and every other
// child lies in a layer below, already built:
//
//     v(p) = max over moves m of  gain(m) + v(child)   (the child's value negated when the
//                                                      other side moves next; an inner move
//                                                      gains nothing and hands the move over)
//
// is then one read per move, each position and each move looked at once. Positions of equal
// potential do not depend on each other: each potential is one parallel loop (the threads meet
// only between potentials), and within it the reads of a position's children are issued a few
// positions before they are used, so that the cache misses overlap. Each position is written
// once, by one thread, from values fixed before its potential began: the bytes do not depend on
// the number of threads. (A memoised depth-first descent, valuing a position's inner children
// first by recursion, measured 1.3 to 1.6 times slower on one thread: three quarters of the
// positions are reached by the recursion, whose reads wait one after another.)
//
// An inner move also keeps the seeds on each row: a position of sub-layer (m, o) (m seeds on the
// mover's row, o on the other) has its inner children in (o, m), so the pass can go pair of
// sub-layers by pair (kalah_sub_layers.h), each in order of rising potential, and a pair's other
// children lie in a few sub-layers of the layers below, known beforehand: a build whose layers
// below do not fit in memory has only those to hold while it values the pair. It does when asked
// (a hook before each pair); in memory, the whole layer goes potential by potential, in fewer
// parallel loops.
//
// ---------------------------------------------------------------- rows and ranks
//
// A position of layer s is a pair of rows, the mover's A and the other's B, of n and s - n seeds;
// its potential is potential(A) + potential(B). TableIndex ranks the key (B's houses from its
// last, then A's from its last) as a sum of binomials over the key's prefix sums, which splits
// into a part that depends on B only ("as other") and a part that depends on A and on the seeds
// in B ("as mover"). The pass lists every row of up to s seeds once per layer, grouped by seeds
// and potential, with both parts of its rank; a potential's positions are the pairs of a group
// of n seeds and potential p with the group of s - n seeds and the rest of the potential.
//
// Most children follow from the two rows' parts as well: a move of A from house i with a seeds,
// a <= 2h - i (it does not come round to the mover's row again), either ends in the mover's row
// (an inner move, or a capture when the house was empty), in its store (another move), or in
// B's first k houses. The rows after it are A' (A sown, the same for every B) and B, B with one
// house emptied (a capture), or B plus one seed in each of its first k houses, whose rank parts
// are kept per row. The rest (a longer sowing, or a move after which a row is empty and the game
// ends) is rare and is played out by the rules engine (moves.h).

namespace {

using detail::Board;

// What one move of a row does, whatever the other row holds.
enum class MoveKind : uint8_t {
  Inner,      // ends in the mover's row, in a house that held seeds: every seed stays
  OwnEmpty,   // ends in the mover's row, in an empty house: a capture, or (standard rule, empty
              // opposite house) an inner move
  Store,      // ends in the mover's store: the mover moves again
  IntoOther,  // ends in the other row's first k houses
  Engine,     // comes round to the mover's row again: played out by the rules engine
};

// kMixedOrders: some layer below is laid out in sub-layer order (kalah_sub_layers.h); without,
// every child's place is its rank, and the pass has nothing more to look up.
template <int H, bool kMixedOrders>
class KalahLayerPass {
 public:
  KalahLayerPass(const Rules& rules, const TableIndex& index,
                 const std::vector<std::span<const int8_t>>& layers,
                 const std::vector<LayerOrder>& orders, int seeds, int8_t* values,
                 LayerOrder values_order)
      : rules_(rules), seeds_(seeds), values_(values) {
    // A bar of this layer's positions sits below seeds + kSlots - 1; the index holds the
    // binomials up to that (it covers at least this layer), the rest stay 0.
    for (int k = 0; k < kSlots; ++k)
      for (int n = 0; n < std::min(kMaxBar, seeds + kSlots); ++n)
        choose_[static_cast<size_t>(k)][static_cast<size_t>(n)] = index.binomial(n, k);
    for (int taken = 0; taken <= seeds; ++taken)
      layer_after_[static_cast<size_t>(taken)] =
          taken == 0 ? values : layers[static_cast<size_t>(seeds - taken)].data();
    list_rows();
    work_out_rows();
    own_part_ = part_as_mover_.data();
    if (values_order == LayerOrder::SubLayers) {
      // The mover's part of a position of this layer (and of an inner child) in sub-layer order:
      // where the run of its mover's row lies there.
      own_in_sub_layers_.resize(rows_.size());
      for (size_t r = 0; r < rows_.size(); ++r) {
        const int n = seeds_in_[r];
        own_in_sub_layers_[r] =
            sub_layer_offset(H, seeds_, n) + part_as_other_[r] * rows_of(seeds_ - n);
      }
      own_part_ = own_in_sub_layers_.data();
    }
    if constexpr (kMixedOrders) {
      for (int taken = 1; taken <= seeds; ++taken)
        sorted_after_[static_cast<size_t>(taken)] =
            static_cast<size_t>(seeds - taken) < orders.size() &&
            orders[static_cast<size_t>(seeds - taken)] == LayerOrder::SubLayers;
      work_out_sub_layer_parts();
    }
  }

  // With `before_pair`, pair of sub-layers by pair; without, the whole layer at once, each
  // potential one parallel loop over all its positions: pair by pair, a layer goes through a
  // parallel loop per pair and potential, about s/2 times as many, and on two threads (measured
  // on layer 24 with the machine's other core busy) their ends cost 5-10% of the time.
  void run(int threads, const std::string& phase, const LayerProgressFn& progress,
           const KalahPairHook& before_pair) {
    std::vector<std::vector<int>> groups;  // each: the seeds on the mover's row of its sub-layers
    if (before_pair) {
      for (const SubLayer pair : kalah_pairs(seeds_))
        groups.push_back(pair.mover_seeds == pair.other_seeds
                             ? std::vector<int>{pair.mover_seeds}
                             : std::vector<int>{pair.mover_seeds, pair.other_seeds});
    } else {
      groups.emplace_back();
      for (int n = 0; n <= seeds_; ++n) groups.back().push_back(n);
    }
    const uint64_t most_in_a_tile = before_pair ? kTilePositions : UINT64_MAX;
    uint64_t done = 0;
    for (const std::vector<int>& group : groups) {
      if (before_pair) before_pair({group.front(), seeds_ - group.front()});
      for (int potential = 0; potential <= seeds_ * H; ++potential) {
        const std::vector<Tile> tiles = tiles_of(potential, group, most_in_a_tile);
        uint64_t positions = 0;
        for (const Tile& t : tiles) positions += t.positions();
        if (positions == 0) continue;
#pragma omp parallel num_threads(threads)
        {
          Pipeline pipe;
#pragma omp for schedule(dynamic, 1) nowait
          for (size_t i = 0; i < tiles.size(); ++i) {
            const Tile& t = tiles[i];
            for (uint32_t a = t.a_begin; a < t.a_end; ++a)
              for (uint32_t b = t.b_begin; b < t.b_end; ++b) pipe.push(*this, a, b);
          }
          pipe.drain(*this);
        }
        done += positions;
        if (progress) progress({seeds_, phase, done, layer_size_});
      }
    }
  }

 private:
  static constexpr int kSlots = 2 * H;
  static constexpr int kMaxBar = kMaxTableSeeds + kSlots;
  static constexpr int kSouthStore = H, kNorthStore = 2 * H + 1;

  using Houses = std::array<uint8_t, H>;  // a row, house 0 farthest from its owner's store

  // One move of a row: its kind, and what follows from the row alone.
  struct MoveOfRow {
    MoveKind kind;
    uint8_t house;
    uint8_t opposite;          // OwnEmpty: the other row's house facing the last seed
    uint8_t into_other;        // IntoOther: seeds sown into the other row (its first houses)
    bool row_emptied;          // Store, IntoOther: the mover's row is empty after it
    bool row_emptied_by_take;  // OwnEmpty: the mover's row is empty after a capture
    uint64_t after_as_other;   // rank part of the mover's row after the sowing, as the other row
    uint64_t taken_as_other;   // OwnEmpty: the same after a capture took the last seed's house
    uint64_t after_as_mover;   // Store: rank part of the row after it, as the mover's, in layer
                               // s - 1 with the other row unchanged
  };
  struct Moves {
    int count = 0;
    std::array<MoveOfRow, H> list;
  };

  // All pairs of a group of mover's rows and a group of other rows.
  struct Tile {
    uint32_t a_begin, a_end, b_begin, b_end;
    uint64_t positions() const { return uint64_t{a_end - a_begin} * uint64_t{b_end - b_begin}; }
  };

  // Where the value after a move lies, and how it counts for the mover.
  struct Child {
    const int8_t* layer;
    uint64_t rank;
    int gain;
    int sign;  // -1: the other side moves next
  };
  // A position whose children are worked out (and their values prefetched), valued later.
  struct Pending {
    uint64_t rank;
    int count;  // children; 0: no move, the game is over and worth `end_value`
    int end_value;
    std::array<Child, H> children;
  };
  // Positions in flight on one thread: each is valued kDepth positions after it was prepared.
  struct Pipeline {
    static constexpr int kDepth = 16;
    std::array<Pending, kDepth> ring;
    int head = 0, filled = 0;
    void push(const KalahLayerPass& pass, uint32_t a, uint32_t b) {
      if (filled == kDepth)
        pass.finish(ring[static_cast<size_t>(head)]);
      else
        ++filled;
      pass.prepare(a, b, ring[static_cast<size_t>(head)]);
      head = (head + 1) % kDepth;
    }
    void drain(const KalahLayerPass& pass) {
      for (int i = filled; i > 0; --i)
        pass.finish(ring[static_cast<size_t>((head + kDepth - i) % kDepth)]);
      filled = 0;
    }
  };

  static int seeds_of(const Houses& row) {
    int n = 0;
    for (uint8_t x : row) n += x;
    return n;
  }
  static int potential_of(const Houses& row) {
    int sum = 0;
    for (int i = 0; i < H; ++i) sum += row[static_cast<size_t>(i)] * (H - i);
    return sum;
  }

  // Rank part of `row` as the other row: its houses from the last are the key's first digits.
  uint64_t as_other(const Houses& row) const {
    uint64_t r = 0;
    int bar = -1;
    for (int j = 0; j + 1 < H; ++j) {
      bar += row[static_cast<size_t>(H - 1 - j)] + 1;
      r += choose_[static_cast<size_t>(j + 1)][static_cast<size_t>(bar)];
    }
    return r;
  }
  // Rank part of `row` as the mover's, the other row holding `other_seeds`: the key's last
  // digits, after all of the other row's.
  uint64_t as_mover(const Houses& row, int other_seeds) const {
    uint64_t r = 0;
    int bar = other_seeds + H - 1;
    r += choose_[static_cast<size_t>(H)][static_cast<size_t>(bar)];
    for (int j = H; j + 1 < kSlots; ++j) {
      bar += row[static_cast<size_t>(2 * H - 1 - j)] + 1;
      r += choose_[static_cast<size_t>(j + 1)][static_cast<size_t>(bar)];
    }
    return r;
  }

  // Rows of n seeds: C(n + h - 1, h - 1).
  uint64_t rows_of(int n) const {
    return choose_[static_cast<size_t>(H - 1)][static_cast<size_t>(n + H - 1)];
  }
  // The part of `row` as the mover's, the other row holding `other_seeds`, in a layer below laid
  // out in sub-layer order: where its run lies there (as_other is the row's rank among the rows
  // of its seeds, row_rank).
  uint64_t as_mover_in_sub_layers(const Houses& row, int other_seeds) const {
    const int n = seeds_of(row);
    return sub_layer_offsets_[static_cast<size_t>(n + other_seeds)][static_cast<size_t>(n)] +
           as_other(row) * rows_of(other_seeds);
  }

  // Every row of up to s seeds, sorted by (seeds, potential), and where each group begins.
  void list_rows() {
    const int width = seeds_ * H + 2;
    std::vector<std::vector<Houses>> by_potential(static_cast<size_t>(width));
    Houses houses{};
    auto walk = [&](auto&& self, int house, int left) -> void {
      if (house == 0) {
        houses[0] = static_cast<uint8_t>(left);
        by_potential[static_cast<size_t>(potential_of(houses))].push_back(houses);
        return;
      }
      for (int x = 0; x <= left; ++x) {
        houses[static_cast<size_t>(house)] = static_cast<uint8_t>(x);
        self(self, house - 1, left - x);
      }
    };
    for (int n = 0; n <= seeds_; ++n) {
      walk(walk, H - 1, n);
      for (std::vector<Houses>& group : by_potential) {
        rows_.insert(rows_.end(), group.begin(), group.end());
        group.clear();
      }
    }
    // group_[n * width + p]: the first row of n seeds and potential >= p.
    group_.assign(static_cast<size_t>((seeds_ + 1) * width), 0);
    size_t at = 0;
    for (int n = 0; n <= seeds_; ++n)
      for (int p = 0; p < width; ++p) {
        while (at < rows_.size() && (seeds_of(rows_[at]) < n ||
                                     (seeds_of(rows_[at]) == n && potential_of(rows_[at]) < p)))
          ++at;
        group_[static_cast<size_t>(n * width + p)] = static_cast<uint32_t>(at);
      }
    layer_size_ = 0;
    for (int n = 0; n <= seeds_; ++n)
      layer_size_ += uint64_t{group_begin(n, width - 1) - group_begin(n, 0)} *
                     uint64_t{group_begin(seeds_ - n, width - 1) - group_begin(seeds_ - n, 0)};
  }
  uint32_t group_begin(int n, int p) const {
    const int width = seeds_ * H + 2;
    return group_[static_cast<size_t>(n * width + std::clamp(p, 0, width - 1))];
  }

  // Both rank parts of every row, and what each of its moves does.
  void work_out_rows() {
    const size_t count = rows_.size();
    seeds_in_.resize(count);
    part_as_mover_.resize(count);
    part_as_other_.resize(count);
    emptied_as_mover_.resize(count);
    sown_as_mover_.resize(count);
    moves_.resize(count);
    for (size_t r = 0; r < count; ++r) {
      const Houses& row = rows_[r];
      const int n = seeds_of(row);
      seeds_in_[r] = static_cast<uint8_t>(n);
      part_as_mover_[r] = as_mover(row, seeds_ - n);
      part_as_other_[r] = as_other(row);
      // As the other row of a position whose mover captures: this row less one house, in layer
      // s - 1 - (its seeds), the mover's row holding s - n - 1. As the other row of a sowing
      // into its first k houses: this row plus a seed in each, in layer s - 1, the mover's row
      // holding s - n - 1 - k. (Entries that no position of the layer needs stay 0.)
      for (int o = 0; o < H; ++o) {
        Houses less = row;
        less[static_cast<size_t>(o)] = 0;
        emptied_as_mover_[r][static_cast<size_t>(o)] =
            seeds_ - n - 1 >= 0 ? as_mover(less, seeds_ - n - 1) : 0;
      }
      sown_as_mover_[r][0] = 0;
      Houses more = row;
      for (int k = 1; k <= H; ++k) {
        ++more[static_cast<size_t>(k - 1)];
        sown_as_mover_[r][static_cast<size_t>(k)] =
            seeds_ - n - 1 - k >= 0 ? as_mover(more, seeds_ - n - 1 - k) : 0;
      }
      moves_[r] = moves_of(row, n);
    }
  }

  // The "as mover" parts of every row for the layers below laid out in sub-layer order, beside
  // those for rank order (work_out_rows): with one house emptied, with a seed more in each of
  // the first k houses, and after each move into the store.
  void work_out_sub_layer_parts() {
    sub_layer_offsets_.resize(static_cast<size_t>(seeds_));
    for (int t = 0; t < seeds_; ++t)
      for (int m = 0; m <= t; ++m)
        sub_layer_offsets_[static_cast<size_t>(t)].push_back(sub_layer_offset(H, t, m));
    const size_t count = rows_.size();
    emptied_in_sub_layers_.assign(count, {});
    sown_in_sub_layers_.assign(count, {});
    stored_in_sub_layers_.assign(count, {});
    for (size_t r = 0; r < count; ++r) {
      const Houses& row = rows_[r];
      const int n = seeds_in_[r];
      for (int o = 0; o < H && seeds_ - n - 1 >= 0; ++o) {
        Houses less = row;
        less[static_cast<size_t>(o)] = 0;
        emptied_in_sub_layers_[r][static_cast<size_t>(o)] =
            as_mover_in_sub_layers(less, seeds_ - n - 1);
      }
      Houses more = row;
      for (int k = 1; k <= H; ++k) {
        ++more[static_cast<size_t>(k - 1)];
        if (seeds_ - n - 1 - k >= 0)
          sown_in_sub_layers_[r][static_cast<size_t>(k)] =
              as_mover_in_sub_layers(more, seeds_ - n - 1 - k);
      }
      const Moves& moves = moves_[r];
      for (int i = 0; i < moves.count; ++i) {
        const MoveOfRow& m = moves.list[static_cast<size_t>(i)];
        if (m.kind != MoveKind::Store) continue;
        stored_in_sub_layers_[r][m.house] =
            as_mover_in_sub_layers(sown_within_row(row, m.house), seeds_ - n);
      }
    }
  }

  // The row after house i is sown, as far as its own houses go (what passes its last house goes
  // to the store and beyond).
  static Houses sown_within_row(const Houses& row, int i) {
    const int a = row[static_cast<size_t>(i)];
    Houses after = row;
    after[static_cast<size_t>(i)] = 0;
    for (int j = i + 1; j < std::min(H, i + 1 + a); ++j) ++after[static_cast<size_t>(j)];
    return after;
  }

  // The moves of a row of n seeds (the mover's), in house order.
  Moves moves_of(const Houses& row, int n) const {
    Moves moves;
    for (int i = 0; i < H; ++i) {
      const int a = row[static_cast<size_t>(i)];
      if (a == 0) continue;
      MoveOfRow m{};
      m.house = static_cast<uint8_t>(i);
      const Houses after = sown_within_row(row, i);
      m.after_as_other = as_other(after);
      if (a <= H - 1 - i) {
        const int last = i + a;
        m.kind = row[static_cast<size_t>(last)] > 0 ? MoveKind::Inner : MoveKind::OwnEmpty;
        m.opposite = static_cast<uint8_t>(H - 1 - last);
        Houses taken = after;
        taken[static_cast<size_t>(last)] = 0;
        m.row_emptied_by_take = seeds_of(taken) == 0;
        m.taken_as_other = as_other(taken);
      } else if (a == H - i) {
        m.kind = MoveKind::Store;
        m.row_emptied = seeds_of(after) == 0;
        m.after_as_mover = as_mover(after, seeds_ - n);
      } else if (a <= 2 * H - i) {
        m.kind = MoveKind::IntoOther;
        m.into_other = static_cast<uint8_t>(a - (H - i));
        m.row_emptied = seeds_of(after) == 0;
      } else {
        m.kind = MoveKind::Engine;
      }
      moves.list[static_cast<size_t>(moves.count++)] = m;
    }
    return moves;
  }

  // The positions of this potential in the sub-layers whose mover's rows hold `seeds_on_row`
  // seeds, in tiles of at most `most` positions (but at least one mover's row). Pair by pair, a
  // potential can be a few large groups of rows, which would leave a thread idle while another
  // finishes the last of them.
  static constexpr uint64_t kTilePositions = uint64_t{1} << 14;
  std::vector<Tile> tiles_of(int potential, const std::vector<int>& seeds_on_row,
                             uint64_t most) const {
    std::vector<Tile> tiles;
    for (const int n : seeds_on_row)
      for (int p = 0; p <= potential; ++p) {
        const uint32_t a0 = group_begin(n, p), a1 = group_begin(n, p + 1);
        const uint32_t b0 = group_begin(seeds_ - n, potential - p);
        const uint32_t b1 = group_begin(seeds_ - n, potential - p + 1);
        if (a0 >= a1 || b0 >= b1) continue;
        const uint64_t rows = std::max<uint64_t>(1, most / uint64_t{b1 - b0});
        for (uint32_t a = a0; a < a1;) {
          const uint32_t end = a1 - a <= rows ? a1 : a + static_cast<uint32_t>(rows);
          tiles.push_back({a, end, b0, b1});
          a = end;
        }
      }
    return tiles;
  }

  // The board of the position: the mover's row a (South to move), the other row b.
  Board board_of(uint32_t a, uint32_t b) const {
    Board board;
    for (int i = 0; i < H; ++i) {
      board.lane[static_cast<size_t>(i)] = rows_[a][static_cast<size_t>(i)];
      board.lane[static_cast<size_t>(H + 1 + i)] = rows_[b][static_cast<size_t>(i)];
    }
    board.lane[detail::kInfoLane] = detail::info_lane(H, Side::South);
    return board;
  }

  // The rank of a board's position, seen from its side to move X (table_key, then
  // TableIndex::rank, read straight from the lanes).
  template <Side X>
  uint64_t rank_of(const Board& b) const {
    constexpr int own = X == Side::South ? 0 : H + 1;
    constexpr int other = X == Side::South ? H + 1 : 0;
    uint64_t r = 0;
    int bar = -1;
    for (int j = 0; j + 1 < kSlots; ++j) {
      bar += b[j < H ? other + H - 1 - j : own + 2 * H - 1 - j] + 1;
      r += choose_[static_cast<size_t>(j + 1)][static_cast<size_t>(bar)];
    }
    return r;
  }

  // The place of a board's position in a layer laid out in sub-layer order, seen from X.
  template <Side X>
  uint64_t sub_layer_place_of(const Board& b) const {
    constexpr int own = X == Side::South ? 0 : H + 1;
    constexpr int other = X == Side::South ? H + 1 : 0;
    Houses mine{}, theirs{};
    for (int i = 0; i < H; ++i) {
      mine[static_cast<size_t>(i)] = b[own + i];
      theirs[static_cast<size_t>(i)] = b[other + i];
    }
    return as_mover_in_sub_layers(mine, seeds_of(theirs)) + as_other(theirs);
  }

  // A move played out by the rules engine (positions are South to move here). Such a move
  // always takes seeds off the board (it passes the mover's store, or ends the game).
  Child engine_child(const Board& board, int house) const {
    const Board c = apply_slot<GameKind::Kalah>(rules_, board, house);
    const bool same = c.side_to_move() == Side::South;
    const auto taken = static_cast<size_t>(c[kSouthStore] + c[kNorthStore]);
    uint64_t rank = same ? rank_of<Side::South>(c) : rank_of<Side::North>(c);
    if constexpr (kMixedOrders) {
      if (sorted_after_[taken])
        rank = same ? sub_layer_place_of<Side::South>(c) : sub_layer_place_of<Side::North>(c);
    }
    return {layer_after_[taken], rank, c[kSouthStore] - c[kNorthStore], same ? 1 : -1};
  }

  // The mover's part of the child of move m of row a into the store (layer s - 1), and of row b
  // with a seed more in each of its first k houses (layer s - 1).
  uint64_t stored_part(uint32_t a, const MoveOfRow& m) const {
    if constexpr (kMixedOrders) {
      if (sorted_after_[1]) return stored_in_sub_layers_[a][m.house];
    }
    return m.after_as_mover;
  }
  uint64_t sown_part(uint32_t b, int k) const {
    if constexpr (kMixedOrders) {
      if (sorted_after_[1]) return sown_in_sub_layers_[b][static_cast<size_t>(k)];
    }
    return sown_as_mover_[b][static_cast<size_t>(k)];
  }

  // Works out the children of the position (mover's row a, other row b) and prefetches their
  // values and the position's own byte.
  void prepare(uint32_t a, uint32_t b, Pending& out) const {
    out.rank = own_part_[a] + part_as_other_[b];
    __builtin_prefetch(values_ + out.rank, 1);
    const int other_seeds = seeds_in_[b];
    if (seeds_in_[a] == 0 || other_seeds == 0) {  // a row is empty: the game is over
      out.count = 0;
      out.end_value = final_outcome(rules_, detail::to_position(board_of(a, b))).lead(Side::South);
      return;
    }
    const Moves& moves = moves_[a];
    const Houses& other = rows_[b];
    int count = 0;
    for (int i = 0; i < moves.count; ++i) {
      const MoveOfRow& m = moves.list[static_cast<size_t>(i)];
      Child& c = out.children[static_cast<size_t>(count++)];
      switch (m.kind) {
        case MoveKind::Inner:
          c = {values_, own_part_[b] + m.after_as_other, 0, -1};
          break;
        case MoveKind::OwnEmpty: {
          const int facing = other[m.opposite];
          if (facing == 0 && !rules_.empty_capture) {  // nothing to take: the seed stays
            c = {values_, own_part_[b] + m.after_as_other, 0, -1};
          } else if (m.row_emptied_by_take || facing == other_seeds) {
            c = engine_child(board_of(a, b), m.house);  // a row emptied: the game ends
          } else {
            const auto taken = static_cast<size_t>(1 + facing);
            uint64_t part = emptied_as_mover_[b][m.opposite];
            if constexpr (kMixedOrders) {
              if (sorted_after_[taken]) part = emptied_in_sub_layers_[b][m.opposite];
            }
            c = {layer_after_[taken], part + m.taken_as_other, 1 + facing, -1};
          }
          break;
        }
        case MoveKind::Store:
          if (m.row_emptied)
            c = engine_child(board_of(a, b), m.house);
          else
            c = {layer_after_[1], stored_part(a, m) + part_as_other_[b], 1, 1};
          break;
        case MoveKind::IntoOther:
          if (m.row_emptied)
            c = engine_child(board_of(a, b), m.house);
          else
            c = {layer_after_[1], sown_part(b, m.into_other) + m.after_as_other, 1, -1};
          break;
        case MoveKind::Engine:
          c = engine_child(board_of(a, b), m.house);
          break;
      }
      __builtin_prefetch(c.layer + c.rank);
    }
    out.count = count;
  }

  void finish(const Pending& p) const {
    int best = p.end_value;
    if (p.count > 0) {
      best = INT_MIN;
      for (int i = 0; i < p.count; ++i) {
        const Child& c = p.children[static_cast<size_t>(i)];
        best = std::max(best, c.gain + c.sign * static_cast<int>(c.layer[c.rank]));
      }
    }
    values_[p.rank] = static_cast<int8_t>(best);
  }

  const Rules& rules_;
  int seeds_;
  int8_t* values_;
  uint64_t layer_size_ = 0;
  std::array<std::array<uint64_t, kMaxBar>, kSlots> choose_{};  // choose_[k][n] = C(n, k)
  // The values after a move that took `taken` seeds off the board ([0]: this layer's own).
  std::array<const int8_t*, kMaxTableSeeds + 1> layer_after_{};
  // Every row of up to s seeds, by (seeds, potential), and per row: its seeds, both rank parts,
  // the "as mover" part with one house emptied ([o]) or with a seed more in each of the first k
  // houses ([k]), and its moves.
  std::vector<Houses> rows_;
  std::vector<uint32_t> group_;
  std::vector<uint8_t> seeds_in_;
  std::vector<uint64_t> part_as_mover_, part_as_other_;
  // The mover's part of this layer's own places (the position's and its inner children's):
  // part_as_mover_, or own_in_sub_layers_ when the layer is written in sub-layer order.
  const uint64_t* own_part_ = nullptr;
  std::vector<uint64_t> own_in_sub_layers_;
  std::vector<std::array<uint64_t, H>> emptied_as_mover_;
  std::vector<std::array<uint64_t, H + 1>> sown_as_mover_;
  std::vector<Moves> moves_;
  // With layers below in sub-layer order (kMixedOrders): which are, by the seeds a move takes
  // ([0], this layer, never); where each sub-layer of layer t begins ([t][m]); and the parts
  // above for them ([house] of a move into the store).
  std::array<bool, kMaxTableSeeds + 1> sorted_after_{};
  std::vector<std::vector<uint64_t>> sub_layer_offsets_;
  std::vector<std::array<uint64_t, H>> emptied_in_sub_layers_;
  std::vector<std::array<uint64_t, H + 1>> sown_in_sub_layers_;
  std::vector<std::array<uint64_t, H>> stored_in_sub_layers_;
};

template <int H>
void run_pass(const Rules& rules, const TableIndex& index,
              const std::vector<std::span<const int8_t>>& layers,
              const std::vector<LayerOrder>& orders, int seeds, int8_t* values, int threads,
              const std::string& phase, const LayerProgressFn& progress,
              const KalahPairHook& before_pair, LayerOrder values_order) {
  bool mixed = false;
  for (size_t t = 0; t < orders.size() && t < static_cast<size_t>(seeds); ++t)
    mixed = mixed || orders[t] == LayerOrder::SubLayers;
  if (mixed) {
    KalahLayerPass<H, true> pass(rules, index, layers, orders, seeds, values, values_order);
    pass.run(threads, phase, progress, before_pair);
  } else {
    KalahLayerPass<H, false> pass(rules, index, layers, orders, seeds, values, values_order);
    pass.run(threads, phase, progress, before_pair);
  }
}

}  // namespace

void value_kalah_layer(const Rules& rules, const TableIndex& index,
                       const std::vector<std::span<const int8_t>>& layers, int seeds,
                       int8_t* values, int threads, const std::string& phase,
                       const LayerProgressFn& progress, const KalahPairHook& before_pair,
                       const std::vector<LayerOrder>& orders, LayerOrder values_order) {
  switch (rules.houses) {
    case 1:
      return run_pass<1>(rules, index, layers, orders, seeds, values, threads, phase, progress,
                         before_pair, values_order);
    case 2:
      return run_pass<2>(rules, index, layers, orders, seeds, values, threads, phase, progress,
                         before_pair, values_order);
    case 3:
      return run_pass<3>(rules, index, layers, orders, seeds, values, threads, phase, progress,
                         before_pair, values_order);
    case 4:
      return run_pass<4>(rules, index, layers, orders, seeds, values, threads, phase, progress,
                         before_pair, values_order);
    case 5:
      return run_pass<5>(rules, index, layers, orders, seeds, values, threads, phase, progress,
                         before_pair, values_order);
    default:
      return run_pass<6>(rules, index, layers, orders, seeds, values, threads, phase, progress,
                         before_pair, values_order);
  }
}

}  // namespace mancala
