// Fuzz target: the line reader of `mancala engine` (and `play`) and the escaping of what the
// engine echoes. Each line read is the input's text up to its newline, cut at the cap (the rest
// of a longer line skipped and said so), every line of the input is read, and the echo of a line
// is one line without a control byte.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

#include "tools/command_line/command_line.h"

namespace {

void check_lines(std::string_view input, size_t max_bytes) {
  std::istringstream in{std::string(input)};
  std::string line;
  bool too_long = false;
  size_t from = 0;  // where the line being read starts in the input
  while (mancala::command_line::read_bounded_line(in, line, too_long, max_bytes)) {
    if (from >= input.size()) std::abort();  // a line read past the end
    const size_t newline = input.find('\n', from);
    const std::string_view expected =
        input.substr(from, (newline == std::string_view::npos ? input.size() : newline) - from);
    if (line != expected.substr(0, max_bytes) || too_long != (expected.size() > max_bytes))
      std::abort();
    for (const char c : mancala::command_line::printable_line(line))
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) std::abort();
    from = newline == std::string_view::npos ? input.size() : newline + 1;
  }
  if (from != input.size()) std::abort();  // a line left unread
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  check_lines(input, mancala::command_line::kMaxInputLine);
  check_lines(input, 16);  // a small cap, which inputs of a few hundred bytes do cross
  return 0;
}
