// The `mancala` command: every door's subcommands on one command line, through the one error path
// of tools/command_line/cli.h.
#pragma once

#include "tools/command_line/cli.h"

namespace mancala::cli {

// Every subcommand on `app`.
void add_commands(CLI::App& app);
// `mancala ARGS...`: parses and runs the chosen subcommand; returns the exit status (0, 1 or 2),
// having printed any error as "mancala: error: ...".
int run_command_line(int argc, const char* const* argv, CommandMode mode = CommandMode::Execute);

}  // namespace mancala::cli
