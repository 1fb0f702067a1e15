#include "solver/search/search.h"

#include <algorithm>
#include <array>
#include <type_traits>

#include "solver/search/evaluation.h"
#include "solver/search/score.h"

namespace mancala {

namespace {

// Bound kinds of a table entry.
constexpr uint8_t kLower = 1, kUpper = 2, kExact = 3;

// Where a history count stops growing (move ordering reads at most 65535 of it).
constexpr int kHistoryCap = 1 << 20;

// Beyond any score in units: the bound of a full window.
constexpr int kInfiniteUnits = kInfiniteScore * kUnitsPerSeed;

}  // namespace

// One transposition table slot, 16 bytes. Scores are kept without the stores ("future": the
// score minus the mover's store lead), so that a position reached with other stores still hits;
// like every score inside the search they are in units of 1/16 seed (evaluation.h).
struct Search::Entry {
  uint64_t key = 0;
  int16_t future = 0;
  // Remaining depth searched, in half plies; 0: empty (a search stores depths of 1 and more), so
  // that a table of zero bytes is empty: it comes from fresh pages (BigBuffer), faulted in as the
  // search first touches them, rather than written through before the first node.
  int16_t depth = 0;
  uint8_t bound = 0;   // kLower, kUpper or kExact
  uint8_t move = 0;    // best move found, the first to try
  uint8_t proven = 0;  // the bound is game-theoretic, good at any depth
  uint8_t padding = 0;
};

Search::Search(const Rules& rules, size_t transposition_megabytes, const ExactValues* endgame)
    : rules_(rules), endgame_(endgame) {
  size_t entries = 1;
  while (entries * 2 * sizeof(Entry) <= transposition_megabytes * 1024 * 1024) entries *= 2;
  static_assert(std::is_trivially_copyable_v<Entry>);  // fresh pages' zeros read as Entry{}
  transposition_memory_ = BigBuffer(entries * sizeof(Entry), false);
  transposition_ = static_cast<Entry*>(transposition_memory_.data());
  transposition_mask_ = entries - 1;
  use_transposition_ = transposition_megabytes > 0;
}

Search::~Search() = default;

void Search::clear() {
  // Fresh pages: cheaper than writing the old ones over, and untouched until used.
  transposition_memory_ = BigBuffer(transposition_memory_.size(), false);
  transposition_ = static_cast<Entry*>(transposition_memory_.data());
  for (auto& side : history_) side.fill(0);
}

template <GameKind K>
Search::Value Search::negamax(const Position& p, int depth, int alpha, int beta, int ply) {
  ++nodes_;
  if ((nodes_ & 1023) == 0 && budget_.exhausted(nodes_)) aborted_ = true;
  if (aborted_) return {0, false};
  const Side mover = p.side_to_move;
  const int lead = p.mover_lead() * kUnitsPerSeed;

  MoveList moves;
  generate_moves<K>(rules_, p, moves);
  if (moves.empty()) return {final_outcome(rules_, p).lead(mover) * kUnitsPerSeed, true};
  // The root is searched even inside the tables, so that it has a best move.
  if (endgame_ && ply > 0) {
    if (const std::optional<int> v = endgame_->value(p)) return {lead + *v * kUnitsPerSeed, true};
  }
  const uint64_t key = position_hash(p);
  // Oware can cycle: a position already on the current line is worth what the stores hold
  // now (an endless cycle gives neither side more). It depends on the path, so it is not proven.
  if constexpr (K == GameKind::Oware) {
    for (size_t i = path_.size(); i-- > 0;)
      if (path_[i] == key) return {lead, false};
  }
  if (depth <= 0) {
    if constexpr (K == GameKind::Oware) {
      if (use_evaluation_) return {lead + oware_evaluation(p), false};
    }
    return {lead, false};
  }

  Entry& entry = transposition_[key & transposition_mask_];
  int tt_move = -1;
  if (use_transposition_ && entry.key == key && entry.depth > 0) {
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
    int gain;
    int order;
  };
  std::array<Child, kMaxHouses> children;
  const int n = moves.size();
  for (int i = 0; i < n; ++i) {
    Child& c = children[i];
    c.move = moves[i];
    c.position = apply_move<K>(rules_, p, c.move);
    c.gain = store_gain(p, c.position);
    c.order =
        (c.move == tt_move ? 1000 : 0) + 4 * c.gain + (c.position.side_to_move == mover ? 2 : 0);
    // Oware: among moves of equal gain, the one that cut off most often at this side's turn
    // (the history heuristic; measured in Oware only, docs/levels.md).
    if constexpr (K == GameKind::Oware)
      c.order = c.order * 65536 + std::min(history_[index(mover)][c.move], 65535);
  }
  std::sort(children.begin(), children.begin() + n,
            [](const Child& a, const Child& b) { return a.order > b.order; });

  if constexpr (K == GameKind::Oware) path_.push_back(key);
  const int alpha_in = alpha;
  int best = -kInfiniteUnits;
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
      bool reduced_search_fails_low = false;
      // Oware: a quiet late move (third or later in order, no gain, no extra turn) is first
      // searched a ply shallower; only when that does not fail low is it searched in full (late
      // move reductions; measured in Oware only).
      if (K == GameKind::Oware && use_reductions_ && i >= 2 && depth >= 6 && c.gain == 0 && !same) {
        const Value r = negamax<K>(c.position, depth - 4, -alpha - 1, -alpha, ply + 1);
        reduced_search_fails_low = -r.score <= alpha;
        if (reduced_search_fails_low) v = Value{-r.score, r.proven};
      }
      if (!reduced_search_fails_low) {
        v = child_value(alpha, alpha + 1);  // principal variation search: prove it is no better
        if (v.score > alpha && v.score < beta) v = child_value(alpha, beta);
      }
    }
    if (aborted_) break;
    if (v.score > best) {
      best = v.score;
      best_move = c.move;
    }
    if (best > alpha) alpha = best;
    if (alpha >= beta) {
      proven = v.proven;  // a proven refutation proves the lower bound
      if constexpr (K == GameKind::Oware) {
        // Saturating: an infinite analysis makes millions of cut-offs.
        int& h = history_[index(mover)][c.move];
        h = std::min(h + depth * depth, kHistoryCap);
      }
      break;
    }
    proven = proven && v.proven;
  }
  if constexpr (K == GameKind::Oware) path_.pop_back();
  if (aborted_) return {0, false};

  if (ply == 0) root_best_ = best_move;
  if (!use_transposition_) return {best, proven};
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
  budget_.start(0, 0);
  path_.clear();
  const Value v = dispatch(position, 2 * depth, -kInfiniteUnits, kInfiniteUnits);
  if (proven) *proven = v.proven;
  return seeds_from_units(v.score);
}

std::optional<Move> Search::best_exact_move(const Position& p) const {
  if (!endgame_) return std::nullopt;
  const RootProbe probe = probe_root(rules_, *endgame_, p);
  if (!probe.ok()) return std::nullopt;
  return probe.first_best_move();  // none for an ended game
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
    const Entry& e = transposition_[position_hash(p) & transposition_mask_];
    Move next;
    if (use_transposition_ && e.key == position_hash(p) && e.depth > 0 && moves.contains(e.move)) {
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
  budget_.start(limits.max_nodes, limits.max_seconds);
  nodes_ = 0;
  for (auto& side : history_)  // the last move's counts still guide, at half weight
    for (int& h : side) h /= 2;
  aborted_ = false;
  SearchResult result;
  result.best = generate_moves(rules_, position)[0];
  for (int depth = 1; depth <= limits.max_depth; ++depth) {
    path_.clear();
    const Value v = dispatch(position, 2 * depth, -kInfiniteUnits, kInfiniteUnits);
    if (aborted_) break;
    result.best = root_best_;
    result.score = seeds_from_units(v.score);
    result.proven = v.proven;
    result.depth = depth;
    result.nodes = nodes_;
    result.seconds = budget_.elapsed_seconds();
    result.pv = principal_variation(position, std::max(depth, v.proven ? 200 : depth));
    if (result.pv.empty() || result.pv[0] != result.best)
      result.pv.insert(result.pv.begin(), result.best);
    if (on_iteration) on_iteration(result);
    if (v.proven) break;
  }
  result.nodes = nodes_;
  result.seconds = budget_.elapsed_seconds();
  return result;
}

}  // namespace mancala
