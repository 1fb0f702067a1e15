#include "solver/search/match.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "solver/search/search.h"
#include "solver/util/thread_count.h"

namespace mancala {

std::vector<Move> random_opening(const Rules& rules, Random& random, int turns) {
  std::vector<Move> opening;
  Position p = start_position(rules);
  int turns_played = 0;
  while (turns_played < turns) {
    const MoveList moves = generate_moves(rules, p);
    if (moves.empty()) break;
    const Move m = moves[static_cast<int>(random.below(static_cast<uint32_t>(moves.size())))];
    const Position next = apply_move(rules, p, m);
    if (generate_moves(rules, next).empty()) break;  // keep games that still need playing
    opening.push_back(m);
    if (next.side_to_move != p.side_to_move) ++turns_played;
    p = next;
  }
  return opening;
}

Position random_walk(const Rules& rules, Position from, Random& random, int plies) {
  for (int i = 0; i < plies; ++i) {
    const MoveList moves = generate_moves(rules, from);
    if (moves.empty()) break;
    const Position next = apply_move(
        rules, from, moves[static_cast<int>(random.below(static_cast<uint32_t>(moves.size())))]);
    if (generate_moves(rules, next).empty()) break;
    from = next;
  }
  return from;
}

int opening_search_depth(const Rules& rules) {
  return rules.kind == GameKind::Congkak ? 4 : 8;
}

int opening_evaluation(const Rules& rules, const std::vector<Move>& opening) {
  Position p = start_position(rules);
  for (Move m : opening) p = apply_move(rules, p, m);
  // A small table of its own: the same size and empty at every call, for reproducible values.
  Search search(rules, 1);
  SearchLimits limits;
  limits.max_depth = opening_search_depth(rules);
  return search.run(p, limits).score;
}

Opening balanced_opening(const Rules& rules, Random& random, const OpeningOptions& options) {
  if (options.balance < 0) return {random_opening(rules, random, options.turns), std::nullopt};
  Opening best;
  // Without random turns every try is the start position.
  const int attempts = options.turns > 0 ? std::max(options.attempts, 1) : 1;
  for (int attempt = 0; attempt < attempts; ++attempt) {
    std::vector<Move> moves = random_opening(rules, random, options.turns);
    const int evaluation = opening_evaluation(rules, moves);
    if (!best.evaluation || std::abs(evaluation) < std::abs(*best.evaluation))
      best = {std::move(moves), evaluation};
    if (std::abs(*best.evaluation) <= options.balance) break;
  }
  return best;
}

std::vector<Opening> match_openings(const Rules& rules, uint64_t seed, int count,
                                    const OpeningOptions& options, int threads) {
  std::vector<Opening> openings(static_cast<size_t>(std::max(count, 0)));
#pragma omp parallel for num_threads(team_size(threads)) schedule(dynamic, 1)
  for (int k = 0; k < count; ++k) {
    Random random(seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(k));
    openings[static_cast<size_t>(k)] = balanced_opening(rules, random, options);
  }
  return openings;
}

Game play_game(const Rules& rules, Player& south, Player& north, const std::vector<Move>& opening) {
  Game game(rules);
  for (Move m : opening) game.play(m);
  while (!game.is_over()) {
    Player& player = game.position().side_to_move == Side::South ? south : north;
    game.play(player.choose(game));
  }
  return game;
}

double MatchScore::points() const {
  return games() ? (wins + 0.5 * draws) / games() : 0.5;
}

namespace {
// log10(p / (1 - p)), not -log10(1 / p - 1): the same number, but +0 at an even score where the
// other is -0 (printed "-0").
double elo_of(double p) {
  return 400.0 * std::log10(p / (1.0 - p));
}
}  // namespace

EloEstimate MatchScore::elo() const {
  const int n = games();
  if (n == 0) return {};
  const double lo = 0.5 / n, hi = 1.0 - 0.5 / n;
  const double p = std::clamp(points(), lo, hi);
  // The spread of one game's points, about the (clamped) mean, so that a clean sweep still
  // gets a margin.
  const double variance =
      std::max((wins * (1 - p) * (1 - p) + draws * (0.5 - p) * (0.5 - p) + losses * p * p) / n,
               p * (1 - p) / n);
  const double se = std::sqrt(variance / n);
  const double p_low = std::clamp(p - 1.96 * se, lo, hi),
               p_high = std::clamp(p + 1.96 * se, lo, hi);
  return {elo_of(p), (elo_of(p_high) - elo_of(p_low)) / 2};
}

void MatchScore::add(Winner winner, Side a_side) {
  if (winner == Winner::Draw)
    ++draws;
  else if ((winner == Winner::South) == (a_side == Side::South))
    ++wins;
  else
    ++losses;
}

}  // namespace mancala
