// checksum64 (table_format.h) computed over data that arrives in pieces: the distributed build
// checksums a layer file's sections as it reads them back in bounded pieces, never holding the
// whole section. Gives exactly checksum64 of the concatenated pieces, however they are cut.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace mancala::db {

class Checksum64Stream {
 public:
  // checksum64 mixes the size in first, so it must be known before the first byte.
  explicit Checksum64Stream(uint64_t total_size)
      : hash_(0x243F6A8885A308D3ull ^ total_size), words_left_(total_size / 8) {}

  void update(const void* data, size_t size) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    while (size) {
      if (pending_size_ == 0 && words_left_ > 0 && size >= 8) {  // a whole word, in place
        uint64_t word;
        std::memcpy(&word, bytes, 8);
        mix_word(word);
        bytes += 8;
        size -= 8;
        continue;
      }
      if (words_left_ == 0) {  // the tail of fewer than 8 bytes goes byte by byte
        hash_ = (hash_ ^ *bytes++) * 0x100000001B3ull;
        --size;
        continue;
      }
      const size_t take = std::min<size_t>(size, 8 - pending_size_);
      std::memcpy(pending_ + pending_size_, bytes, take);
      pending_size_ += take;
      bytes += take;
      size -= take;
      if (pending_size_ == 8) {
        uint64_t word;
        std::memcpy(&word, pending_, 8);
        mix_word(word);
        pending_size_ = 0;
      }
    }
  }

  uint64_t finish() const {
    uint64_t h = hash_;
    h ^= h >> 32;
    return h * 0xD6E8FEB86659FD93ull;
  }

 private:
  void mix_word(uint64_t word) {
    hash_ = (hash_ ^ word) * 0x9E3779B97F4A7C15ull;
    hash_ ^= hash_ >> 29;
    --words_left_;
  }

  uint64_t hash_;
  uint64_t words_left_;
  uint8_t pending_[8] = {};
  size_t pending_size_ = 0;
};

}  // namespace mancala::db
