// A hash of the houses and the side to move, for the searches' transposition tables. Stores are
// not part of it: both tables keep scores without the stores ("futures"), so that a position
// reached with other stores still hits.
//
// Why this shape: the searches hash every child of every node, and a multiply per house in one
// dependent chain cost 5-9% of a solve. Here the houses are read as whole words, the stores
// masked out, and independent multiplies combine them. The constants have bits set in every
// 16-bit lane, so no board's words cancel them. It is inline, and reads a position's slots or a
// board's lanes alike (the same 26 counts in the same order), so that the solver, which works on
// boards, hashes a child without a call and without making a Position of it.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>

#include "solver/rules/moves.h"
#include "solver/rules/position.h"
#include "solver/util/random.h"

namespace mancala {

namespace detail {

// The lanes of Position::slots that hold houses, for h houses a side, as masks over the slots
// read as six 64-bit words and one 32-bit tail (the stores are cleared: they are not hashed).
struct HouseWordMasks {
  std::array<std::array<uint64_t, 7>, kMaxHouses + 1> masks{};
};

constexpr HouseWordMasks make_house_word_masks() {
  HouseWordMasks t{};
  for (int h = 1; h <= kMaxHouses; ++h)
    for (int slot = 0; slot < 2 * h + 1; ++slot)
      if (slot != h)
        t.masks[h][static_cast<size_t>(slot / 4)] |= uint64_t{0xFFFF} << (16 * (slot % 4));
  return t;
}

inline constexpr HouseWordMasks kHouseWordMasks = make_house_word_masks();

// Folded 64 x 64 -> 128-bit multiply: every input bit reaches most output bits in one step.
inline uint64_t fold_multiply(uint64_t a, uint64_t b) {
  __extension__ using Wide = unsigned __int128;
  const Wide r = static_cast<Wide>(a) * b;
  return static_cast<uint64_t>(r) ^ static_cast<uint64_t>(r >> 64);
}

// The hash of the 26 slot counts at `slots` (Position::slots, or a Board's first lanes).
inline uint64_t hash_slots(const uint16_t* slots, int houses, Side side) {
  std::array<uint64_t, 7> w{};
  std::memcpy(w.data(), slots, kMaxSlots * sizeof(uint16_t));
  const std::array<uint64_t, 7>& m = kHouseWordMasks.masks[static_cast<size_t>(houses)];
  for (size_t i = 0; i < 7; ++i) w[i] &= m[i];
  const uint64_t a = fold_multiply(w[0] ^ 0x9E3779B97F4A7C15ull, w[1] ^ 0xC2B2AE3D27D4EB4Full);
  const uint64_t b = fold_multiply(w[2] ^ 0x165667B19E3779F9ull, w[3] ^ 0xD6E8FEB86659FD93ull);
  const uint64_t c =
      fold_multiply(w[4] ^ 0xA0761D6478BD642Full, (w[5] ^ 0xE7037ED1A0B428DBull) + w[6]);
  const uint64_t s = static_cast<uint64_t>(side) + 0x51ED27u * static_cast<uint64_t>(houses);
  return splitmix64_mix(a ^
                        fold_multiply(b ^ 0x8EBC6AF09C88C6E3ull, c ^ s ^ 0x589965CC75374CC3ull));
}

}  // namespace detail

inline uint64_t position_hash(const Position& position) {
  static_assert(sizeof(position.slots) == kMaxSlots * sizeof(uint16_t), "six words and a tail");
  return detail::hash_slots(position.slots.data(), position.houses, position.side_to_move);
}

// The same hash, of a position held in a board (moves.h).
inline uint64_t position_hash(const detail::Board& board) {
  return detail::hash_slots(board.lane.data(), board.houses(), board.side_to_move());
}

}  // namespace mancala
