#include "solver/rules/position.h"

#include <charconv>
#include <vector>

namespace mancala {

Position start_position(const Rules& rules) {
  Position position;
  position.houses = rules.houses;
  for (Side side : {Side::South, Side::North})
    for (int i = 0; i < rules.houses; ++i)
      position.slots[position.house_slot(side, i)] = rules.seeds;
  return position;
}

std::string to_string(const Position& position) {
  std::string out;
  auto add = [&](int value) {
    out += std::to_string(value);
    out += '-';
  };
  for (Side side : {Side::South, Side::North})
    for (int i = 0; i < position.houses; ++i) add(position.house(side, i));
  add(position.store(Side::South));
  add(position.store(Side::North));
  out += position.side_to_move == Side::South ? 'S' : 'N';
  return out;
}

namespace {

std::string field_name(int field, int houses) {
  if (field < houses) return std::string("house ") + static_cast<char>('A' + field);
  if (field < 2 * houses) return std::string("house ") + static_cast<char>('a' + field - houses);
  if (field == 2 * houses) return "South's store";
  if (field == 2 * houses + 1) return "North's store";
  return "extra field";
}

}  // namespace

Expected<Position> parse_position(const Rules& rules, std::string_view text) {
  // '-' separates fields and also signs a negative count: "4--3" is 4 then -3. A separator
  // followed by another '-' therefore starts a signed field, so the error can name it.
  std::vector<std::string_view> fields;
  size_t start = 0;
  while (true) {
    size_t search = start;
    if (start < text.size() && text[start] == '-' && start > 0) ++search;
    size_t end = text.find('-', search);
    fields.push_back(text.substr(start, end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  const int h = rules.houses;
  const size_t expected_fields = static_cast<size_t>(2 * h + 3);
  auto field_error = [&](size_t field, const std::string& what) {
    return Error{"position '" + std::string(text) + "': field " + std::to_string(field + 1) + " (" +
                 field_name(static_cast<int>(field), h) + "): " + what};
  };
  // Counts first: a non-number or a negative count is named even when it also upsets the
  // field count (a negative sign is itself a '-').
  std::vector<int> counts;
  for (size_t field = 0; field + 1 < fields.size(); ++field) {
    std::string_view f = fields[field];
    int value = 0;
    const char* end = f.data() + f.size();
    auto [ptr, ec] = std::from_chars(f.data(), end, value);
    if (f.empty()) return field_error(field, "empty field");
    if (ec != std::errc() || ptr != end)
      return field_error(field, "'" + std::string(f) + "' is not a number");
    if (value < 0) return field_error(field, "negative count " + std::to_string(value));
    counts.push_back(value);
  }
  if (fields.size() != expected_fields) {
    return Error{"position '" + std::string(text) + "': expected " +
                 std::to_string(expected_fields) + " fields (" + std::to_string(2 * h) +
                 " houses, 2 stores, side to move) for " + rules.name() + ", got " +
                 std::to_string(fields.size())};
  }
  Position position;
  position.houses = static_cast<uint8_t>(h);
  int total = 0;
  for (size_t field = 0; field < counts.size(); ++field) {
    const int value = counts[field];
    if (value > rules.total_seeds())
      return field_error(field, "count " + std::to_string(value) + " is out of range");
    const int f = static_cast<int>(field);
    const int slot = f < 2 * h ? (f < h ? f : f + 1) : (f == 2 * h ? h : 2 * h + 1);
    position.slots[static_cast<size_t>(slot)] = static_cast<uint16_t>(value);
    total += value;
  }
  if (total != rules.total_seeds()) {
    return Error{"position '" + std::string(text) + "': seed total is " + std::to_string(total) +
                 " but " + rules.name() + " has " + std::to_string(rules.total_seeds())};
  }
  std::string_view side = fields.back();
  if (side == "S")
    position.side_to_move = Side::South;
  else if (side == "N")
    position.side_to_move = Side::North;
  else {
    return Error{"position '" + std::string(text) + "': field " + std::to_string(expected_fields) +
                 " (side to move): '" + std::string(side) + "' is not S or N"};
  }
  return position;
}

char move_letter(Side mover, Move move) {
  return static_cast<char>((mover == Side::South ? 'A' : 'a') + move);
}

Expected<Move> parse_move_letter(const Position& position, std::string_view text) {
  const int h = position.houses;
  const Side mover = position.side_to_move;
  if (text.size() != 1) return Error{"'" + std::string(text) + "' is not a move letter"};
  char c = text[0];
  bool upper = c >= 'A' && c < 'A' + h;
  bool lower = c >= 'a' && c < 'a' + h;
  if (!upper && !lower) {
    return Error{"'" + std::string(text) + "' is not a house: houses are A-" +
                 std::string(1, static_cast<char>('A' + h - 1)) + " (South) and a-" +
                 std::string(1, static_cast<char>('a' + h - 1)) + " (North)"};
  }
  if (upper != (mover == Side::South)) {
    return Error{"'" + std::string(text) + "' is a " + (upper ? "South" : "North") + " house but " +
                 (mover == Side::South ? "South" : "North") + " is to move"};
  }
  return static_cast<Move>(upper ? c - 'A' : c - 'a');
}

}  // namespace mancala
