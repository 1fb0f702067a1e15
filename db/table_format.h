// The endgame table file: one layer (all positions with s seeds on the board) of one table
// (a game's houses and rules, e.g. "kalah:6" or "oware:abapa"). db/README.md describes it.
//
// Layout (all integers little-endian):
//
//   offset  size  field
//   0       8     magic "MNCLTBL\0"
//   8       4     format version (kFormatVersion)
//   12      4     header size (kHeaderSize)
//   16      48    table name, NUL-padded
//   64      4     houses per side h
//   68      4     seeds on the board s
//   72      8     position count C(s+2h-1, 2h-1)
//   80      4     value encoding (kZstdBlocks or kPlainBytes; version 2: kCodedBlocks)
//   84      4     block size: positions per block
//   88      8     block count
//   96      8     index offset        (zstd: block_count + 1 offsets of blocks, relative to data;
//                                       plain: block_count checksums of the blocks' bytes;
//                                       coded: one CodedGroup per kGroupBlocks blocks)
//   104     8     dictionary offset   (a zstd dictionary shared by all blocks; may be empty;
//                                       coded: the code lengths, value_code.h)
//   112     8     dictionary size
//   120     8     data offset         (zstd: the blocks, each one zstd frame with content
//                                       checksum; plain: the values)
//   128     8     data size
//   136     8     file size
//   144     8     index checksum
//   152     8     dictionary checksum
//   160     8     data checksum
//   168     80    zero
//   248     8     header checksum over bytes 0..247
//
// A plain file (kPlainBytes) has no zstd blocks and no dictionary: block size kPlainBlockSize,
// block count ceil(position count / kPlainBlockSize), the index holding one plain_block_checksum
// (XXH3-64) per block of values (checked when a reader first touches the block), dictionary size
// 0, data size =
// position count, and the data section is the values themselves, one signed byte each, in rank
// order.
//
// Format version 2 adds value encoding kCodedBlocks (version 1 files, zstd or plain, are read as
// before, and writers still give them version 1): the index is one CodedGroup per
// kGroupBlocks blocks, the dictionary section holds the code (one length per context and symbol,
// value_code.h), and the data section the blocks, each the codes of block size values in rank
// order, padded to a whole byte. Each group's bytes carry an XXH3-64 checksum, checked the first
// time a reader touches the group.
//
// Every field is bounded by what the format allows before a reader trusts it (check_header in
// table_file.cpp): houses 1..kMaxTableHouses, seeds 0..kMaxTableSeeds, block size
// 1..kMaxBlockSize, dictionary size up to kMaxDictionarySize, a NUL-terminated printable name of
// a table with those houses, zero reserved bytes, and sections that tile the file exactly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace mancala::db {

inline constexpr char kMagic[8] = {'M', 'N', 'C', 'L', 'T', 'B', 'L', '\0'};
inline constexpr uint32_t kFormatVersion = 1;
inline constexpr uint32_t kHeaderSize = 256;
inline constexpr size_t kNameSize = 48;
// Values are -s..s, most of them near 0: a zigzag byte (0, -1, 1, -2, 2 -> 0, 1, 2, 3, 4) keeps
// small magnitudes in few symbols whatever their sign, which zstd's entropy stage rewards.
inline constexpr uint32_t kZstdBlocks = 1;
// Values stored as they are, one signed byte per position, uncompressed, with a checksum per
// block of kPlainBlockSize values. Why plain: a probe of a compressed layer decompresses a block
// (~4-6 us) into memory that must be faulted in, which dominates a whole-game solve that probes
// millions of scattered positions; a plain layer is mapped from the page cache and read in place.
// It costs ~1 byte per position on disk (1.25 GB for Kalah 0..24 seeds, ~0.52 GB compressed), so
// plain files are copies made by `mancala db unpack` next to the compressed ones, which stay the
// reference. Why block checksums: a flipped byte must be an error, not a value; a block is
// checked when a reader first touches it (db/README.md, "Trust", has the cost).
inline constexpr uint32_t kPlainBytes = 3;
// The first plain layout (no block checksums), written before the checksums came: refused with a
// message saying to run `mancala db unpack` again.
inline constexpr uint32_t kUncheckedPlainBytes = 2;
// Positions per checksummed block of a plain file: one page of values.
inline constexpr uint32_t kPlainBlockSize = 4096;

// Format version 2: kCodedBlocks. A version 1 reader refuses these files by their version.
inline constexpr uint32_t kCodedFormatVersion = 2;
// Values coded with a per-layer canonical Huffman code in context of the previous value
// (value_code.h), in small blocks with a sparse index of groups (CodedGroup): a probe checks its
// group once, reads one index entry and decodes at most one block's values.
inline constexpr uint32_t kCodedBlocks = 4;
// Blocks per index group (CodedGroup): one offset and one checksum for this many blocks keeps the
// index at ~0.16 bits a position with 128-position blocks.
inline constexpr uint32_t kGroupBlocks = 32;
// Positions per block of a coded file at most: a block then takes at most 1 KiB (16-bit codes),
// a group at most 32 KiB, so that the 16-bit block ends of CodedGroup hold any group.
inline constexpr uint32_t kMaxCodedBlockSize = 512;
// The default: a random probe decodes 64 values on average (about 45 bytes of a block, at
// ~2.9 bits a position), and the index costs 80 bytes for 4096 positions (0.16 bit a position).
// Measured on Kalah (6 houses) 0..20, one thread: 128 positions, 2.98 bits a position and
// 1.1-1.3 M uniform random probes per CPU second; 256 positions, 2.89 bits and 0.7-0.85 M.
inline constexpr uint32_t kDefaultCodedBlockSize = 128;

// One entry of a coded file's index, for blocks kGroupBlocks*g .. kGroupBlocks*g + 31.
// Byte layout (80 bytes, little-endian):
//   0   8   offset of the group's first block, from the start of the data section
//   8   8   XXH3-64 of the group's bytes (its blocks, one after another)
//   16  64  block_end[32]: 16-bit end of each block, from the group's offset (block j spans
//           block_end[j-1] .. block_end[j], block_end[-1] = 0); in the layer's last group, the
//           entries past its last block repeat that block's end. block_end[31] is the group's size.
struct CodedGroup {
  uint64_t offset;
  uint64_t checksum;
  uint16_t block_end[kGroupBlocks];
};
static_assert(sizeof(CodedGroup) == 80, "the index entry is part of the format");

// What the format allows (a header field outside these is corrupt, whatever its checksum says).
inline constexpr uint32_t kMaxTableHouses = 6;
inline constexpr uint32_t kMaxBlockSize = 1u << 20;  // a decoder holds a block this large
inline constexpr uint64_t kMaxDictionarySize = 1u << 20;

inline uint8_t zigzag(int value) {
  return static_cast<uint8_t>(value >= 0 ? 2 * value : -2 * value - 1);
}
inline int unzigzag(uint8_t code) {
  return (code & 1) ? -(code + 1) / 2 : code / 2;
}

struct TableHeader {
  char magic[8];
  uint32_t version;
  uint32_t header_size;
  char name[kNameSize];
  uint32_t houses;
  uint32_t seeds;
  uint64_t position_count;
  uint32_t value_encoding;
  uint32_t block_size;
  uint64_t block_count;
  uint64_t index_offset;
  uint64_t dictionary_offset;
  uint64_t dictionary_size;
  uint64_t data_offset;
  uint64_t data_size;
  uint64_t file_size;
  uint64_t index_checksum;
  uint64_t dictionary_checksum;
  uint64_t data_checksum;
  uint8_t reserved[80];
  uint64_t header_checksum;
};
static_assert(sizeof(TableHeader) == kHeaderSize, "the header layout is part of the format");
static_assert(offsetof(TableHeader, header_checksum) == 248);

// A fast 64-bit checksum (multiply-xorshift over 8-byte words); not cryptographic, it guards
// against truncation, bit rot and mixed-up files.
uint64_t checksum64(const void* data, size_t size);

// The checksum of a block of a plain file: XXH3-64 (xxHash), about ten times as fast as
// checksum64, because every block a probe first touches is checked (0.2-0.6 us per 4096 bytes
// measured here, against 2.4 us for checksum64).
uint64_t plain_block_checksum(const void* data, size_t size);

inline uint64_t header_checksum(const TableHeader& header) {
  return checksum64(&header, offsetof(TableHeader, header_checksum));
}

// "kalah:6" -> "kalah-6": the directory of a table inside a database directory.
std::string table_directory_name(const std::string& table_name);
// The file of layer s: "seeds-07.mtb".
std::string layer_file_name(int seeds);
// The plain copy of layer s, next to it: "seeds-07.plain.mtb".
std::string plain_layer_file_name(int seeds);
// The file a layer's name says it holds: 7 for "seeds-07.mtb" or "seeds-07.plain.mtb" (any
// directory before it), -1 for any other name.
int layer_of_file_name(const std::string& path);
// "zstd", "plain" or "coded": how the values of a file with this value encoding are stored.
std::string encoding_name(uint32_t value_encoding);

}  // namespace mancala::db
