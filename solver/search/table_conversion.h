// Realising a table value in Oware: which moves of a position inside the endgame tables keep its
// value *and* get there, given the game's history.
//
// Why: the tables value an endless cycle as 0, so a value that needs captures says only that the
// side to move can force them, not that every value-keeping move does. A player that plays any
// move of the best value may go round in a cycle among such moves until the third occurrence of
// a position shares the seeds (Oware 7), giving the promised value away. From
// 1-0-0-1-0-0-1-0-0-0-0-1-20-24-S the tables give South +4 (24-24), and random value-keeping
// play lost 22-26 that way.
//
// What is computed (Syzygy's distance to zeroing, on the fly): when the best value v is positive,
// every position reachable from the root by value-keeping moves that keep the seeds on the board
// (no capture, no end) is enumerated, breadth first, up to a ply and a node limit; then, backwards,
// the plies to *progress* (a value-keeping sowing that lowers the seeds on the board, or ends the
// game, by either side) when the side to move takes the shortest way and the opponent, among its
// value-keeping replies, the longest. The game's history counts: a position already seen twice
// since the last capture ends the game when entered (its seeds shared), so the side to move never
// enters one, and an opponent that can enter one does (sharing is worth 0 to it, more than its
// -v). Along the chosen line the distance falls at every move, so no position of it comes back.
//
// A move that makes a third occurrence is valued by the shared result (0 beyond the stores), so
// with a value of 0 or less the mover takes such a move when it is at least as good as the rest.
// When the whole reachable set is explored and no value-keeping move forces progress (the history
// blocks every way), those moves are worth the shared result and the next best value is tried.
// When the limits cut the search short, the value-keeping moves the opponent cannot answer with an
// immediate repetition are kept (those into the least-seen positions first): the next move
// searches again, one ply nearer.
//
// Moves are valued on the tables' count (probe_tables_count), the scale every answer ranks moves
// by: a move that reaches an Oware majority is valued like the others, its count, not its real
// end, so that Pro plays a move the analysis puts first (solver/rules/README.md, "Oware values
// from the tables").
//
// Kalah and Congkak cannot repeat a position: for them this is the plain best-value set.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "solver/rules/game.h"
#include "solver/tables/exact_values.h"

namespace mancala {

struct ConversionLimits {
  // Positions enumerated per value tried, each costing a table probe per legal move: about 1 us
  // a position over tables in memory, 2-3 us over table files, so at most about 3 ms a move
  // (docs/levels.md, "Converting a table value in Oware"). Cut short, the next move searches again
  // from nearer; in play the limit changed no result (500, 1 000, 2 000 and 8 000 alike).
  uint64_t max_nodes = 1000;
  int max_plies = 60;  // plies from the root explored
};

struct TableConversion {
  std::vector<Move> moves;  // the moves to choose among, in house order (never empty)
  // What these moves realise beyond the present stores, for the side to move, by the tables'
  // count (as probe_tables_count's value; it is 0 when they only share the seeds by repetition).
  int value = 0;
  int table_value = 0;   // the tables' value of the position, repetition aside
  int plies = 0;         // with `proven`: plies to progress against the most delaying defence
  bool proven = false;   // the moves force progress within `plies` (false: none was needed, or
                         // the limits cut the search short)
  bool complete = true;  // no search was cut short by the limits
  uint64_t nodes = 0;    // positions enumerated
};

// The moves that realise the tables' promise from the game's position; nullopt when the position
// is outside the tables or a probe fails. The game must not be over.
std::optional<TableConversion> converting_moves(const Game& game, const ExactValues& tables,
                                                const ConversionLimits& limits = {});

}  // namespace mancala
