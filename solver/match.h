// Matches between computer players: playing one game from an opening, and the bookkeeping of a
// match (points and an Elo difference with its error margin).
#pragma once

#include <vector>

#include "solver/game.h"
#include "solver/players.h"
#include "solver/random.h"

namespace mancala {

// Random legal moves from the start until the turn has passed `turns` times (a turn's extra
// sowings included), for varied openings; it stops early rather than end the game.
std::vector<Move> random_opening(const Rules& rules, Random& random, int turns);

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
