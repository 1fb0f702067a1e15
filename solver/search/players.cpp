#include "solver/search/players.h"

#include <algorithm>
#include <vector>

#include "solver/search/table_conversion.h"

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
  const size_t megabytes = options_.level == 3   ? options_.fixed_depth_megabytes.value_or(1)
                           : options_.level == 4 ? options_.fixed_depth_megabytes.value_or(4)
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

bool Player::choose_exact(const Game& game, Move& move, Thinking* thinking) {
  // Oware: of the best moves, one that gets to the value rather than round a cycle until a
  // repetition shares the seeds (table_conversion.h).
  const std::optional<TableConversion> conversion = converting_moves(game, *options_.endgame);
  if (!conversion) return false;
  const std::vector<Move>& best = conversion->moves;
  move = best[random_.below(static_cast<uint32_t>(best.size()))];
  if (thinking) {
    *thinking = Thinking{};
    // The tables' count, as the analysis ranks moves (solver/rules/README.md, "Oware values from
    // the tables"), except for a move that ends the game: its real end, which in Oware differs
    // from the count when a majority leaves seeds on the board.
    const Position& p = game.position();
    const Position after = apply_move(game.rules(), p, move);
    thinking->score = is_game_over(game.rules(), after)
                          ? final_outcome(game.rules(), after).lead(p.side_to_move)
                          : p.mover_lead() + conversion->value;
    thinking->exact = true;
    thinking->from_tables = true;
    thinking->pv = {move};
    thinking->nodes = conversion->nodes;
  }
  return true;
}

bool Player::solver_may_prove(const Position& p) const {
  // Oware's middle game cycles and lasts long: the solver proves nothing there in a move's time,
  // and its third of the budget played better as search (SPRT, docs/levels.md). Near the tables
  // it still proves moves.
  if (rules_.kind != GameKind::Oware) return true;
  const int covered = options_.endgame ? options_.endgame->max_seeds() : 0;
  return p.seeds_on_board() <= covered + kOwareSolverReach;
}

void Player::stop() {
  stop_requested_ = true;
  // The search and the solver are made with the player and live as long as it does.
  if (search_) search_->stop();
  if (solver_) solver_->stop();
}

void Player::new_game() {
  if (search_) search_->clear();
  random_ = Random(options_.seed);
}

MoveLimits Player::level_limits() const {
  MoveLimits limits;
  if (options_.level <= 4) {
    limits.seconds = options_.max_seconds;
  } else if (options_.level == 5) {
    // On a node budget, time stops the move only at max_seconds, a cap for a server's sake.
    limits.seconds = options_.nodes_per_move ? options_.max_seconds : options_.seconds_per_move;
    limits.nodes = options_.nodes_per_move;
  } else {
    // Pro's whole budget is six times level 5's: four parts to the search (which stops wherever
    // the tables know), two to the solver.
    limits.seconds = options_.nodes_per_move ? options_.max_seconds : 6 * options_.seconds_per_move;
    limits.nodes = 6 * options_.nodes_per_move;
  }
  return limits;
}

Move Player::choose(const Game& game, Thinking* thinking) {
  return choose(game, level_limits(), thinking);
}

Move Player::choose(const Game& game, const MoveLimits& limits, Thinking* thinking,
                    const DepthReport& on_depth) {
  stop_requested_ = false;
  const MoveList moves = game.legal_moves();
  if (options_.level <= 1)
    return moves[static_cast<int>(random_.below(static_cast<uint32_t>(moves.size())))];
  if (options_.level == 2) return choose_greedy(game);
  const Position& p = game.position();
  Move move;
  if (options_.level >= 6 && options_.endgame && choose_exact(game, move, thinking)) return move;
  SearchLimits search_limits;
  if (options_.level <= 4) {
    search_limits.max_depth = fixed_depth(options_.level, rules_);
    if (limits.max_depth > 0)
      search_limits.max_depth = std::min(search_limits.max_depth, limits.max_depth);
  } else if (limits.max_depth > 0) {
    search_limits.max_depth = limits.max_depth;
  }
  const bool solver_phase = solver_ && limits.solver_share &&
                            (limits.seconds > 0 || limits.nodes > 0) && solver_may_prove(p);
  const ProShares pro = pro_shares(limits.seconds, limits.nodes);
  search_limits.max_seconds = solver_phase ? pro.search_seconds : limits.seconds;
  search_limits.max_nodes = solver_phase ? pro.search_nodes : limits.nodes;
  const SearchResult r = search_->run(p, search_limits, on_depth);
  // The search sees positions, the game also the Oware repetition rule; both agree on which
  // moves are legal, and the check keeps it that way.
  move = moves.contains(r.best) ? r.best : moves[0];
  if (thinking) {
    *thinking = Thinking{r.depth, r.score, r.proven, false, false, r.pv, r.nodes, r.seconds};
  }
  if (solver_phase && !r.proven && !stop_requested_) {
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
          thinking->from_solver = true;
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
