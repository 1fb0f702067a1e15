// The `mancala` command: every door's subcommands on one command line, through the one error path
// of tools/command_line/command_line.h. (CLI11 is only declared here: main() compiles without it.)
#pragma once

namespace CLI {
class App;
}

namespace mancala {

namespace command_line {
enum class CommandMode;  // tools/command_line/command_line.h
}

// Every subcommand on `app`.
void add_commands(CLI::App& app);
// `mancala ARGS...`: parses and runs the chosen subcommand; returns the exit status (0, 1 or 2),
// having printed any error as "mancala: error: ...". With CommandMode::ParseOnly it parses and
// checks only.
int run_command_line(int argc, const char* const* argv);
int run_command_line(int argc, const char* const* argv, command_line::CommandMode mode);

}  // namespace mancala
