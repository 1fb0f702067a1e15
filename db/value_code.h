// The value code of format version 2 (value encoding kCodedBlocks, table_format.h): canonical
// Huffman codes over the zigzag symbols of a layer's values, one code per context, the context of
// a value being the symbol of the value just before it in the same block (the first value of a
// block has a context of its own). Neighbouring ranks differ in where a few seeds lie among the
// last houses of the index, so their values are close: the previous value predicts the next one
// much better than the value's overall frequencies do (db/README.md, "Version 2", has the
// measurements). The code is fixed per layer (its code lengths are the file's code section), so a
// probe decodes only the values of its own block before its rank: tens of bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "solver/util/expected.h"

namespace mancala::db {

// Codes are at most this long: a decoder's bit buffer always holds a whole code after a refill.
inline constexpr int kMaxCodeLength = 16;

// Symbols of a layer of s seeds: zigzag values 0 .. 2s. Contexts: one per symbol, plus one for
// a block's first value (the last context).
inline uint32_t code_symbol_count(int seeds) {
  return 2 * static_cast<uint32_t>(seeds) + 1;
}
inline uint32_t code_context_count(int seeds) {
  return code_symbol_count(seeds) + 1;
}

// Adds to `counts` (code_context_count(s) rows of code_symbol_count(s) symbols) how often each
// symbol follows each context in values[0 .. count-1], which start a block and hold `block_size`
// values a block (the last may be shorter).
void count_contexts(const int8_t* values, uint64_t count, uint32_t block_size, int seeds,
                    std::vector<uint64_t>& counts);

// The lengths (0: symbol unused) of a canonical Huffman code for each context's counts, at most
// kMaxCodeLength bits. Deterministic: equal counts give equal lengths on every machine.
std::vector<uint8_t> code_lengths(const std::vector<uint64_t>& counts, int seeds);

// The entropy, in bits a value, of values[0 .. count-1] (a layer of `seeds`, in blocks of
// `block_size`): given nothing (order 0), and given each value's context in this code (what an
// ideal code with these contexts would take, before the index and the Huffman code's rounding).
// What `mancala db stats` reports, so that the room a better code has left is visible.
struct ValueEntropy {
  double order0 = 0;
  double given_previous = 0;
};
ValueEntropy value_entropy(const int8_t* values, uint64_t count, uint32_t block_size, int seeds);

class ValueCode {
 public:
  // The code whose lengths a file's code section holds; an error when they are no prefix code
  // (a length over kMaxCodeLength, or a context whose lengths oversubscribe the code space).
  static Expected<std::shared_ptr<const ValueCode>> from_lengths(const uint8_t* lengths,
                                                                 size_t size, int seeds);
  const std::vector<uint8_t>& lengths() const { return lengths_; }

  // Appends the code of one block's values to `out` (whole bytes: the last one padded with zero
  // bits). Every value must lie in -s..s and have a code in its context.
  void encode_block(const int8_t* values, size_t count, std::vector<uint8_t>& out) const;
  // The largest number of bytes a block of `count` values can take.
  static size_t max_block_bytes(size_t count) { return (count * kMaxCodeLength + 7) / 8; }

  // Decodes the first `count` values of a block from bytes[0 .. size-1] into out[0 .. count-1]
  // (out may be null: only the last one is kept, in `last`). False when the bytes are no
  // sequence of codes (a pattern no code has, or codes running past the block's bytes).
  bool decode(const uint8_t* bytes, size_t size, size_t count, int8_t* out, int& last) const;

 private:
  ValueCode() = default;

  // Lookup of the next one or two symbols from the low kLookupBits bits of the bit buffer (a
  // probe's decoding is a chain of dependent lookups: two symbols a lookup halve it, and a small
  // table per context stays in the first-level cache while probes go from layer to layer).
  // Bit layout of an entry (32 bits):
  //   bits 0-7    the first symbol
  //   bits 8-12   its code's length; 0: no code of at most kLookupBits bits starts with these
  //               bits (a longer code, or none: the canonical slow path decides)
  //   bits 13-20  the second symbol (coded in the context of the first)
  //   bits 21-25  the two codes' lengths together
  //   bit 26      set when both codes lie within the kLookupBits bits (the second is valid)
  static constexpr int kLookupBits = 8;
  struct Canonical {                          // per context, for codes longer than kLookupBits
    uint32_t first[kMaxCodeLength + 2] = {};  // first code of each length (MSB-first value)
    uint32_t count[kMaxCodeLength + 2] = {};  // codes of each length
    uint32_t start[kMaxCodeLength + 2] = {};  // index in `sorted` of the first code of a length
    std::vector<uint8_t> sorted;              // symbols by (length, symbol)
  };

  int seeds_ = 0;
  uint32_t symbols_ = 0;
  uint32_t contexts_ = 0;
  std::vector<uint8_t> lengths_;      // contexts x symbols
  std::vector<uint16_t> codes_;       // contexts x symbols: the codes bit-reversed (LSB first)
  std::vector<uint32_t> lookup_;      // contexts x 2^kLookupBits
  std::vector<Canonical> canonical_;  // per context
};

}  // namespace mancala::db
