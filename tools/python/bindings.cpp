// The argument conversions and helpers every part of the Python module uses (bindings.h).
#include "tools/python/bindings.h"

#include "tools/service/move_text.h"
#include "tools/service/validation.h"

namespace mancala::python {

PositionObject::PositionObject(const Position& p) : position(p) {
  for (int i = 0; i < p.houses; ++i) {
    counts[static_cast<size_t>(i)] = p.house(Side::South, i);
    counts[static_cast<size_t>(p.houses + i)] = p.house(Side::North, i);
  }
}

namespace {

const std::string& checked_or_raise(const Expected<std::string>& checked, const std::string& text,
                                    std::string_view what) {
  if (!checked)
    throw py::value_error(std::string(what) + " " + service::quoted(text) + ": " + checked.error());
  return text;
}

}  // namespace

const std::string& text_argument(const std::string& text, std::string_view what) {
  return checked_or_raise(service::check_text(text, text.size()), text, what);
}

const std::string& path_argument(const std::string& path, std::string_view what) {
  return checked_or_raise(service::check_path(path), path, what);
}

Rules rules_argument(py::handle game) {
  if (py::isinstance<Rules>(game)) return game.cast<Rules>();
  if (!py::isinstance<py::str>(game))
    throw py::type_error("a game is a mancala.Game or a GAME string such as \"kalah:6:4\"");
  const std::string text = game.cast<std::string>();
  const Expected<Rules> rules = parse_rules(text_argument(text, "GAME"));
  if (!rules) throw py::value_error(rules.error());
  return *rules;
}

Position position_argument(const Rules& rules, py::handle position) {
  if (py::isinstance<py::str>(position)) {
    const std::string text = position.cast<std::string>();
    const Expected<Position> p = parse_position(rules, text_argument(text, "position"));
    if (!p) throw py::value_error(p.error());
    return *p;
  }
  if (!py::isinstance<PositionObject>(position))
    throw py::type_error("a position is a mancala.Position or a position string");
  const Position& p = position.cast<const PositionObject&>().position;
  if (p.houses != rules.houses || p.seeds_total() != rules.total_seeds())
    throw py::value_error("position " + to_string(p) + " (" + std::to_string(p.houses) +
                          " houses a side, " + std::to_string(p.seeds_total()) +
                          " seeds) is not a position of " + rules.name() + " (" +
                          std::to_string(rules.houses) + " houses a side, " +
                          std::to_string(rules.total_seeds()) + " seeds)");
  return p;
}

std::string letter(Side mover, Move move) {
  return std::string(1, move_letter(mover, move));
}

Move move_argument(const Rules& rules, const Position& position, py::handle move) {
  const MoveList legal = generate_moves(rules, position);
  std::string text;
  Move m = 0;
  if (py::isinstance<py::str>(move)) {
    text = text_argument(move.cast<std::string>(), "move");
    const Expected<Move> parsed = parse_move_letter(position, text);
    if (!parsed)
      throw py::value_error(parsed.error() +
                            "; legal moves: " + service::legal_moves_text(rules, position));
    m = *parsed;
  } else if (py::isinstance<py::int_>(move) && !py::isinstance<py::bool_>(move)) {
    const long index = move.cast<long>();
    if (index < 0 || index >= position.houses)
      throw py::value_error("house index " + std::to_string(index) + " is not from 0 to " +
                            std::to_string(position.houses - 1));
    m = static_cast<Move>(index);
    text = letter(position.side_to_move, m);
  } else {
    throw py::type_error("a move is a house letter (\"C\", \"b\") or the mover's house index");
  }
  if (!legal.contains(m))
    throw py::value_error("move '" + text + "' is illegal in " + to_string(position) +
                          "; legal moves: " + service::legal_moves_text(rules, position));
  return m;
}

std::vector<std::string> move_letters(const Rules& rules, const Position& from,
                                      const std::vector<Move>& line) {
  return service::line_letters(rules, from, line);
}

}  // namespace mancala::python
