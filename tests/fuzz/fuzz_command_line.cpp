// Fuzz target: the command line's parsing and checking, in-process and without running any
// command (CommandMode::ParseOnly). The input is the arguments, separated by NUL bytes. Every
// input must end in exit status 0 (parsed) or 2 (bad input), through the one error path; an
// exception that escapes it, a crash or a sanitizer report is a bug. (Run it with
// -close_fd_mask=3, as scripts/fuzz.sh does: help and error text would flood the output.)
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "tools/command_line/command_line.h"
#include "tools/mancala_command.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args = {"mancala"};
  std::string current;
  for (size_t i = 0; i < size && args.size() < 32; ++i) {
    if (data[i] == 0) {
      args.push_back(current);
      current.clear();
    } else {
      current += static_cast<char>(data[i]);
    }
  }
  if (!current.empty() && args.size() < 32) args.push_back(current);
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  const int status = mancala::run_command_line(static_cast<int>(argv.size()), argv.data(),
                                               mancala::command_line::CommandMode::ParseOnly);
  if (status != 0 && status != 2) std::abort();
  return 0;
}
