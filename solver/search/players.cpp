#include "solver/search/players.h"

#include <algorithm>
#include <vector>

namespace mancala {

int fixed_depth(int level, const Rules& rules) {
  if (level == 3) return 2;
  if (level == 4) return rules.kind == GameKind::Congkak ? 4 : 8;
  return 0;
}

std::string level_name(int level, const Rules& rules) {
  switch (level) {
    case 1:
      return "level 1 (random)";
    case 2:
      return "level 2 (greedy)";
    case 3:
    case 4:
      return "level " + std::to_string(level) + " (search, " +
             std::to_string(fixed_depth(level, rules)) + " plies)";
    case 5:
      return "level 5 (timed search)";
    case 6:
      return "level 6 (Pro)";
    default:
      return "level " + std::to_string(level);
  }
}

ProShares pro_shares(double seconds, uint64_t nodes) {
  // A share of a node budget is never 0, which would mean no limit.
  return {seconds * 2 / 3, seconds / 3, nodes > 0 ? std::max<uint64_t>(nodes * 2 / 3, 1) : 0,
          nodes > 0 ? std::max<uint64_t>(nodes / 3, 1) : 0};
}

Player::Player(const Rules& rules, const PlayerOptions& options)
    : rules_(rules), options_(options), random_(options.seed) {
  // Fixed-depth levels need only a small table (and matches create many players).
  const size_t megabytes = options_.level == 3   ? 1
                           : options_.level == 4 ? 4
                                                 : options_.transposition_megabytes;
  if (options_.level >= 3)
    search_ = std::make_unique<Search>(rules, megabytes,
                                       options_.level >= 6 ? options_.endgame : nullptr);
  if (options_.level >= 6)
    solver_ = std::make_unique<Solver>(rules, options_.transposition_megabytes, options_.endgame);
}

Player::~Player() = default;

Move Player::choose_greedy(const Game& game) {
  std::vector<Move> best;
  std::optional<int> best_gain;
  const Position& p = game.position();
  for (Move m : game.legal_moves()) {
    const int gain = store_gain(p, apply_move(game.rules(), p, m));
    if (!best_gain || gain > *best_gain) {
      best_gain = gain;
      best.clear();
    }
    if (gain == *best_gain) best.push_back(m);
  }
  return best[random_.below(static_cast<uint32_t>(best.size()))];
}

bool Player::choose_exact(const Position& p, Move& move, Thinking* thinking) {
  const RootProbe probe = probe_root(rules_, *options_.endgame, p);
  if (!probe.ok() || probe.count == 0) return false;
  std::vector<Move> best;
  for (int i = 0; i < probe.count; ++i)
    if (probe.is_best(i)) best.push_back(probe.moves[static_cast<size_t>(i)]);
  move = best[random_.below(static_cast<uint32_t>(best.size()))];
  if (thinking) {
    *thinking = Thinking{};
    thinking->score = p.mover_lead() + probe.value;
    thinking->exact = true;
    thinking->from_tables = true;
    thinking->pv = {move};
  }
  return true;
}

Move Player::choose(const Game& game, Thinking* thinking) {
  const MoveList moves = game.legal_moves();
  if (options_.level <= 1)
    return moves[static_cast<int>(random_.below(static_cast<uint32_t>(moves.size())))];
  if (options_.level == 2) return choose_greedy(game);
  const Position& p = game.position();
  Move move;
  if (options_.level >= 6 && options_.endgame && choose_exact(p, move, thinking)) return move;
  SearchLimits limits;
  ProShares pro;
  if (options_.level <= 4) {
    limits.max_depth = fixed_depth(options_.level, rules_);
    limits.max_seconds = options_.max_seconds;
  } else if (options_.level == 5) {
    limits.max_seconds = options_.nodes_per_move ? 0 : options_.seconds_per_move;
    limits.max_nodes = options_.nodes_per_move;
  } else {
    // Pro's whole budget is six times level 5's: four to the search (which stops wherever the
    // tables know), two to the solver.
    pro = pro_shares(options_.nodes_per_move ? 0 : 6 * options_.seconds_per_move,
                     6 * options_.nodes_per_move);
    limits.max_seconds = pro.search_seconds;
    limits.max_nodes = pro.search_nodes;
  }
  const SearchResult r = search_->run(p, limits);
  // The search sees positions, the game also the Oware repetition rule; both agree on which
  // moves are legal, and the check keeps it that way.
  move = moves.contains(r.best) ? r.best : moves[0];
  if (thinking) {
    *thinking = Thinking{r.depth, r.score, r.proven, false, r.pv, r.nodes, r.seconds};
  }
  if (solver_ && !r.proven) {
    // Pro then tries to prove a best move outright with its solver's share; the searched move
    // stays when it is one of the best.
    SolveLimits solve_limits;
    solve_limits.max_seconds = pro.solve_seconds;
    solve_limits.max_nodes = pro.solve_nodes;
    SolveOptions solve_options;
    solve_options.guess = r.score;
    solve_options.moves_only = true;
    const SolveResult solved = solver_->solve(p, solve_limits, {}, solve_options);
    if (solved.solved && !solved.best.empty()) {
      const bool searched_is_best =
          std::find(solved.best.begin(), solved.best.end(), move) != solved.best.end();
      const Move proven = searched_is_best ? move : solved.best[0];
      if (moves.contains(proven)) {
        if (thinking) {
          thinking->score = solved.value;
          thinking->exact = true;
          if (!searched_is_best) thinking->pv = {proven};
          thinking->nodes += solved.nodes;
          thinking->seconds += solved.seconds;
        }
        move = proven;
      }
    }
  }
  return move;
}

}  // namespace mancala
