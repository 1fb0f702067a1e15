// mancala: one command with subcommands; `mancala SUBCOMMAND --help` describes each. Every
// subcommand is registered in add_commands, and every error, CLI11's parse errors included, goes
// through run_command_line's one path (tools/command_line/command_line.h).
#include "tools/mancala_command.h"

int main(int argc, char** argv) {
  return mancala::run_command_line(argc, argv);
}
