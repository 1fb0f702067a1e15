// Matches between computer players: playing one game from an opening, and the bookkeeping of a
// match (points and an Elo difference with its error margin).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "solver/rules/game.h"
#include "solver/search/players.h"
#include "solver/util/random.h"

namespace mancala {

// Random legal moves from the start until the turn has passed `turns` times (a turn's extra
// sowings included), for varied openings; it stops early rather than end the game.
std::vector<Move> random_opening(const Rules& rules, Random& random, int turns);

// `plies` random legal sowings from `from`, stopping early rather than end the game (for varied
// test and benchmark positions).
Position random_walk(const Rules& rules, Position from, Random& random, int plies);

// Balanced openings. Moving first is a large edge in these games (South wins Kalah(6,4) with
// perfect play; between decent players South won 80-94% of Congkak(7,7) games even after eight
// random opening turns), and a random opening often hands one side a lead of its own. On such an
// opening the pair of games a match plays, colours swapped, splits 1-1 whatever the players'
// strength, and the match measures little. So a match keeps an opening only when a fixed search
// scores it close to even, drawing others from the same random stream until one is.
struct OpeningOptions {
  // Random turns, as in random_opening: two each. After one each few openings are balanced, and
  // 100 pairs of games got only 16 to 31 different ones.
  int turns = 4;
  int balance = 2;     // the largest accepted |evaluation| in seeds; negative: any opening
  int attempts = 100;  // openings drawn at most; then the most balanced of them
};

// The depth of the search that scores openings, fixed per game so that a position costs a few
// milliseconds: 8 plies for Kalah and Oware, 4 for Congkak (its sowings run round the board).
int opening_search_depth(const Rules& rules);

// The predicted final store difference for the side to move after `opening`: a search to
// opening_search_depth with a fresh transposition table, no endgame tables and no time or node
// limit, so the same opening always gets the same value. The game must not be over.
int opening_evaluation(const Rules& rules, const std::vector<Move>& opening);

struct Opening {
  std::vector<Move> moves;
  std::optional<int> evaluation;  // opening_evaluation of the moves; none when balance is off
};

// Random openings from `random` (random_opening) until one's |evaluation| is at most
// options.balance; after options.attempts of them, the first of the most balanced. With balance
// off, the first random opening: the same moves random_opening would give.
Opening balanced_opening(const Rules& rules, Random& random, const OpeningOptions& options);

// The openings of a match, one per pair of games: opening k comes from a random stream of its own,
// seeded by `seed` and k, so the result does not depend on the number of threads computing them
// in parallel (`threads`).
std::vector<Opening> match_openings(const Rules& rules, uint64_t seed, int count,
                                    const OpeningOptions& options, int threads = 1);

// Plays a whole game: the opening, then the players in turn (each sowing chosen by the player
// whose side is to move).
Game play_game(const Rules& rules, Player& south, Player& north, const std::vector<Move>& opening);

struct EloEstimate {
  double difference = 0;  // Elo of A minus Elo of B
  double margin = 0;      // half-width of the 95% confidence interval
};

// Results from A's point of view.
struct MatchScore {
  int wins = 0;
  int draws = 0;
  int losses = 0;

  int games() const { return wins + draws + losses; }
  // A's share of the points, 0 to 1 (a draw is half a point).
  double points() const;
  // From the points and their spread over the games; a score of 0 or 1 is taken as half a game
  // away from it, so the estimate stays finite.
  EloEstimate elo() const;
  void add(Winner winner, Side a_side);
};

}  // namespace mancala
