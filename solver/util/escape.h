// Text from outside (a path, a GAME string, a tag) shown in a message.
#pragma once

#include <string>
#include <string_view>

namespace mancala {

// `text` with every control byte (below 0x20, and 0x7f) written as \xNN: a message showing it
// stays on its line (a line feed in a path cannot forge a second one), drives no terminal, and is
// not cut short at a NUL by C or Python.
std::string escape_control_bytes(std::string_view text);

}  // namespace mancala
