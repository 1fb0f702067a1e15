// The SIMD lane layer: 32 lanes of 16 bits, one AVX-512 register, two AVX2 registers, or (with
// neither) a plain array that compilers vectorise where they can. It knows nothing of mancala: the
// rules engine (moves.h) keeps a board in these lanes. Every lane mask is a uint32_t with bit i
// for lane i; comparisons are unsigned.
#pragma once

#include <array>
#include <cstdint>

#if defined(__AVX512BW__) || defined(__AVX2__)
#include <immintrin.h>
#endif

namespace mancala::lanes {

inline constexpr int kLaneCount = 32;

// The lanes in memory: one 64-byte cache line.
struct alignas(64) Block {
  std::array<uint16_t, kLaneCount> lane{};
};

#if defined(__AVX512BW__)

using Vec = __m512i;

inline Vec load(const Block& b) {
  return _mm512_load_si512(b.lane.data());
}
inline Block store(Vec v) {
  Block b;
  _mm512_store_si512(b.lane.data(), v);
  return b;
}
inline uint32_t nonzero_mask(Vec v) {
  return _mm512_test_epi16_mask(v, v);
}
inline uint32_t equal_mask(Vec v, uint16_t x) {
  return _mm512_cmpeq_epi16_mask(v, _mm512_set1_epi16(static_cast<short>(x)));
}
inline uint32_t above_mask(Vec v, uint16_t x) {
  return _mm512_cmpgt_epu16_mask(v, _mm512_set1_epi16(static_cast<short>(x)));
}
inline uint32_t at_most_mask(Vec v, uint16_t x) {
  return _mm512_cmple_epu16_mask(v, _mm512_set1_epi16(static_cast<short>(x)));
}
inline uint32_t at_least_mask(Vec v, Vec threshold) {
  return _mm512_cmpge_epu16_mask(v, threshold);
}
inline Vec add_where(Vec v, uint32_t mask, uint16_t x) {
  return _mm512_mask_add_epi16(v, mask, v, _mm512_set1_epi16(static_cast<short>(x)));
}
inline Vec clear_where(Vec v, uint32_t mask) {
  return _mm512_maskz_mov_epi16(~mask, v);
}
inline Vec set_lane(Vec v, int lane, uint16_t x) {
  return _mm512_mask_set1_epi16(v, 1u << lane, static_cast<short>(x));
}
inline Vec add(Vec a, Vec b) {
  return _mm512_add_epi16(a, b);
}
template <int kLane>
inline bool lane_has_bits(Vec v, uint16_t bits) {
  return (_mm512_test_epi16_mask(v, _mm512_set1_epi16(static_cast<short>(bits))) >> kLane & 1) != 0;
}
inline Vec zero() {
  return _mm512_setzero_si512();
}

#elif defined(__AVX2__)

// Two 256-bit registers: lanes 0..15 and 16..31. AVX2 has no mask registers, so a lane mask is
// built from a compare result with a saturating pack (16-bit lanes to bytes) and a byte movemask,
// and a bit mask becomes lanes by testing each lane's own bit.
struct Vec {
  __m256i low, high;
};

inline uint32_t mask_of(__m256i low, __m256i high) {
  // The pack interleaves the halves by 128-bit lane (low 0-7, high 0-7, low 8-15, high 8-15);
  // the permute puts the quarters back in lane order.
  const __m256i bytes = _mm256_permute4x64_epi64(_mm256_packs_epi16(low, high), 0xD8);
  return static_cast<uint32_t>(_mm256_movemask_epi8(bytes));
}
inline __m256i lanes_of(uint32_t bits) {
  const __m256i lane_bits =
      _mm256_setr_epi16(0x1, 0x2, 0x4, 0x8, 0x10, 0x20, 0x40, 0x80, 0x100, 0x200, 0x400, 0x800,
                        0x1000, 0x2000, 0x4000, static_cast<short>(0x8000));
  const __m256i spread = _mm256_set1_epi16(static_cast<short>(bits & 0xFFFF));
  return _mm256_cmpeq_epi16(_mm256_and_si256(spread, lane_bits), lane_bits);
}
inline __m256i splat(uint16_t x) {
  return _mm256_set1_epi16(static_cast<short>(x));
}

inline Vec load(const Block& b) {
  const auto* p = reinterpret_cast<const __m256i*>(b.lane.data());
  return Vec{_mm256_load_si256(p), _mm256_load_si256(p + 1)};
}
inline Block store(const Vec& v) {
  Block b;
  auto* p = reinterpret_cast<__m256i*>(b.lane.data());
  _mm256_store_si256(p, v.low);
  _mm256_store_si256(p + 1, v.high);
  return b;
}
inline uint32_t nonzero_mask(const Vec& v) {
  const __m256i z = _mm256_setzero_si256();
  return ~mask_of(_mm256_cmpeq_epi16(v.low, z), _mm256_cmpeq_epi16(v.high, z));
}
inline uint32_t equal_mask(const Vec& v, uint16_t x) {
  return mask_of(_mm256_cmpeq_epi16(v.low, splat(x)), _mm256_cmpeq_epi16(v.high, splat(x)));
}
inline uint32_t at_most_mask(const Vec& v, uint16_t x) {
  const __m256i t = splat(x);  // unsigned a <= x exactly when max(a, x) == x
  return mask_of(_mm256_cmpeq_epi16(_mm256_max_epu16(v.low, t), t),
                 _mm256_cmpeq_epi16(_mm256_max_epu16(v.high, t), t));
}
inline uint32_t above_mask(const Vec& v, uint16_t x) {
  return ~at_most_mask(v, x);
}
inline uint32_t at_least_mask(const Vec& v, const Vec& t) {
  return mask_of(_mm256_cmpeq_epi16(_mm256_max_epu16(v.low, t.low), v.low),
                 _mm256_cmpeq_epi16(_mm256_max_epu16(v.high, t.high), v.high));
}
inline Vec add_where(const Vec& v, uint32_t mask, uint16_t x) {
  return Vec{_mm256_add_epi16(v.low, _mm256_and_si256(lanes_of(mask), splat(x))),
             _mm256_add_epi16(v.high, _mm256_and_si256(lanes_of(mask >> 16), splat(x)))};
}
inline Vec clear_where(const Vec& v, uint32_t mask) {
  return Vec{_mm256_andnot_si256(lanes_of(mask), v.low),
             _mm256_andnot_si256(lanes_of(mask >> 16), v.high)};
}
inline Vec set_lane(const Vec& v, int lane, uint16_t x) {
  const uint32_t bit = 1u << lane;
  return Vec{_mm256_blendv_epi8(v.low, splat(x), lanes_of(bit)),
             _mm256_blendv_epi8(v.high, splat(x), lanes_of(bit >> 16))};
}
inline Vec add(const Vec& a, const Vec& b) {
  return Vec{_mm256_add_epi16(a.low, b.low), _mm256_add_epi16(a.high, b.high)};
}
template <int kLane>
inline bool lane_has_bits(const Vec& v, uint16_t bits) {
  static_assert(kLane >= 0 && kLane < kLaneCount);
  const uint16_t lane = kLane < 16
                            ? static_cast<uint16_t>(_mm256_extract_epi16(v.low, kLane & 15))
                            : static_cast<uint16_t>(_mm256_extract_epi16(v.high, kLane & 15));
  return (lane & bits) != 0;
}
inline Vec zero() {
  return Vec{_mm256_setzero_si256(), _mm256_setzero_si256()};
}

#else  // portable: plain loops over the lanes, which compilers vectorise where they can

struct Vec {
  std::array<uint16_t, kLaneCount> l;
};

inline Vec load(const Block& b) {
  return Vec{b.lane};
}
inline Block store(const Vec& v) {
  Block b;
  b.lane = v.l;
  return b;
}
template <typename Pred>
inline uint32_t mask_of(const Vec& v, Pred pred) {
  uint32_t m = 0;
  for (int i = 0; i < kLaneCount; ++i) m |= static_cast<uint32_t>(pred(v.l[i], i)) << i;
  return m;
}
inline uint32_t nonzero_mask(const Vec& v) {
  return mask_of(v, [](uint16_t a, int) { return a != 0; });
}
inline uint32_t equal_mask(const Vec& v, uint16_t x) {
  return mask_of(v, [x](uint16_t a, int) { return a == x; });
}
inline uint32_t above_mask(const Vec& v, uint16_t x) {
  return mask_of(v, [x](uint16_t a, int) { return a > x; });
}
inline uint32_t at_most_mask(const Vec& v, uint16_t x) {
  return mask_of(v, [x](uint16_t a, int) { return a <= x; });
}
inline uint32_t at_least_mask(const Vec& v, const Vec& t) {
  return mask_of(v, [&t](uint16_t a, int i) { return a >= t.l[i]; });
}
inline Vec add_where(Vec v, uint32_t mask, uint16_t x) {
  for (int i = 0; i < kLaneCount; ++i)
    if (mask >> i & 1) v.l[i] = static_cast<uint16_t>(v.l[i] + x);
  return v;
}
inline Vec clear_where(Vec v, uint32_t mask) {
  for (int i = 0; i < kLaneCount; ++i)
    if (mask >> i & 1) v.l[i] = 0;
  return v;
}
inline Vec set_lane(Vec v, int lane, uint16_t x) {
  v.l[lane] = x;
  return v;
}
inline Vec add(Vec a, const Vec& b) {
  for (int i = 0; i < kLaneCount; ++i) a.l[i] = static_cast<uint16_t>(a.l[i] + b.l[i]);
  return a;
}
inline Vec zero() {
  return Vec{};
}
template <int kLane>
inline bool lane_has_bits(const Vec& v, uint16_t bits) {
  return (v.l[kLane] & bits) != 0;
}

#endif

}  // namespace mancala::lanes
