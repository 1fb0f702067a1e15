// Game-tree search: negamax alpha-beta with principal variation search, iterative deepening, a
// fixed-size transposition table and move ordering, for every game. An extra turn keeps the
// same side to move, so its score is not negated. Scores are final store differences for the
// side to move (stores included), in seeds; inside the search, in 1/16 seed (evaluation.h), so
// that Oware's horizon guess can be finer than a seed. Oware's search also orders moves by their
// history of cut-offs and reduces quiet late moves (docs/levels.md measures both).
//
// Where the endgame tables (an ExactValues source) cover a position, its exact value replaces
// further search. Scores that rest only on game ends and exact values are "proven"; the
// transposition table keeps them apart from heuristic ones, and a proven entry is good at any
// depth. Proving a whole game's value is the solver's work (solve.h): it has no horizon and
// keeps only proven bounds, which is why it has a transposition table of its own.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "solver/rules/moves.h"
#include "solver/rules/position.h"
#include "solver/rules/rules.h"
#include "solver/search/position_hash.h"
#include "solver/search/search_budget.h"
#include "solver/tables/big_buffer.h"
#include "solver/tables/exact_values.h"

namespace mancala {

struct SearchLimits {
  int max_depth = 64;      // plies: a sowing that hands over the turn; an extra turn counts half
  uint64_t max_nodes = 0;  // 0: no limit
  double max_seconds = 0;  // 0: no limit
};

struct SearchResult {
  Move best = 0;
  int score = 0;        // final store difference for the side to move
  bool proven = false;  // the score is the game-theoretic value
  int depth = 0;        // of the last completed iteration
  uint64_t nodes = 0;
  double seconds = 0;
  std::vector<Move> pv;  // from the root; one entry per sowing
};

class Search {
 public:
  // `endgame` (the endgame tables) may be null; it must outlive the search. A transposition table
  // of 0 megabytes turns it off (the search is then plain alpha-beta, for tests).
  Search(const Rules& rules, size_t transposition_megabytes = 16,
         const ExactValues* endgame = nullptr);
  ~Search();

  const Rules& rules() const { return rules_; }
  // Iterative deepening from depth 1; `on_iteration` sees each completed depth. Stops early
  // when the score is proven. The position must not be over.
  SearchResult run(const Position& position, const SearchLimits& limits,
                   const std::function<void(const SearchResult&)>& on_iteration = {});
  // A fixed-depth search with a full window (tests and benchmarks).
  int search_depth(const Position& position, int depth, bool* proven = nullptr);
  // Empties the transposition table.
  void clear();
  // Asks a running search to stop (from another thread).
  void stop() { budget_.request_stop(); }
  uint64_t nodes() const { return nodes_; }
  // Oware's horizon guess (evaluation.h); off, the horizon is the store difference, as in the
  // other games (the fitting script's reference, and tests against minimax).
  void set_evaluation(bool on) { use_evaluation_ = on; }
  // Oware's late move reductions, which may miss what a full-width search finds; off, a search to
  // a fixed depth equals minimax to that depth (tests).
  void set_reductions(bool on) { use_reductions_ = on; }

 private:
  struct Entry;
  struct Value {
    int score;
    bool proven;
  };
  template <GameKind K>
  Value negamax(const Position& p, int depth, int alpha, int beta, int ply);
  Value dispatch(const Position& p, int depth, int alpha, int beta);
  std::vector<Move> principal_variation(const Position& p, int max_length) const;
  // Inside the tables: a move of the best exact value (nullopt outside them).
  std::optional<Move> best_exact_move(const Position& p) const;

  Rules rules_;
  const ExactValues* endgame_;
  BigBuffer transposition_memory_;
  Entry* transposition_ = nullptr;  // transposition_mask_ + 1 entries in transposition_memory_
  uint64_t transposition_mask_ = 0;
  bool use_transposition_ = true;
  bool use_evaluation_ = true;
  bool use_reductions_ = true;
  // Oware's history heuristic: for each side and house, how often (weighted by the depth left
  // squared) a move from it cut the search off; halved at each run.
  std::array<std::array<int, kMaxHouses>, 2> history_{};
  uint64_t nodes_ = 0;
  SearchBudget budget_;
  bool aborted_ = false;
  Move root_best_ = 0;
  std::vector<uint64_t> path_;  // hashes of the positions on the current line (Oware cycles)
};

}  // namespace mancala
