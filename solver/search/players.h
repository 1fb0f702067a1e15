// Computer players, levels 1 to 6:
//   1 random       a random legal move
//   2 greedy       the move with the best immediate gain (own store growth minus the
//                  opponent's), ties broken at random
//   3 shallow      alpha-beta search 2 plies deep
//   4 deeper       alpha-beta search 8 plies deep (4 in Congkak: see fixed_depth)
//   5 timed        iterative deepening within a time budget (default 1 s a move)
//   6 Pro          level 5 with four times its budget and the endgame tables: inside them it
//                  plays a move of the best exact value (never throwing away a won or drawn
//                  result), in Oware one that gets there soonest without letting a repetition
//                  share the seeds (table_conversion.h); outside, the search stops wherever a line
//                  enters them, and when the search has not proven its score the whole-game solver
//                  tries to, with half that budget again: a move it proves best replaces a searched
//                  one that is not (in Oware only within kOwareSolverReach seeds of the tables;
//                  beyond, the search has the whole budget)
// Levels 3 to 6 score Oware's horizon with its evaluation (evaluation.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "solver/rules/game.h"
#include "solver/search/search.h"
#include "solver/search/solve.h"
#include "solver/tables/exact_values.h"
#include "solver/util/random.h"

namespace mancala {

inline constexpr int kMinLevel = 1;
inline constexpr int kMaxLevel = 6;

// The name of a level, with its depth in this game for the fixed-depth ones.
std::string level_name(int level, const Rules& rules);

// The search depth of the fixed-depth levels 3 and 4 in plies (0 for the others). Level 4 searches
// 4 plies in Congkak, not 8: there a ply is a turn of chained sowings round the whole board and a
// game lasts about eight turns a side, so 8 plies often reach the end of the game and level 4
// played level 5 (100 000 nodes a move) nearly even (57% for level 5 in 200 games; 56% with
// 1 000 000 nodes); at 4 plies it sits between levels 3 and 5 (82% and 72.5%).
int fixed_depth(int level, const Rules& rules);

// The Pro level's split of one move's budget (a time, a node count, or both; 0: none): two thirds
// to the search and, when the search has not proven its score, one third to the whole-game solver.
// Every Pro move takes it from here (Player::choose), whoever set the budget: the level itself, or
// a caller's clock (the engine protocol's GUI).
struct ProShares {
  double search_seconds = 0;
  double solve_seconds = 0;
  uint64_t search_nodes = 0;
  uint64_t solve_nodes = 0;
};
ProShares pro_shares(double seconds, uint64_t nodes);

// Oware: Pro's solver runs only within this many seeds above what the endgame tables cover.
inline constexpr int kOwareSolverReach = 6;

struct PlayerOptions {
  int level = 2;
  uint64_t seed = 1;
  double seconds_per_move = 1.0;         // level 5; level 6 takes up to six times as long
  uint64_t nodes_per_move = 0;           // levels 5 and 6: a node budget instead (0: none)
  const ExactValues* endgame = nullptr;  // the endgame tables, for level 6; must outlive the player
  size_t transposition_megabytes = 32;   // transposition table of levels 5 and 6 (and the solver's)
  // Levels 3 and 4's table; unset: 1 MB and 4 MB, enough for their depths (matches make many
  // players). A caller that promises its user a size (the engine's Hash) sets it.
  std::optional<size_t> fixed_depth_megabytes = std::nullopt;
  // Levels 3 and 4: stop short of their depth; levels 5 and 6 on a node budget: stop short of it
  // (0: never).
  double max_seconds = 0;
};

// What the computer thought, for showing it.
struct Thinking {
  int depth = 0;
  int score = 0;       // predicted final store difference for the side that moved
  bool exact = false;  // a game-theoretic value (endgame tables or a proven search)
  bool from_tables = false;
  bool from_solver = false;  // Pro's whole-game solver proved the value (the search had not)
  std::vector<Move> pv;
  uint64_t nodes = 0;
  double seconds = 0;
};

// A caller's budget for one move, in place of the level's own: a GUI's clock, the depth it asks
// for. Levels 1 and 2 take no time and ignore it.
struct MoveLimits {
  int max_depth = 0;   // plies; levels 3 and 4 never pass their own depth (0: no other limit)
  double seconds = 0;  // the whole move, the Pro solver's share included (0: none)
  uint64_t nodes = 0;  // likewise in nodes (0: none)
  // Pro: when the search has not proven its score, a third of the budget goes to the whole-game
  // solver (pro_shares). Only with a time or node budget: without one the search alone runs, to
  // its depth or until stop().
  bool solver_share = true;
};

// Called after each completed search depth, on the thread that called choose.
using DepthReport = std::function<void(const SearchResult&)>;

// Thread safety: one thread chooses; stop() may be called from any thread at any time.
class Player {
 public:
  Player(const Rules& rules, const PlayerOptions& options);
  ~Player();

  int level() const { return options_.level; }
  // A legal move for the side to move within the level's own budget; the game must not be over.
  Move choose(const Game& game, Thinking* thinking = nullptr);
  // The same within a caller's budget, reporting each completed search depth.
  Move choose(const Game& game, const MoveLimits& limits, Thinking* thinking,
              const DepthReport& on_depth = {});
  // The level's own budget (PlayerOptions): what choose(game) thinks within.
  MoveLimits level_limits() const;
  // Ends the move being chosen as soon as possible: the best move searched so far, and no solver
  // phase. A choose that is just starting forgets an earlier stop, so a caller that must be sure
  // asks again until choose returns.
  void stop();
  // A new game: forgets the search's transposition table and starts the random sequence again.
  void new_game();

 private:
  Move choose_greedy(const Game& game);
  // Level 6 inside the tables: a move of the best exact value that realises it, given the game's
  // history (converting_moves); false when the position is outside.
  bool choose_exact(const Game& game, Move& move, Thinking* thinking);
  // Pro: is the whole-game solver worth its share of the budget here?
  bool solver_may_prove(const Position& p) const;

  Rules rules_;
  PlayerOptions options_;
  Random random_;
  std::unique_ptr<Search> search_;
  std::unique_ptr<Solver> solver_;  // level 6; kept for the whole game, with what it proved
  std::atomic<bool> stop_requested_{false};
};

}  // namespace mancala
