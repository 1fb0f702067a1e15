// Analysing a position: every legal move with its value and where the value comes from, best
// first. The one analysis every door shows: `mancala analyse`, the HTTP API's /analyse (the web
// board's analysis panel and its hint), Python's mancala.analyse.
//
// Where the values come from, in this order:
//   1. the endgame tables, when they hold the position: every move exact, with a best line;
//   2. the whole-game solver, on each move's position within a share of the budget: proven;
//   3. the search, on each move's position with the rest of its share: an estimate at a depth
//      (or proven, when every line it saw ended or reached the tables).
// Scores are predicted final store differences for the side to move, in seeds, on one scale for
// every move (Analysis::margin says which): the game's own, or in Oware with tables the tables'
// count, where play goes on past a majority until the board is empty (solver/rules/README.md,
// "Oware values from the tables"). The sign of an exact score is the game's exact result; a move
// that ends the game also carries its real end (MoveAnalysis::final_score).
//
// Thread-safe for different calls (each call has its own search and solver); the tables may be
// shared by any number of calls at once.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "solver/rules/position.h"
#include "solver/rules/rules.h"
#include "solver/tables/exact_values.h"

namespace mancala::service {

enum class Provenance : uint8_t {
  Tables,    // exact: read from the endgame tables
  Proven,    // exact: proven by the solver, or by a search to the end of every line
  Estimate,  // a search's estimate at `depth`
};

// "tables", "proven", "estimate".
const char* provenance_name(Provenance provenance);

// What the scores of an analysis count.
enum class Margin : uint8_t {
  Game,         // the game's own final store difference
  TablesCount,  // Oware with tables: the tables' count, play going on past a majority until the
                // board is empty (beyond the tables a search's value may mix it with ends by a
                // majority); its sign is still the game's result
};

// "game", "tables".
const char* margin_name(Margin margin);

// What the endgame tables' values of `rules`' positions count: in Oware the tables' count (they
// play on past a majority), elsewhere the game's own margin.
Margin table_margin(const Rules& rules);
// What a score from the tables for playing `move` from `p` counts, as the Pro level reports it:
// the game's own margin when the move ends the game (its real end), else table_margin(rules).
Margin table_move_margin(const Rules& rules, const Position& p, Move move);

struct MoveAnalysis {
  Move move = 0;
  int score = 0;  // the mover's predicted final store difference
  Provenance provenance = Provenance::Estimate;
  int depth = 0;           // plies of the search behind an estimate (0 for exact values)
  std::vector<Move> line;  // from the position: this move first, then the expected reply...
  bool ends_game = false;  // the move ends the game (Oware: a majority reached, for one)
  int final_score = 0;     // with ends_game: the mover's final store difference, the game's own

  bool exact() const { return provenance != Provenance::Estimate; }
};

struct Analysis {
  std::vector<MoveAnalysis> moves;  // every legal move, best first, ties in house order
  bool from_tables = false;         // every value came from the tables
  Margin margin = Margin::Game;     // what every move's score counts
  int tables_max_seeds = -1;        // the tables used (-1: none)
  uint64_t failed_probes = 0;       // table probes that failed (damaged layers), searched instead
  uint64_t nodes = 0;               // searched and solved, all moves together
  double seconds = 0;               // the budget given (0 when the tables answered)
  bool abandoned = false;           // ended early by AnalysisLimits::abandoned: moves are missing

  const MoveAnalysis& best() const { return moves.front(); }
  // The moves of the best score, in the order of `moves`.
  std::vector<Move> best_moves() const;
};

// The deepest search an analysis accepts, in plies.
inline constexpr int kMaxAnalysisDepth = 200;

struct AnalysisLimits {
  // Each move searched to this depth (and solved within a fixed number of nodes): the same answer
  // on every machine. 0: by time instead.
  int depth = 0;
  double seconds = 2.0;  // for the whole analysis, when depth is 0
  // With a depth: the longest the whole analysis may take (0: no limit). A server sets it so that
  // no request holds a thread for long; when it stops a search, that move's depth says so.
  double max_seconds = 0;
  // Asked before each move is searched: true ends the analysis there, with the moves done so far
  // (a server's client has gone: nobody will read the answer, and the threads are wanted).
  std::function<bool()> abandoned;
};

// The position must not be over. `tables` may be null: the files of a database directory
// (db::TableValues), tables built in memory, any source of exact values.
Analysis analyse(const Rules& rules, const Position& position, const AnalysisLimits& limits,
                 const ExactValues* tables);

}  // namespace mancala::service
