// Game-tree search: negamax alpha-beta with principal variation search, iterative deepening, a
// fixed-size transposition table and move ordering, for every game. An extra turn keeps the
// same side to move, so its score is not negated. Scores are final store differences for the
// side to move (stores included), in seeds.
//
// Where an ExactValues source covers a position (the endgame tables), its exact value replaces
// further search. Scores that rest only on game ends and exact values are "proven"; the
// transposition table keeps them apart from heuristic ones, and a proven entry is good at any
// depth. A whole-game solve is a search deepened until the root score is proven.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "solver/moves.h"
#include "solver/position.h"
#include "solver/rules.h"

namespace mancala {

// Exact values from outside the search (the endgame tables): what the side to move will still
// gain minus what the opponent will, with perfect play; nullopt where not covered.
class ExactValues {
 public:
  virtual ~ExactValues() = default;
  virtual std::optional<int> value(const Position& position) const = 0;
  // No position with more seeds on the board is covered (-1: none is), so a search need not ask.
  virtual int max_seeds() const = 0;
};

// The exact value of a move for the mover (its store gain minus the opponent's, plus what follows
// with perfect play), from `tables`; nullopt when the position after it is outside them.
std::optional<int> exact_move_value(const Rules& rules, const ExactValues& tables,
                                    const Position& p, Move move);

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
  // `tables` may be null; it must outlive the search. A table of 0 megabytes turns the
  // transposition table off (the search is then plain alpha-beta, for tests).
  Search(const Rules& rules, size_t table_megabytes = 16, const ExactValues* tables = nullptr);
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
  void stop() { stop_.store(true); }
  uint64_t nodes() const { return nodes_; }

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
  bool out_of_time();

  Rules rules_;
  const ExactValues* tables_;
  std::vector<Entry> table_;
  uint64_t mask_ = 0;
  uint64_t nodes_ = 0;
  uint64_t node_limit_ = 0;
  double time_limit_ = 0;
  std::chrono::steady_clock::time_point started_;
  std::atomic<bool> stop_{false};
  bool aborted_ = false;
  bool use_table_ = true;
  Move root_best_ = 0;
  std::vector<uint64_t> path_;  // hashes of the positions on the current line (Oware cycles)
};

// Zobrist-style hash of the houses and the side to move (stores are not part of it: the table
// keeps scores without the stores, so transpositions with other stores still hit).
uint64_t position_hash(const Position& position);

}  // namespace mancala
