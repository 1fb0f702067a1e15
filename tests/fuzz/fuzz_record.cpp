// Fuzz target: game records, native and Aualé .ogn. A record that reads must write back as a
// record that reads to the same game.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "solver/rules/record.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mancala;
  Expected<GameRecord> record =
      read_record(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!record) return 0;
  const Game& game = record->game;
  const Expected<std::string> text = write_record(game, {});
  if (!text) std::abort();
  Expected<GameRecord> again = read_record(*text);
  if (!again || !(again->game.rules() == game.rules()) || again->game.start() != game.start() ||
      again->game.moves() != game.moves())
    std::abort();
  return 0;
}
