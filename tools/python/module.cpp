// The Python module `mancala`: its definition, which gathers the parts (bindings.h).
#include <pybind11/pybind11.h>

#include "mancala_version.h"
#include "tools/python/bindings.h"

PYBIND11_MODULE(mancala, m) {
  namespace mp = mancala::python;
  m.doc() =
      "Kalah, Oware and Congkak: rules, positions, perft, game records, endgame tables, search,\n"
      "whole-game solving and the computer levels 1-6 of the mancala library.\n\n"
      "Games are GAME strings (\"kalah:6:4\", \"oware:4:awari\", \"congkak:7:7\"), positions are\n"
      "position strings (\"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\"), moves are house letters (A.. for\n"
      "South, a.. for North). Bad input raises ValueError with the library's message; table\n"
      "failures raise mancala.TablesError. Long calls (perft, search, solve, table builds,\n"
      "computer moves) release the GIL, so threads can run them in parallel.";
  m.attr("__version__") = std::string(mancala::kVersion);
  pybind11::register_exception<mp::TablesFailure>(m, "TablesError");
  m.attr("TablesError").attr("__doc__") =
      "The endgame tables failed: none built for the game, a position outside them, or a "
      "missing or corrupt layer. The message says which.";
  mp::add_games(m);
  mp::add_tables(m);
  mp::add_searches(m);
}
