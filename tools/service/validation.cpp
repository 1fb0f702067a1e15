#include "tools/service/validation.h"

#include <sys/sysinfo.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "db/table_build.h"
#include "solver/util/escape.h"

namespace mancala::service {

std::string quoted(std::string_view text) {
  constexpr size_t kShown = 40;
  return "'" + escape_control_bytes(text.substr(0, kShown)) + (text.size() > kShown ? "..." : "") +
         "'";
}

namespace {

enum class Digits : uint8_t { NotDigits, TooLarge, Fit };

// Reads `digits` (decimal digits only, no sign) into `magnitude` with std::from_chars: NotDigits
// when empty or when a character is not a digit, TooLarge when the number does not fit 64 bits
// ("99999999999999999999" is too large, not a wrapped-around number).
Digits read_digits(std::string_view digits, uint64_t& magnitude) {
  const char* end = digits.data() + digits.size();
  const auto [stop, error] = std::from_chars(digits.data(), end, magnitude);
  if (error == std::errc::invalid_argument || stop != end) return Digits::NotDigits;
  return error == std::errc::result_out_of_range ? Digits::TooLarge : Digits::Fit;
}

// "" when `text` is a decimal integer in lo..hi (and then `value` holds it); else the problem.
std::string integer_problem(std::string_view text, int64_t lo, int64_t hi, int64_t& value) {
  const bool negative = !text.empty() && text[0] == '-';
  const bool signed_text = !text.empty() && (text[0] == '-' || text[0] == '+');
  uint64_t magnitude = 0;
  const Digits digits = read_digits(text.substr(signed_text ? 1 : 0), magnitude);
  if (digits == Digits::NotDigits) return quoted(text) + " is not a whole number";
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  if (digits == Digits::TooLarge || magnitude > limit)
    return "must be from " + std::to_string(lo) + " to " + std::to_string(hi) + ", not " +
           quoted(text);
  value = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  if (value < lo || value > hi)
    return "must be from " + std::to_string(lo) + " to " + std::to_string(hi) + ", not " +
           std::to_string(value);
  return "";
}

std::string unsigned_problem(std::string_view text, uint64_t lo, uint64_t hi, uint64_t& value) {
  const std::string_view unsigned_text = text.substr(!text.empty() && text[0] == '+' ? 1 : 0);
  if (unsigned_text.empty()) return quoted(text) + " is not a whole number";
  uint64_t magnitude = 0;
  const Digits digits = read_digits(unsigned_text, magnitude);
  if (digits == Digits::NotDigits) return quoted(text) + " is not a whole number from 0 up";
  const bool too_large = digits == Digits::TooLarge;
  if (too_large || magnitude < lo || magnitude > hi)
    return "must be from " + std::to_string(lo) + " to " + std::to_string(hi) + ", not " +
           (too_large ? quoted(text) : std::to_string(magnitude));
  value = magnitude;
  return "";
}

// "" when `text` is a finite decimal number in range; else the problem. Only plain decimal
// notation is taken (digits, one point, an exponent): not "nan", "inf" or hexadecimal.
std::string number_problem(std::string_view text, double lo, double hi, bool above_lo,
                           double& value) {
  size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  size_t digits = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i, ++digits;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i, ++digits;
  }
  if (digits && i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    size_t exponent_digits = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
      ++i, ++exponent_digits;
    if (!exponent_digits) digits = 0;
  }
  if (!digits || i != text.size()) return quoted(text) + " is not a number";
  value = std::strtod(std::string(text).c_str(), nullptr);
  if (!std::isfinite(value) || value < lo || value > hi || (above_lo && value <= lo))
    return (above_lo ? fmt::format("must be more than {} and at most {}", lo, hi)
                     : fmt::format("must be from {} to {}", lo, hi)) +
           ", not " + (std::isfinite(value) ? fmt::format("{}", value) : quoted(text));
  return "";
}

}  // namespace

Expected<int64_t> read_integer(std::string_view text, int64_t lo, int64_t hi) {
  int64_t value = 0;
  std::string problem = integer_problem(text, lo, hi, value);
  if (!problem.empty()) return Error{std::move(problem)};
  return value;
}

Expected<uint64_t> read_unsigned(std::string_view text, uint64_t lo, uint64_t hi) {
  uint64_t value = 0;
  std::string problem = unsigned_problem(text, lo, hi, value);
  if (!problem.empty()) return Error{std::move(problem)};
  return value;
}

Expected<double> read_number(std::string_view text, double lo, double hi, bool above_lo) {
  double value = 0;
  std::string problem = number_problem(text, lo, hi, above_lo, value);
  if (!problem.empty()) return Error{std::move(problem)};
  return value;
}

Expected<double> check_seconds(double seconds) {
  if (!std::isfinite(seconds) || seconds <= 0 || seconds > kMaxSeconds)
    return Error{
        fmt::format("must be more than 0 and at most {} seconds, not {}", kMaxSeconds, seconds)};
  return seconds;
}

Expected<uint64_t> megabytes_to_bytes(uint64_t megabytes) {
  const uint64_t memory = machine_memory_bytes();
  if (megabytes < 1) return Error{"must be at least 1 MB, not 0"};
  if (megabytes > (memory >> 20))
    return Error{
        fmt::format("{} MB is more than this machine's memory ({} MB)", megabytes, memory >> 20)};
  return megabytes << 20;  // no overflow: at most the machine's memory
}

Expected<std::string> check_path(std::string_view path) {
  if (path.empty()) return Error{"an empty path"};
  if (path.find('\0') != std::string_view::npos) return Error{"a path with a NUL byte"};
  if (path.size() > kMaxPathBytes)
    return Error{fmt::format("a path of {} bytes (at most {})", path.size(), kMaxPathBytes)};
  return std::string(path);
}

Expected<std::string> check_text(std::string_view text, size_t max_bytes) {
  if (text.find('\0') != std::string_view::npos) return Error{"a text with a NUL byte"};
  if (text.size() > max_bytes)
    return Error{fmt::format("a text of {} bytes (at most {})", text.size(), max_bytes)};
  return std::string(text);
}

int machine_cores() {
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

std::optional<uint64_t> read_memory_limit(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  uint64_t bytes = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), bytes);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || bytes == 0)
    return std::nullopt;  // "max", or nothing that reads as a limit
  return bytes;
}

namespace {

std::optional<uint64_t> memory_limit_in(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string text;
  if (!in || !std::getline(in, text)) return std::nullopt;
  return read_memory_limit(text);
}

// The lowest memory limit set on the process's control group or any group above it: under
// cgroup v2 (the line "0::PATH" of /proc/self/cgroup) memory.max, under v1 the memory
// controller's memory.limit_in_bytes ("N:...memory...:PATH"). A container's limit shows here;
// sysinfo shows the host's memory.
std::optional<uint64_t> control_group_memory_limit() {
  std::ifstream groups("/proc/self/cgroup");
  std::optional<uint64_t> lowest;
  std::string line;
  while (std::getline(groups, line)) {
    const size_t first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::filesystem::path group = line.substr(second + 1);
    std::vector<std::pair<std::filesystem::path, const char*>> mounts;  // and the file's name
    if (line.compare(0, first, "0") == 0 && controllers.empty()) {
      mounts = {{"/sys/fs/cgroup", "memory.max"}, {"/sys/fs/cgroup/unified", "memory.max"}};
    } else if (("," + controllers + ",").find(",memory,") != std::string::npos) {
      mounts = {{"/sys/fs/cgroup/memory", "memory.limit_in_bytes"}};
    }
    for (const auto& [mount, name] : mounts)
      // The group and every group above it, up to the root.
      for (std::filesystem::path at = group.relative_path();; at = at.parent_path()) {
        if (const std::optional<uint64_t> limit = memory_limit_in(mount / at / name))
          lowest = std::min(lowest.value_or(*limit), *limit);
        if (at.empty()) break;
      }
  }
  return lowest;
}

}  // namespace

uint64_t machine_memory_bytes() {
  struct sysinfo info {};
  uint64_t bytes = uint64_t{1} << 40;  // unknown: 1 TiB
  if (::sysinfo(&info) == 0 && info.totalram != 0)
    bytes = static_cast<uint64_t>(info.totalram) * std::max<uint64_t>(info.mem_unit, 1);
  return std::min(bytes, control_group_memory_limit().value_or(bytes));
}

uint64_t default_layer_memory_bytes() {
  return machine_memory_bytes() / 3 * 2;
}

Expected<bool> check_build_fits_machine(const Rules& rules, int max_seeds,
                                        std::optional<uint64_t> layer_memory) {
  const uint64_t memory = machine_memory_bytes();
  const uint64_t room = db::build_memory_room(memory);
  const uint64_t needed = db::build_memory_needed(rules, max_seeds, layer_memory);
  if (needed <= room) return true;
  int deepest = max_seeds - 1;
  while (deepest > 0 && db::build_memory_needed(rules, deepest, layer_memory) > room) --deepest;
  // What the need is made of: Kalah's counted by pairs of sub-layers (db::build_memory_by_pairs).
  const std::optional<db::BuildMemoryByPairs> by_pairs =
      db::build_memory_by_pairs(rules, max_seeds, layer_memory);
  std::string parts = "it, the three layers below it and the writer's bytes";
  if (by_pairs) {
    const std::string pair = fmt::format("({}, {}) and ({}, {}) seeds a row",
                                         by_pairs->pair.mover_seeds, by_pairs->pair.other_seeds,
                                         by_pairs->pair.other_seeds, by_pairs->pair.mover_seeds);
    parts = by_pairs->in_scratch
                ? fmt::format(
                      "built in a scratch file, pair of sub-layers by pair: the {:.1f} GB its "
                      "largest pair, {}, writes and reads, and the writer's bytes of the layer "
                      "below",
                      static_cast<double>(by_pairs->pair_writes + by_pairs->pair_reads) / 1e9, pair)
                : fmt::format(
                      "it, the layer below it until written, the writer's bytes and the {:.1f} GB "
                      "of the layers further down that its largest pair of sub-layers, {}, reads",
                      static_cast<double>(by_pairs->pair_reads) / 1e9, pair);
  }
  return Error{fmt::format(
      "layers up to {} seeds need about {:.1f} GB of memory while the last is built ({}), and "
      "this machine has {:.1f} GB; the deepest build that fits here goes to {} seeds",
      max_seeds, static_cast<double>(needed) / 1e9, parts, static_cast<double>(memory) / 1e9,
      deepest)};
}

int max_threads() {
  return 4 * machine_cores();
}

}  // namespace mancala::service
