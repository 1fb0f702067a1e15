// A whole-game solve's own choices, made once for every door that solves (`mancala solve`,
// Python's mancala.solve): which layers of the endgame tables to build before searching, and the
// size of the transposition table. Prints nothing; each door words its own messages and builds
// the layers with its own progress report (docs/solving.md, "Solving from nothing").
#pragma once

#include <cstddef>
#include <optional>

#include "solver/rules/position.h"
#include "solver/rules/rules.h"

namespace mancala::service {

// The transposition table of a solve unless its caller asks for a size: 256 MB, or
// kTranspositionMegabytesOverBuiltTables (solver/tables/built_tables.h) over tables built in
// memory for the solve, where the search is small and a larger table costs more in page faults
// than it saves.
inline constexpr size_t kSolveTranspositionMegabytes = 256;
size_t solve_transposition_megabytes(std::optional<size_t> asked, bool over_built_tables);

// The deepest layer to build before solving `position` when the tables at hand stop at
// `tables_max_seeds` (-1: none): `asked` when given (-1: none), else as many as pay for
// themselves (seeds_worth_building); -1 when nothing is to be built: the tables at hand reach as
// deep, or the game has no tables (Congkak; more than six houses a side).
int seeds_to_build_before_solving(const Rules& rules, const Position& position,
                                  int tables_max_seeds, std::optional<int> asked);

}  // namespace mancala::service
