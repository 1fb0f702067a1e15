// A compact fixed-size position: the seeds of every slot and the side to move. Copying one is
// a 54-byte memcpy, so the move path never touches the heap.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "solver/rules/rules.h"
#include "solver/util/expected.h"

namespace mancala {

enum class Side : uint8_t { South = 0, North = 1 };

inline constexpr Side opponent(Side side) {
  return side == Side::South ? Side::North : Side::South;
}
inline constexpr int index(Side side) {
  return static_cast<int>(side);
}
inline constexpr const char* side_name(Side side) {
  return side == Side::South ? "South" : "North";
}

inline constexpr int kMaxSlots = 2 * kMaxHouses + 2;

// Layout of `slots`, in sowing order round the ring, for h houses a side:
//
//   index:  0 .. h-1        h             h+1 .. 2h       2h+1          2h+2 .. 25
//   slot:   South A..       South store   North a..       North store   always 0
//
// House slot x faces house slot 2h - x. Counts are 16-bit because Kalah(12,12) holds 288
// seeds and a store (or, in principle, one house) can hold all of them.
struct Position {
  std::array<uint16_t, kMaxSlots> slots{};
  uint8_t houses = 0;  // h, so that a position can be printed and indexed on its own
  Side side_to_move = Side::South;

  int first_house(Side side) const { return side == Side::South ? 0 : houses + 1; }
  int store_slot(Side side) const { return side == Side::South ? houses : 2 * houses + 1; }
  int house_slot(Side side, int house) const { return first_house(side) + house; }
  int opposite_slot(int house_slot) const { return 2 * houses - house_slot; }

  uint16_t house(Side side, int house) const { return slots[house_slot(side, house)]; }
  uint16_t store(Side side) const { return slots[store_slot(side)]; }
  int seeds_in_houses(Side side) const {
    int sum = 0;
    for (int i = 0, base = first_house(side); i < houses; ++i) sum += slots[base + i];
    return sum;
  }
  // Seeds still in play (in the houses of both sides).
  int seeds_on_board() const { return seeds_in_houses(Side::South) + seeds_in_houses(Side::North); }
  // The side to move's store minus the opponent's.
  int mover_lead() const { return store(side_to_move) - store(opponent(side_to_move)); }
  int seeds_total() const {
    int sum = 0;
    for (int i = 0; i < 2 * houses + 2; ++i) sum += slots[i];
    return sum;
  }

  friend bool operator==(const Position&, const Position&) = default;
};
static_assert(sizeof(Position) == 54, "26 slots of 16 bits, the house count and the side");

// What a move from `before` to `after` added to the mover's store minus what it added to the
// opponent's (the mover is the side to move in `before`).
inline int store_gain(const Position& before, const Position& after) {
  const Side mover = before.side_to_move;
  return (after.store(mover) - before.store(mover)) -
         (after.store(opponent(mover)) - before.store(opponent(mover)));
}

// The start position of a game: n seeds in every house, empty stores, South to move.
Position start_position(const Rules& rules);

// Position string (solver/rules/README.md, "Notation"): the 2h house counts in sowing order,
// South's store, North's store, and S or N, separated by '-'. Example:
// 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S.
std::string to_string(const Position& position);

// Parses a position string for the given game. Errors name the bad field: wrong field count,
// a non-number, a negative count, a seed total other than the game's, a side other than S/N.
Expected<Position> parse_position(const Rules& rules, std::string_view text);

// A move is the mover's house index 0..h-1. Its letter is South's 'A'+i or North's 'a'+i.
using Move = uint8_t;
char move_letter(Side mover, Move move);
// Parses one move letter for the side to move; errors say what was wrong with it.
Expected<Move> parse_move_letter(const Position& position, std::string_view text);

}  // namespace mancala
