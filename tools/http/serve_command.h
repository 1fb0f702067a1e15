// `mancala serve`: the web board and the JSON API over HTTP.
#pragma once

#include <CLI/CLI.hpp>

namespace mancala::http {

void add_serve_command(CLI::App& app);

}  // namespace mancala::http
