// `mancala engine`: the engine protocol of the Aualé board on standard input and output.
#pragma once

#include <CLI/CLI.hpp>

namespace mancala::engine {

void add_engine_command(CLI::App& app);

}  // namespace mancala::engine
