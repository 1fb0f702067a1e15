// Fuzz target: puzzle library files (tools/service/puzzles.h). A library that reads must write
// back as the same text, and that text must read to the same library: nothing the reader accepts
// is lost or changed on the way.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tools/service/puzzles.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mancala::service;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const mancala::Expected<PuzzleLibrary> library = parse_library(text);
  if (!library) return 0;
  const std::string written = library_json(*library);
  const mancala::Expected<PuzzleLibrary> again = parse_library(written);
  if (!again || library_json(*again) != written) std::abort();
  return 0;
}
