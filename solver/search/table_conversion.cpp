#include "solver/search/table_conversion.h"

#include <algorithm>
#include <climits>
#include <deque>
#include <unordered_map>

#include "solver/search/position_hash.h"

namespace mancala {

namespace {

struct PositionHasher {
  size_t operator()(const Position& p) const { return static_cast<size_t>(position_hash(p)); }
};
using PositionCounts = std::unordered_map<Position, int, PositionHasher>;

constexpr int kNever = INT_MAX / 2;  // no progress forced (within what was explored)

// How often each position has occurred since the last capture: only positions with the present
// stores can come again (Game::third_occurrence scans the same way).
PositionCounts occurrences_since_capture(const Game& game) {
  PositionCounts counts;
  const Position& now = game.position();
  const std::vector<Position>& positions = game.positions();
  for (auto it = positions.rbegin(); it != positions.rend(); ++it) {
    if (it->store(Side::South) != now.store(Side::South) ||
        it->store(Side::North) != now.store(Side::North))
      break;
    ++counts[*it];
  }
  return counts;
}

int occurrences(const PositionCounts& counts, const Position& p) {
  const auto it = counts.find(p);
  return it == counts.end() ? 0 : it->second;
}

struct Step {
  Position after;
  bool progress = false;    // a capture or the end of the game: the seeds on the board fall
  bool repetition = false;  // makes a third occurrence: the game ends, the seeds shared
};

Step step(const Rules& rules, const Position& p, Move move, const PositionCounts& counts) {
  Step s;
  MoveEffect effect;
  s.after = apply_move(rules, p, move, &effect);
  s.progress = effect.game_over || s.after.seeds_on_board() < p.seeds_on_board();
  // A sowing that captures nothing changes no store, so only it can repeat a position.
  s.repetition = !s.progress && occurrences(counts, s.after) >= 2;
  return s;
}

// The positions reachable from the root by value-keeping sowings that keep the seeds on the
// board, and the plies to progress from each.
class ProgressGraph {
 public:
  ProgressGraph(const Rules& rules, const ExactValues& tables, const PositionCounts& counts,
                const ConversionLimits& limits)
      : rules_(rules), tables_(tables), counts_(counts), limits_(limits) {}

  // Plies to progress after each of `root_moves` (none of them progress or a repetition), the
  // mover taking the shortest way, the opponent the longest among its value-keeping replies.
  std::vector<int> distances(const Position& root, const std::vector<Move>& root_moves) {
    nodes_.clear();
    index_.clear();
    complete_ = true;
    std::vector<int> root_children;
    for (Move m : root_moves) root_children.push_back(node(apply_move(rules_, root, m), 1));
    // Layer by layer: a way of L plies passes only through positions fewer than L plies from the
    // root, so once a way is known that is no longer than the layers expanded plus one, no
    // shorter one is left to find.
    std::vector<int> result(root_children.size(), kNever);
    size_t next = 0;
    for (int depth = 1; next < nodes_.size(); ++depth) {
      while (next < nodes_.size() && nodes_[next].depth == depth) expand(static_cast<int>(next++));
      settle();
      int shortest = kNever;
      for (size_t c = 0; c < root_children.size(); ++c) {
        const int d = nodes_[static_cast<size_t>(root_children[c])].distance;
        result[c] = d >= kNever ? kNever : 1 + d;
        shortest = std::min(shortest, result[c]);
      }
      if (shortest <= depth + 1) break;
    }
    return result;
  }

  uint64_t size() const { return nodes_.size(); }
  bool complete() const { return complete_; }

 private:
  struct Node {
    Position position;
    int depth = 0;          // plies from the root
    bool expanded = false;  // its moves are known (false: beyond the limits, or a failed probe)
    bool opponent_ends = false;  // an opponent's node where it can make a third occurrence
    bool progress_move = false;  // a value-keeping move from here makes progress
    std::vector<int> children;   // value-keeping sowings that keep the seeds on the board
    int distance = kNever;
  };

  int node(const Position& p, int depth) {
    const auto [it, added] = index_.try_emplace(p, static_cast<int>(nodes_.size()));
    if (added) {
      Node n;
      n.position = p;
      n.depth = depth;
      nodes_.push_back(std::move(n));
    }
    return it->second;
  }

  bool movers_node(const Node& n) const { return n.depth % 2 == 0; }

  void expand(int i) {
    // Copied: adding children may move the node vector.
    const Position p = nodes_[static_cast<size_t>(i)].position;
    const int depth = nodes_[static_cast<size_t>(i)].depth;
    if (depth >= limits_.max_plies || nodes_.size() >= limits_.max_nodes) {
      complete_ = false;
      return;
    }
    const RootProbe probe = probe_tables_count(rules_, tables_, p);
    if (!probe.ok() || probe.count == 0) {
      complete_ = false;
      return;
    }
    const bool mover = depth % 2 == 0;
    bool opponent_ends = false, progress_move = false;
    std::vector<int> children;
    for (int k = 0; k < probe.count; ++k) {
      const Step s = step(rules_, p, probe.moves[static_cast<size_t>(k)], counts_);
      // Sharing the seeds is worth 0 to the opponent, more than its value: it takes a repetition
      // whenever one is there. The mover never makes one.
      if (s.repetition) {
        if (!mover) opponent_ends = true;
        continue;
      }
      if (probe.move_values[static_cast<size_t>(k)] != probe.value) continue;
      if (s.progress)
        progress_move = true;
      else
        children.push_back(node(s.after, depth + 1));
    }
    Node& n = nodes_[static_cast<size_t>(i)];
    n.expanded = true;
    n.opponent_ends = opponent_ends;
    n.progress_move = progress_move;
    n.children = std::move(children);
  }

  // Backward induction from "no progress known" everywhere: each pass lowers a distance only
  // where a strategy of that length is shown, so a cycle never proves anything.
  void settle() {
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = nodes_.size(); i-- > 0;) {
        Node& n = nodes_[i];
        if (!n.expanded) continue;
        int d = kNever;
        if (movers_node(n)) {
          if (n.progress_move) d = 1;
          for (int c : n.children) d = std::min(d, 1 + nodes_[static_cast<size_t>(c)].distance);
        } else if (!n.opponent_ends && (n.progress_move || !n.children.empty())) {
          d = n.progress_move ? 1 : 0;
          for (int c : n.children) d = std::max(d, 1 + nodes_[static_cast<size_t>(c)].distance);
        }
        d = std::min(d, kNever);
        if (d < n.distance) {
          n.distance = d;
          changed = true;
        }
      }
    }
  }

  const Rules& rules_;
  const ExactValues& tables_;
  const PositionCounts& counts_;
  const ConversionLimits& limits_;
  std::vector<Node> nodes_;
  std::unordered_map<Position, int, PositionHasher> index_;
  bool complete_ = true;
};

}  // namespace

std::optional<TableConversion> converting_moves(const Game& game, const ExactValues& tables,
                                                const ConversionLimits& limits) {
  const Rules& rules = game.rules();
  const Position& p = game.position();
  // Valued on the tables' count, as every answer ranks moves: a move that reaches an Oware
  // majority is not preferred or passed over for a margin of another kind.
  const RootProbe probe = probe_tables_count(rules, tables, p);
  if (!probe.ok() || probe.count == 0) return std::nullopt;
  TableConversion result;
  result.table_value = probe.value;
  const auto moves_of = [&](const std::vector<int>& value, int wanted) {
    std::vector<Move> moves;
    for (int k = 0; k < probe.count; ++k)
      if (value[static_cast<size_t>(k)] == wanted)
        moves.push_back(probe.moves[static_cast<size_t>(k)]);
    return moves;
  };
  std::vector<int> value(probe.move_values.begin(), probe.move_values.begin() + probe.count);
  if (rules.kind != GameKind::Oware) {
    // No position repeats: every move of the best value gets there.
    result.value = probe.value;
    result.moves = moves_of(value, probe.value);
    return result;
  }
  const PositionCounts counts = occurrences_since_capture(game);
  std::vector<Step> steps;
  for (int k = 0; k < probe.count; ++k) {
    steps.push_back(step(rules, p, probe.moves[static_cast<size_t>(k)], counts));
    if (steps.back().repetition) value[static_cast<size_t>(k)] = 0;  // the seeds shared
  }
  ProgressGraph graph(rules, tables, counts, limits);
  for (;;) {
    const int best = *std::max_element(value.begin(), value.end());
    result.value = best;
    std::vector<int> candidates, progress;
    for (int k = 0; k < probe.count; ++k) {
      if (value[static_cast<size_t>(k)] != best) continue;
      candidates.push_back(k);
      if (steps[static_cast<size_t>(k)].progress) progress.push_back(k);
    }
    const auto moves_at = [&](const std::vector<int>& ks) {
      std::vector<Move> moves;
      for (int k : ks) moves.push_back(probe.moves[static_cast<size_t>(k)]);
      return moves;
    };
    // Nothing to gain by progress: a cycle, or its end by repetition, already gives 0.
    if (best <= 0) {
      result.moves = moves_at(candidates);
      return result;
    }
    if (!progress.empty()) {
      result.moves = moves_at(progress);
      result.proven = true;
      result.plies = 1;
      return result;
    }
    const std::vector<int> distance = graph.distances(p, moves_at(candidates));
    result.nodes += graph.size();
    result.complete = result.complete && graph.complete();
    const int shortest = *std::min_element(distance.begin(), distance.end());
    if (shortest < kNever) {
      std::vector<int> fastest;
      for (size_t c = 0; c < candidates.size(); ++c)
        if (distance[c] == shortest) fastest.push_back(candidates[c]);
      result.moves = moves_at(fastest);
      result.proven = true;
      result.plies = shortest;
      return result;
    }
    if (graph.complete()) {
      // Every way is explored and none forces progress: the opponent can keep the seeds on the
      // board until a repetition shares them.
      for (int k : candidates) value[static_cast<size_t>(k)] = 0;
      continue;
    }
    // Cut short: keep the moves the opponent cannot answer with a repetition at once, into the
    // least-seen positions; the next move searches again from nearer.
    int least_seen = INT_MAX;
    std::vector<int> kept;
    for (int k : candidates) {
      const Step& s = steps[static_cast<size_t>(k)];
      bool opponent_repeats = false;
      for (Move reply : generate_moves(rules, s.after))
        opponent_repeats = opponent_repeats || step(rules, s.after, reply, counts).repetition;
      if (opponent_repeats) continue;
      const int seen = occurrences(counts, s.after);
      if (seen < least_seen) {
        least_seen = seen;
        kept.clear();
      }
      if (seen == least_seen) kept.push_back(k);
    }
    result.moves = moves_at(kept.empty() ? candidates : kept);
    return result;
  }
}

}  // namespace mancala
