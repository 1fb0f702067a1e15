// The Python module `mancala`: what its parts share. The module is a thin layer over the library:
// it turns Python values into library values (with the library's error messages), releases the
// GIL around long calls, and turns results into small Python objects.
#pragma once

#include <pybind11/pybind11.h>

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "solver/rules/moves.h"
#include "solver/rules/position.h"
#include "solver/rules/rules.h"

namespace mancala::python {

namespace py = pybind11;

// A failure of the endgame tables (none built, a position outside them, a missing or corrupt
// layer): raised in Python as mancala.TablesError.
struct TablesFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A position as Python sees it. `counts` holds the 2h house counts contiguously (the position
// keeps South's store between the two rows), for the buffer protocol: numpy.asarray(position) is
// an int32 array of the houses in sowing order, South's A.. then North's a...
struct PositionObject {
  Position position;
  std::array<int32_t, 2 * kMaxHouses> counts{};

  explicit PositionObject(const Position& p);
  int house_count() const { return 2 * position.houses; }
};

// Every str argument reaches the library through one of these two. C++ and the file system read
// a string only up to a NUL byte (a directory "DIR\0/x" would be opened as DIR, a message would
// end there), so a str holding one is a ValueError, whose message names the argument (`what`)
// and shows the str with the NUL escaped (service::quoted). A path must also not be empty and
// at most service::kMaxPathBytes long: the checks of every door (service::check_path).
const std::string& text_argument(const std::string& text, std::string_view what);
const std::string& path_argument(const std::string& path, std::string_view what);

// The game of an argument: a mancala.Game or a GAME string ("kalah:6:4").
Rules rules_argument(py::handle game);
// A position of `rules`: a mancala.Position or a position string. A Position of another game (other
// houses or seed total) is a ValueError.
Position position_argument(const Rules& rules, py::handle position);
// A legal move of `position`: a house letter ("C", "b") or the mover's house index (0..h-1).
Move move_argument(const Rules& rules, const Position& position, py::handle move);
// The letters of a line of moves played from `from` (each letter names the side that moved).
std::vector<std::string> move_letters(const Rules& rules, const Position& from,
                                      const std::vector<Move>& line);
std::string letter(Side mover, Move move);

// The parts of the module, one file each.
void add_games(py::module_& m);     // games.cpp: Game, Position, Match, records, perft
void add_tables(py::module_& m);    // tables.cpp: Tables, build_tables
void add_searches(py::module_& m);  // searches.cpp: Search, solve, Player

}  // namespace mancala::python
