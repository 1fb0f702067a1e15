// Helpers shared by the rules tests: exact boards from position strings, and one move played
// by its letter, with the whole resulting position and what the move did.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "solver/rules/moves.h"
#include "solver/rules/position.h"
#include "solver/rules/rules.h"

namespace mancala::testing_helpers {

inline Rules rules_of(std::string_view game) {
  Expected<Rules> rules = parse_rules(game);
  EXPECT_TRUE(rules.ok()) << game << ": " << (rules.ok() ? "" : rules.error());
  return rules.ok() ? rules.value() : Rules{};
}

inline Position pos(const Rules& rules, std::string_view text) {
  Expected<Position> p = parse_position(rules, text);
  EXPECT_TRUE(p.ok()) << text << ": " << (p.ok() ? "" : p.error());
  return p.ok() ? p.value() : start_position(rules);
}

inline Move house_of(char letter) {
  return static_cast<Move>(letter >= 'a' ? letter - 'a' : letter - 'A');
}

// The legal moves as letters of the side to move, e.g. "ABC".
inline std::string legal(const Rules& rules, std::string_view text) {
  const Position p = pos(rules, text);
  std::string out;
  for (Move m : generate_moves(rules, p)) out += move_letter(p.side_to_move, m);
  return out;
}

struct Played {
  std::string position;
  MoveEffect effect;
};

// Plays one legal move (by letter) on the position string and returns the resulting string;
// checks that seeds are conserved and that no sowing was cut short.
inline Played play(const Rules& rules, std::string_view text, char letter) {
  const Position p = pos(rules, text);
  EXPECT_TRUE(generate_moves(rules, p).contains(house_of(letter)))
      << letter << " is not legal in " << text;
  Played out;
  const Position q = apply_move(rules, p, house_of(letter), &out.effect);
  EXPECT_EQ(q.seeds_total(), rules.total_seeds()) << "seeds not conserved";
  EXPECT_FALSE(
      out.effect.endless);  // solver/rules/README.md, Congkak 4: a relay sowing always ends
  out.position = to_string(q);
  return out;
}

}  // namespace mancala::testing_helpers
