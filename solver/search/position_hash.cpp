#include "solver/search/position_hash.h"

#include <array>
#include <cstring>

#include "solver/rules/random.h"

namespace mancala {

namespace {

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

constexpr HouseWordMasks kHouseWordMasks = make_house_word_masks();

__extension__ using Wide = unsigned __int128;

// Folded 64 x 64 -> 128-bit multiply: every input bit reaches most output bits in one step.
inline uint64_t fold_multiply(uint64_t a, uint64_t b) {
  const Wide r = static_cast<Wide>(a) * b;
  return static_cast<uint64_t>(r) ^ static_cast<uint64_t>(r >> 64);
}

}  // namespace

// Why this shape: the searches hash every child of every node, and a multiply per house in one
// dependent chain cost 5-9% of a solve. Here the houses are read as whole words, the stores
// masked out, and independent multiplies combine them. The constants have bits set in every
// 16-bit lane, so no board's words cancel them.
uint64_t position_hash(const Position& p) {
  static_assert(sizeof(p.slots) == 52, "six words and a 32-bit tail");
  std::array<uint64_t, 7> w{};
  std::memcpy(w.data(), p.slots.data(), sizeof p.slots);
  const std::array<uint64_t, 7>& m = kHouseWordMasks.masks[p.houses];
  for (size_t i = 0; i < 7; ++i) w[i] &= m[i];
  const uint64_t a = fold_multiply(w[0] ^ 0x9E3779B97F4A7C15ull, w[1] ^ 0xC2B2AE3D27D4EB4Full);
  const uint64_t b = fold_multiply(w[2] ^ 0x165667B19E3779F9ull, w[3] ^ 0xD6E8FEB86659FD93ull);
  const uint64_t c =
      fold_multiply(w[4] ^ 0xA0761D6478BD642Full, (w[5] ^ 0xE7037ED1A0B428DBull) + w[6]);
  const uint64_t side = static_cast<uint64_t>(p.side_to_move) + 0x51ED27u * p.houses;
  return splitmix64_mix(a ^
                        fold_multiply(b ^ 0x8EBC6AF09C88C6E3ull, c ^ side ^ 0x589965CC75374CC3ull));
}

}  // namespace mancala
