// Checking every value that arrives from outside (a command line, an HTTP request, a Python
// call, an engine's line) before it reaches the library: whole numbers, numbers, times (NaN and
// infinities refused), memory sizes (computed without overflow, capped at the machine's memory),
// paths and texts (no NUL byte, bounded length). Each problem is a sentence without the value's
// name ("must be from 1 to 6, not 9"): each door puts its own name for the value in front.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "solver/rules/rules.h"
#include "solver/util/expected.h"

namespace mancala::service {

// The longest time any limit accepts: a year, in seconds.
inline constexpr double kMaxSeconds = 365.0 * 24 * 3600;
// The longest path accepted (Linux's PATH_MAX).
inline constexpr size_t kMaxPathBytes = 4096;

// Decimal text: an optional sign and digits only, in lo..hi.
Expected<int64_t> read_integer(std::string_view text, int64_t lo, int64_t hi);
// Decimal text: an optional + and digits only, in lo..hi.
Expected<uint64_t> read_unsigned(std::string_view text, uint64_t lo, uint64_t hi);
// Plain decimal notation (digits, one point, an exponent; not "nan", "inf" or hexadecimal), finite,
// in lo..hi; with `above_lo`, strictly above lo.
Expected<double> read_number(std::string_view text, double lo, double hi, bool above_lo = false);

// A time limit in seconds: finite, above 0, at most kMaxSeconds.
Expected<double> check_seconds(double seconds);
// Megabytes of memory as bytes: at least 1, computed without overflow, at most this machine's
// memory.
Expected<uint64_t> megabytes_to_bytes(uint64_t megabytes);
// A path: not empty, no NUL byte, at most kMaxPathBytes.
Expected<std::string> check_path(std::string_view path);
// A text: no NUL byte, at most `max_bytes`.
Expected<std::string> check_text(std::string_view text, size_t max_bytes);

// The machine: cores, and memory in bytes: the physical memory (sysinfo), or the memory limit of
// the process's control group (a container's) when that is lower.
int machine_cores();
uint64_t machine_memory_bytes();
// The limit in the text of a cgroup memory file (memory.max, memory.limit_in_bytes): a number of
// bytes, or none for "max" and anything else.
std::optional<uint64_t> read_memory_limit(std::string_view text);
// What a table build's layers take in memory unless told otherwise (db::BuildRequest::
// layer_memory: the layer being built and the finished layers held below it): two thirds of the
// machine's memory, the rest left to the layer being written, the writer's compressed bytes and
// the page cache that serves the layers moved out. Kalah 0..32 on 24 GiB peaked at 22.6 GB with
// half the machine for the finished layers alone, the layer being built on top.
uint64_t default_layer_memory_bytes();
// Whether a table build of `rules`'s layers 0..max_seeds on this one machine has the memory it
// needs (db::build_memory_needed) in nine tenths of the machine's, the rest left to the system:
// else an error sentence that says what it needs, what the machine has and the deepest build
// that fits here (each door adds how to share it over machines). `layer_memory`: the build's
// bound (db::BuildRequest::layer_memory), which decides the layers it makes in scratch files.
Expected<bool> check_build_fits_machine(const Rules& rules, int max_seeds,
                                        std::optional<uint64_t> layer_memory = std::nullopt);
// The most threads any option accepts: four times the cores.
int max_threads();

// The text quoted and shortened to 40 bytes, its control bytes escaped (escape_control_bytes), for
// a message.
std::string quoted(std::string_view text);

}  // namespace mancala::service
