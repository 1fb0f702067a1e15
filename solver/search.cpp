#include "solver/search.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "solver/retrograde.h"  // table_move_value

namespace mancala {

namespace {

constexpr int kInfinity = 10000;

// Bound kinds of a table entry.
constexpr uint8_t kLower = 1, kUpper = 2, kExact = 3;

uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

namespace {

// The lanes of Position::slots that hold houses, for h houses a side, as masks over the slots
// read as six 64-bit words and one 32-bit tail (the stores are cleared: they are not hashed).
struct HouseWordMasks {
  std::array<std::array<uint64_t, 7>, kMaxHouses + 1> masks{};
};

constexpr HouseWordMasks make_house_word_masks() {
  HouseWordMasks t{};
  for (int h = 1; h <= kMaxHouses; ++h)
    for (int slot = 0; slot < 2 * h + 1; ++slot)
      if (slot != h)
        t.masks[h][static_cast<size_t>(slot / 4)] |= uint64_t{0xFFFF} << (16 * (slot % 4));
  return t;
}

constexpr HouseWordMasks kHouseWordMasks = make_house_word_masks();

__extension__ using Wide = unsigned __int128;

// Folded 64 x 64 -> 128-bit multiply: every input bit reaches most output bits in one step.
inline uint64_t fold_multiply(uint64_t a, uint64_t b) {
  const Wide r = static_cast<Wide>(a) * b;
  return static_cast<uint64_t>(r) ^ static_cast<uint64_t>(r >> 64);
}

}  // namespace

// Why this shape: the searches hash every child of every node, and a multiply per house in one
// dependent chain cost 5-9% of a solve. Here the houses are read as whole words, the stores
// masked out, and independent multiplies combine them. The constants have bits set in every
// 16-bit lane, so no board's words cancel them.
uint64_t position_hash(const Position& p) {
  static_assert(sizeof(p.slots) == 52, "six words and a 32-bit tail");
  std::array<uint64_t, 7> w{};
  std::memcpy(w.data(), p.slots.data(), sizeof p.slots);
  const std::array<uint64_t, 7>& m = kHouseWordMasks.masks[p.houses];
  for (size_t i = 0; i < 7; ++i) w[i] &= m[i];
  const uint64_t a = fold_multiply(w[0] ^ 0x9E3779B97F4A7C15ull, w[1] ^ 0xC2B2AE3D27D4EB4Full);
  const uint64_t b = fold_multiply(w[2] ^ 0x165667B19E3779F9ull, w[3] ^ 0xD6E8FEB86659FD93ull);
  const uint64_t c =
      fold_multiply(w[4] ^ 0xA0761D6478BD642Full, (w[5] ^ 0xE7037ED1A0B428DBull) + w[6]);
  const uint64_t side = static_cast<uint64_t>(p.side_to_move) + 0x51ED27u * p.houses;
  return mix(a ^ fold_multiply(b ^ 0x8EBC6AF09C88C6E3ull, c ^ side ^ 0x589965CC75374CC3ull));
}

// One transposition table slot, 16 bytes. Scores are kept without the stores ("future": the
// score minus the mover's store lead), so that a position reached with other stores still hits.
struct Search::Entry {
  uint64_t key = 0;
  int16_t future = 0;
  int16_t depth = -1;  // remaining depth searched, in half plies; -1: empty
  uint8_t bound = 0;   // kLower, kUpper or kExact
  uint8_t move = 0;    // best move found, the first to try
  uint8_t proven = 0;  // the bound is game-theoretic, good at any depth
  uint8_t padding = 0;
};

Search::Search(const Rules& rules, size_t table_megabytes, const ExactValues* tables)
    : rules_(rules), tables_(tables) {
  size_t entries = 1;
  while (entries * 2 * sizeof(Entry) <= table_megabytes * 1024 * 1024) entries *= 2;
  table_.assign(entries, Entry{});
  mask_ = entries - 1;
  use_table_ = table_megabytes > 0;
}

Search::~Search() = default;

void Search::clear() {
  std::fill(table_.begin(), table_.end(), Entry{});
}

bool Search::out_of_time() {
  if (stop_.load(std::memory_order_relaxed)) return true;
  if (node_limit_ && nodes_ >= node_limit_) return true;
  if (time_limit_ > 0) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    if (elapsed >= time_limit_) return true;
  }
  return false;
}

template <GameKind K>
Search::Value Search::negamax(const Position& p, int depth, int alpha, int beta, int ply) {
  ++nodes_;
  if ((nodes_ & 1023) == 0 && out_of_time()) aborted_ = true;
  if (aborted_) return {0, false};
  const Side mover = p.side_to_move;
  const int lead = p.mover_lead();

  MoveList moves;
  generate_moves<K>(rules_, p, moves);
  if (moves.empty()) {
    const Outcome end = final_outcome(rules_, p);
    return {mover == Side::South ? end.difference() : -end.difference(), true};
  }
  // The root is searched even inside the tables, so that it has a best move.
  if (tables_ && ply > 0) {
    if (const std::optional<int> v = tables_->value(p)) return {lead + *v, true};
  }
  const uint64_t key = position_hash(p);
  // Oware can cycle: a position already on the current line is worth what the stores hold
  // now (an endless cycle gives neither side more). It depends on the path, so it is not proven.
  if constexpr (K == GameKind::Oware) {
    for (size_t i = path_.size(); i-- > 0;)
      if (path_[i] == key) return {lead, false};
  }
  if (depth <= 0) return {lead, false};

  Entry& entry = table_[key & mask_];
  int tt_move = -1;
  if (use_table_ && entry.key == key && entry.depth >= 0) {
    tt_move = entry.move;
    if (entry.proven || entry.depth >= depth) {
      const int score = entry.future + lead;
      if (entry.bound == kExact || (entry.bound == kLower && score >= beta) ||
          (entry.bound == kUpper && score <= alpha))
        if (ply > 0) return {score, entry.proven != 0};
    }
  }

  // Children, best first: the table's move, then by what the move itself gains (an extra turn
  // counts as a seed).
  struct Child {
    Position position;
    Move move;
    int order;
  };
  std::array<Child, kMaxHouses> children;
  const int n = moves.size();
  for (int i = 0; i < n; ++i) {
    Child& c = children[i];
    c.move = moves[i];
    c.position = apply_move<K>(rules_, p, c.move);
    const int gain = (c.position.store(mover) - p.store(mover)) -
                     (c.position.store(opponent(mover)) - p.store(opponent(mover)));
    c.order =
        (c.move == tt_move ? 1000 : 0) + 4 * gain + (c.position.side_to_move == mover ? 2 : 0);
  }
  std::sort(children.begin(), children.begin() + n,
            [](const Child& a, const Child& b) { return a.order > b.order; });

  if constexpr (K == GameKind::Oware) path_.push_back(key);
  const int alpha_in = alpha;
  int best = -kInfinity;
  Move best_move = children[0].move;
  bool proven = true;
  for (int i = 0; i < n; ++i) {
    const Child& c = children[i];
    const bool same = c.position.side_to_move == mover;
    // Depth is counted in half plies: a sowing that hands the turn over costs two, an extra
    // turn one, so that a long chain of extra turns does not use up the horizon before the
    // opponent has answered (Congkak's opening chains run to a dozen sowings).
    auto child_value = [&](int a, int b) {
      if (same) return negamax<K>(c.position, depth - 1, a, b, ply + 1);
      const Value v = negamax<K>(c.position, depth - 2, -b, -a, ply + 1);
      return Value{-v.score, v.proven};
    };
    Value v;
    if (i == 0) {
      v = child_value(alpha, beta);
    } else {
      v = child_value(alpha, alpha + 1);  // principal variation search: prove it is no better
      if (v.score > alpha && v.score < beta) v = child_value(alpha, beta);
    }
    if (aborted_) break;
    if (v.score > best) {
      best = v.score;
      best_move = c.move;
    }
    if (best > alpha) alpha = best;
    if (alpha >= beta) {
      proven = v.proven;  // a proven refutation proves the lower bound
      break;
    }
    proven = proven && v.proven;
  }
  if constexpr (K == GameKind::Oware) path_.pop_back();
  if (aborted_) return {0, false};

  if (ply == 0) root_best_ = best_move;
  if (!use_table_) return {best, proven};
  entry.key = key;
  entry.future = static_cast<int16_t>(best - lead);
  entry.depth = static_cast<int16_t>(depth);
  entry.bound = best <= alpha_in ? kUpper : best >= beta ? kLower : kExact;
  entry.move = best_move;
  entry.proven = proven;
  return {best, proven};
}

Search::Value Search::dispatch(const Position& p, int depth, int alpha, int beta) {
  switch (rules_.kind) {
    case GameKind::Kalah:
      return negamax<GameKind::Kalah>(p, depth, alpha, beta, 0);
    case GameKind::Oware:
      return negamax<GameKind::Oware>(p, depth, alpha, beta, 0);
    case GameKind::Congkak:
      return negamax<GameKind::Congkak>(p, depth, alpha, beta, 0);
  }
  return {0, false};
}

int Search::search_depth(const Position& position, int depth, bool* proven) {
  aborted_ = false;
  stop_.store(false);
  node_limit_ = 0;
  time_limit_ = 0;
  path_.clear();
  const Value v = dispatch(position, 2 * depth, -kInfinity, kInfinity);
  if (proven) *proven = v.proven;
  return v.score;
}

std::optional<int> exact_move_value(const Rules& rules, const ExactValues& tables,
                                    const Position& p, Move move) {
  const Side mover = p.side_to_move;
  const Position child = apply_move(rules, p, move);
  if (generate_moves(rules, child).empty()) {
    const Outcome end = final_outcome(rules, child);
    const int final_lead = mover == Side::South ? end.difference() : -end.difference();
    return final_lead - (p.store(mover) - p.store(opponent(mover)));
  }
  std::optional<int> v;
  const int value = table_move_value(p, child, [&](const Position& after) {
    v = tables.value(after);
    return v.value_or(0);
  });
  if (!v) return std::nullopt;
  return value;
}

std::optional<Move> Search::best_exact_move(const Position& p) const {
  if (!tables_ || !tables_->value(p)) return std::nullopt;
  std::optional<Move> best;
  int best_value = -kInfinity;
  for (Move m : generate_moves(rules_, p)) {
    const std::optional<int> v = exact_move_value(rules_, *tables_, p, m);
    if (!v) return std::nullopt;
    if (*v > best_value) {
      best_value = *v;
      best = m;
    }
  }
  return best;
}

std::vector<Move> Search::principal_variation(const Position& root, int max_length) const {
  std::vector<Move> pv;
  std::vector<uint64_t> seen;  // an Oware line inside a cycle stops where it comes round
  Position p = root;
  for (int i = 0; i < max_length; ++i) {
    const MoveList moves = generate_moves(rules_, p);
    if (moves.empty()) break;
    const uint64_t here = position_hash(p) ^ (static_cast<uint64_t>(p.store(Side::South)) << 40) ^
                          (static_cast<uint64_t>(p.store(Side::North)) << 50);
    if (std::find(seen.begin(), seen.end(), here) != seen.end()) break;
    seen.push_back(here);
    const Entry& e = table_[position_hash(p) & mask_];
    Move next;
    if (use_table_ && e.key == position_hash(p) && e.depth >= 0 && moves.contains(e.move)) {
      next = e.move;
    } else if (const std::optional<Move> exact = best_exact_move(p)) {
      next = *exact;  // inside the tables the line goes on with a best exact move
    } else {
      break;
    }
    pv.push_back(next);
    p = apply_move(rules_, p, next);
  }
  return pv;
}

SearchResult Search::run(const Position& position, const SearchLimits& limits,
                         const std::function<void(const SearchResult&)>& on_iteration) {
  started_ = std::chrono::steady_clock::now();
  nodes_ = 0;
  node_limit_ = limits.max_nodes;
  time_limit_ = limits.max_seconds;
  stop_.store(false);
  aborted_ = false;
  SearchResult result;
  result.best = generate_moves(rules_, position)[0];
  for (int depth = 1; depth <= limits.max_depth; ++depth) {
    path_.clear();
    const Value v = dispatch(position, 2 * depth, -kInfinity, kInfinity);
    if (aborted_) break;
    result.best = root_best_;
    result.score = v.score;
    result.proven = v.proven;
    result.depth = depth;
    result.nodes = nodes_;
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    result.pv = principal_variation(position, std::max(depth, v.proven ? 200 : depth));
    if (result.pv.empty() || result.pv[0] != result.best)
      result.pv.insert(result.pv.begin(), result.best);
    if (on_iteration) on_iteration(result);
    if (v.proven) break;
  }
  result.nodes = nodes_;
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  return result;
}

}  // namespace mancala
