// A whole-game solve's own choices, made once for the doors that solve: which layers of the
// endgame tables to build before searching (`mancala solve`, Python's solve and solve_each_move),
// and the size of the transposition table when the caller names none (`mancala solve`; Python's
// functions have a default of their own, 64 MB), and the memory a solve over disk tables needs.
// Prints nothing; each door words its own messages and builds the layers with its own progress
// report (docs/solving.md, "Solving from nothing").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "solver/rules/position.h"
#include "solver/rules/rules.h"

namespace mancala {
class Solver;
namespace db {
class DecodedTableValues;
}
}  // namespace mancala

namespace mancala::service {

// The transposition table of a solve unless its caller asks for a size: the size that is fastest
// for the job. 256 MB for a large search (Kalah(6,4) without tables, 68-208 M nodes; any Oware
// solve, exponential above its tables); kTranspositionMegabytesOverBuiltTables
// (solver/tables/built_tables.h) over tables built in memory for the solve; and
// kSmallSolveTranspositionMegabytes for a Kalah or Congkak position of at most
// kSmallSolveSeedsTimesHouses seeds on the board times houses a side (Kalah(6,3), (5,4), (4,6)
// and everything smaller: at most 7.4 M nodes, as few with 16 MB as with 256 MB but for 15% on
// Kalah(4,6)). A table's pages cost their first touch, and a small search touches them all:
// where the memory comes fresh from a virtual machine's host (2 MB in about 17 ms), 256 MB took
// 1-5 s more of such a solve than 16 MB (Kalah(4,6): 6.9 s against 2.0 s).
inline constexpr size_t kSolveTranspositionMegabytes = 256;
inline constexpr size_t kSmallSolveTranspositionMegabytes = 16;
inline constexpr int kSmallSolveSeedsTimesHouses = 216;
size_t solve_transposition_megabytes(std::optional<size_t> asked, bool over_built_tables,
                                     const Rules& rules, const Position& position);

// The deepest layer to build before solving `position` when the tables at hand stop at
// `tables_max_seeds` (-1: none): `asked` when given (-1: none), else as many as pay for
// themselves (seeds_worth_building); -1 when nothing is to be built: the tables at hand reach as
// deep, or the game has no tables (Congkak; more than six houses a side).
int seeds_to_build_before_solving(const Rules& rules, const Position& position,
                                  int tables_max_seeds, std::optional<int> asked);

// What a solve over tables read from disk keeps in memory to run at its speed: the layers decoded
// into memory (their whole planned size), the files of the layers probed in place (their pages in
// the page cache: a probe that waits on the disk costs hundreds of one that does not), and the
// transposition table. More than the machine's memory, and the solve runs many times slower
// (docs/solving.md: 53 k nodes a second instead of 1.7 M over the 0..34 Kalah tables); the doors
// that solve say so before they start.
struct SolveMemory {
  uint64_t decoded_tables = 0;
  uint64_t table_files = 0;
  uint64_t transposition = 0;
  uint64_t total() const { return decoded_tables + table_files + transposition; }
};
SolveMemory solve_memory(const db::DecodedTableValues& tables, const Solver& solver);

}  // namespace mancala::service
