// Fuzz target: GAME strings, table names, position strings and move letters. The input's first
// line is a GAME string, the rest a position string; whatever parses must print back to itself,
// and every legal move must apply.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "solver/rules/moves.h"
#include "solver/rules/position.h"
#include "solver/rules/rules.h"

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mancala;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t newline = input.find('\n');
  const std::string_view game = input.substr(0, newline);
  const std::string_view text = newline == std::string_view::npos ? "" : input.substr(newline + 1);
  (void)parse_table_name(game);
  Expected<Rules> rules = parse_rules(game);
  if (!rules) return 0;
  check(parse_rules(rules->name()).ok());
  Expected<Position> position = parse_position(*rules, text);
  if (!position) return 0;
  // What parses prints back as a string that parses to the same position.
  Expected<Position> again = parse_position(*rules, to_string(*position));
  check(again.ok() && *again == *position);
  for (char letter : text.substr(0, 4)) (void)parse_move_letter(*position, std::string(1, letter));
  const MoveList moves = generate_moves(*rules, *position);
  for (Move move : moves) (void)apply_move(*rules, *position, move);
  return 0;
}
