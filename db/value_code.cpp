#include "db/value_code.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "db/table_format.h"
#include "solver/tables/table_index.h"

namespace mancala::db {

namespace {

// Huffman code lengths for one context's symbol counts (0 for a symbol never seen). The leaves
// are taken in (count, symbol) order and merged with the classic two-queue method, so ties are
// broken the same way everywhere. A code longer than kMaxCodeLength is avoided by halving the
// counts (a seen symbol stays seen) and building again: the rare symbols that made the tree deep
// then cost a bit or two more, which is nothing next to the counts that need it (a layer's values
// are millions).
std::vector<uint8_t> huffman_lengths(std::vector<uint64_t> counts) {
  const size_t n = counts.size();
  std::vector<uint8_t> lengths(n, 0);
  while (true) {
    std::vector<uint32_t> leaves;
    for (uint32_t i = 0; i < n; ++i)
      if (counts[i]) leaves.push_back(i);
    if (leaves.empty()) return lengths;
    if (leaves.size() == 1) {  // one symbol: one bit, so that a block still has whole codes
      lengths[leaves[0]] = 1;
      return lengths;
    }
    std::stable_sort(leaves.begin(), leaves.end(),
                     [&](uint32_t a, uint32_t b) { return counts[a] < counts[b]; });
    const size_t m = leaves.size();
    std::vector<uint64_t> weight(2 * m - 1);
    std::vector<size_t> parent(2 * m - 1, 0);
    for (size_t k = 0; k < m; ++k) weight[k] = counts[leaves[k]];
    size_t next_leaf = 0, next_inner = m, created = m;
    auto take = [&] {
      if (next_leaf < m && (next_inner >= created || weight[next_leaf] <= weight[next_inner]))
        return next_leaf++;
      return next_inner++;
    };
    while (created < 2 * m - 1) {
      const size_t a = take(), b = take();
      weight[created] = weight[a] + weight[b];
      parent[a] = parent[b] = created;
      ++created;
    }
    // A node's parent was created after it: depths from the root down, in reverse order.
    std::vector<uint32_t> depth(2 * m - 1, 0);
    for (size_t k = 2 * m - 1; k-- > 0;)
      if (k != 2 * m - 2) depth[k] = depth[parent[k]] + 1;
    const uint32_t deepest = *std::max_element(depth.begin(), depth.begin() + m);
    if (deepest <= static_cast<uint32_t>(kMaxCodeLength)) {
      for (size_t k = 0; k < m; ++k) lengths[leaves[k]] = static_cast<uint8_t>(depth[k]);
      return lengths;
    }
    for (uint64_t& c : counts)
      if (c) c = (c + 1) / 2;
  }
}

uint32_t reverse_bits(uint32_t code, int length) {
  uint32_t out = 0;
  for (int i = 0; i < length; ++i) out |= ((code >> i) & 1u) << (length - 1 - i);
  return out;
}

}  // namespace

void count_contexts(const int8_t* values, uint64_t count, uint32_t block_size, int seeds,
                    std::vector<uint64_t>& counts) {
  const uint32_t symbols = code_symbol_count(seeds);
  const uint32_t first_context = code_context_count(seeds) - 1;
  counts.resize(static_cast<size_t>(code_context_count(seeds)) * symbols, 0);
  uint32_t context = first_context;
  uint32_t in_block = 0;
  for (uint64_t i = 0; i < count; ++i) {
    if (in_block == block_size) {
      in_block = 0;
      context = first_context;
    }
    const uint32_t symbol = zigzag(values[i]);
    ++counts[static_cast<size_t>(context) * symbols + symbol];
    context = symbol;
    ++in_block;
  }
}

ValueEntropy value_entropy(const int8_t* values, uint64_t count, uint32_t block_size, int seeds) {
  std::vector<uint64_t> counts;
  count_contexts(values, count, block_size, seeds, counts);
  const uint32_t symbols = code_symbol_count(seeds);
  std::vector<uint64_t> order0(symbols, 0);
  double given_previous = 0;  // bits, over every value
  for (size_t row = 0; row + symbols <= counts.size(); row += symbols) {
    uint64_t in_context = 0;
    for (uint32_t s = 0; s < symbols; ++s) in_context += counts[row + s];
    for (uint32_t s = 0; s < symbols; ++s) {
      const uint64_t n = counts[row + s];
      order0[s] += n;
      if (n)
        given_previous -= static_cast<double>(n) *
                          std::log2(static_cast<double>(n) / static_cast<double>(in_context));
    }
  }
  ValueEntropy out;
  if (count == 0) return out;
  const double total = static_cast<double>(count);
  out.given_previous = given_previous / total;
  for (uint64_t n : order0)
    if (n) out.order0 -= static_cast<double>(n) / total * std::log2(static_cast<double>(n) / total);
  return out;
}

std::vector<uint8_t> code_lengths(const std::vector<uint64_t>& counts, int seeds) {
  const uint32_t symbols = code_symbol_count(seeds);
  const uint32_t contexts = code_context_count(seeds);
  std::vector<uint8_t> lengths;
  lengths.reserve(static_cast<size_t>(contexts) * symbols);
  for (uint32_t c = 0; c < contexts; ++c) {
    const auto row = counts.begin() + static_cast<ptrdiff_t>(c) * symbols;
    const std::vector<uint8_t> one = huffman_lengths(std::vector<uint64_t>(row, row + symbols));
    lengths.insert(lengths.end(), one.begin(), one.end());
  }
  return lengths;
}

Expected<std::shared_ptr<const ValueCode>> ValueCode::from_lengths(const uint8_t* lengths,
                                                                   size_t size, int seeds) {
  if (seeds < 0 || seeds > kMaxTableSeeds) return Error{"no code for this layer"};
  std::shared_ptr<ValueCode> code(new ValueCode());
  code->seeds_ = seeds;
  code->symbols_ = code_symbol_count(seeds);
  code->contexts_ = code_context_count(seeds);
  const size_t symbols = code->symbols_;
  if (size != static_cast<size_t>(code->contexts_) * symbols)
    return Error{"code section of " + std::to_string(size) + " bytes, expected " +
                 std::to_string(static_cast<size_t>(code->contexts_) * symbols)};
  code->lengths_.assign(lengths, lengths + size);
  code->codes_.assign(size, 0);
  code->lookup_.assign(static_cast<size_t>(code->contexts_) << kLookupBits, 0);
  code->canonical_.resize(code->contexts_);
  for (uint32_t c = 0; c < code->contexts_; ++c) {
    const uint8_t* row = lengths + static_cast<size_t>(c) * symbols;
    // Kraft's sum in units of 2^-kMaxCodeLength: a prefix code never exceeds one.
    uint64_t kraft = 0;
    for (size_t s = 0; s < symbols; ++s) {
      if (row[s] > kMaxCodeLength) return Error{"code longer than the format allows"};
      if (row[s]) kraft += uint64_t{1} << (kMaxCodeLength - row[s]);
    }
    if (kraft > (uint64_t{1} << kMaxCodeLength)) return Error{"code lengths are no prefix code"};
    Canonical& canonical = code->canonical_[c];
    for (size_t s = 0; s < symbols; ++s) ++canonical.count[row[s]];
    canonical.count[0] = 0;
    for (int length = 1; length <= kMaxCodeLength; ++length)
      canonical.start[length + 1] = canonical.start[length] + canonical.count[length];
    canonical.sorted.resize(canonical.start[kMaxCodeLength + 1]);
    std::vector<uint32_t> filled(kMaxCodeLength + 2, 0);
    for (size_t s = 0; s < symbols; ++s)
      if (row[s])
        canonical.sorted[canonical.start[row[s]] + filled[row[s]]++] = static_cast<uint8_t>(s);
    // Canonical codes: by (length, symbol), each the previous plus one, shifted when longer.
    uint32_t next = 0;
    for (int length = 1; length <= kMaxCodeLength; ++length) {
      canonical.first[length] = next;
      for (uint32_t k = 0; k < canonical.count[length]; ++k) {
        const uint8_t symbol = canonical.sorted[canonical.start[length] + k];
        const uint32_t reversed = reverse_bits(next + k, length);
        code->codes_[static_cast<size_t>(c) * symbols + symbol] = static_cast<uint16_t>(reversed);
        if (length <= kLookupBits)
          for (uint32_t high = 0; high < (1u << (kLookupBits - length)); ++high)
            code->lookup_[(static_cast<size_t>(c) << kLookupBits) | (high << length) | reversed] =
                symbol | (static_cast<uint32_t>(length) << 8);
      }
      next = (next + canonical.count[length]) << 1;
    }
  }
  // The second symbol of each entry: the first one's context looked up in the bits left over,
  // valid when its code lies entirely within them.
  const uint32_t patterns = 1u << kLookupBits;
  for (uint32_t c = 0; c < code->contexts_; ++c)
    for (uint32_t bits = 0; bits < patterns; ++bits) {
      uint32_t& entry = code->lookup_[(static_cast<size_t>(c) << kLookupBits) | bits];
      const uint32_t first_length = (entry >> 8) & 31u;
      if (first_length == 0) continue;
      const uint32_t first = entry & 0xffu;
      const uint32_t second_entry =
          code->lookup_[(static_cast<size_t>(first) << kLookupBits) | (bits >> first_length)];
      const uint32_t second_length = (second_entry >> 8) & 31u;
      if (second_length == 0 || first_length + second_length > kLookupBits) continue;
      entry = first | (first_length << 8) | ((second_entry & 0xffu) << 13) |
              ((first_length + second_length) << 21) | (1u << 26);
    }
  return std::shared_ptr<const ValueCode>(std::move(code));
}

void ValueCode::encode_block(const int8_t* values, size_t count, std::vector<uint8_t>& out) const {
  uint64_t buffer = 0;
  int bits = 0;
  uint32_t context = contexts_ - 1;
  for (size_t i = 0; i < count; ++i) {
    const uint32_t symbol = zigzag(values[i]);
    const size_t at = static_cast<size_t>(context) * symbols_ + symbol;
    buffer |= static_cast<uint64_t>(codes_[at]) << bits;
    bits += lengths_[at];
    while (bits >= 8) {
      out.push_back(static_cast<uint8_t>(buffer));
      buffer >>= 8;
      bits -= 8;
    }
    context = symbol;
  }
  if (bits > 0) out.push_back(static_cast<uint8_t>(buffer));
}

bool ValueCode::decode(const uint8_t* bytes, size_t size, size_t count, int8_t* out,
                       int& last) const {
  const uint8_t* p = bytes;
  const uint8_t* const end = bytes + size;
  uint64_t buffer = 0;
  int bits = 0;         // valid bits in `buffer`
  size_t past_end = 0;  // zero bytes fed in after the block's last byte
  uint32_t context = contexts_ - 1;
  uint32_t symbol = 0;
  constexpr uint64_t kMask = (uint64_t{1} << kLookupBits) - 1;
  for (size_t i = 0; i < count; ++i) {
    if (bits < kMaxCodeLength) {
      if (end - p >= 8) {  // a whole word: top the buffer up to 56..63 bits
        uint64_t word;
        std::memcpy(&word, p, sizeof word);
        buffer |= word << bits;
        p += (63 - bits) >> 3;
        bits |= 56;
      } else {  // the block's last bytes, then zeros (codes running into them fail below)
        while (bits <= 56) {
          uint64_t byte = 0;
          if (p < end)
            byte = *p++;
          else
            ++past_end;
          buffer |= byte << bits;
          bits += 8;
        }
      }
    }
    const uint32_t entry =
        lookup_[(static_cast<size_t>(context) << kLookupBits) | (buffer & kMask)];
    int length = static_cast<int>((entry >> 8) & 31u);
    if ((entry >> 26) && i + 1 < count) {  // two symbols at once
      const int both = static_cast<int>((entry >> 21) & 31u);
      symbol = (entry >> 13) & 0xffu;
      if (out) {
        out[i] = static_cast<int8_t>(unzigzag(static_cast<uint8_t>(entry & 0xffu)));
        out[i + 1] = static_cast<int8_t>(unzigzag(static_cast<uint8_t>(symbol)));
      }
      buffer >>= both;
      bits -= both;
      context = symbol;
      ++i;  // and the loop's own step: two values
      continue;
    }
    if (length) {
      symbol = entry & 0xffu;
    } else {  // longer than the lookup: canonical decoding, one bit at a time
      const Canonical& canonical = canonical_[context];
      uint32_t code = 0;
      for (length = 1; length <= kMaxCodeLength; ++length) {
        code = (code << 1) | static_cast<uint32_t>((buffer >> (length - 1)) & 1u);
        const uint32_t k = code - canonical.first[length];
        if (k < canonical.count[length]) {
          symbol = canonical.sorted[canonical.start[length] + k];
          break;
        }
      }
      if (length > kMaxCodeLength) return false;  // no code starts with these bits
    }
    buffer >>= length;
    bits -= length;
    if (out) out[i] = static_cast<int8_t>(unzigzag(static_cast<uint8_t>(symbol)));
    context = symbol;
  }
  // The codes read must end inside the block's bytes, not in the zeros after them.
  const uint64_t consumed = (static_cast<uint64_t>(p - bytes) + past_end) * 8 - bits;
  if (consumed > static_cast<uint64_t>(size) * 8) return false;
  if (count) last = unzigzag(static_cast<uint8_t>(symbol));
  return true;
}

}  // namespace mancala::db
