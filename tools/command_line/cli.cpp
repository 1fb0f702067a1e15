#include "tools/command_line/cli.h"

#include <omp.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <thread>

#include <fmt/format.h>

#include "db/table_set.h"
#include "solver/rules/moves.h"
#include "solver/search/players.h"
#include "solver/tables/table_index.h"

namespace mancala::cli {

namespace {

// The bad text, quoted and shortened, for a message.
std::string quoted(std::string_view text) {
  constexpr size_t kShown = 40;
  return "'" + std::string(text.substr(0, kShown)) + (text.size() > kShown ? "..." : "") + "'";
}

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

thread_local CommandMode current_mode = CommandMode::Execute;

}  // namespace

// ---- The command line

void set_command(CLI::App* cmd, std::function<void()> check, std::function<void()> run) {
  cmd->callback([check = std::move(check), run = std::move(run)] {
    if (check) check();
    if (current_mode == CommandMode::Execute && run) run();
  });
}

void report_error(std::string_view message) {
  fmt::print(stderr, "mancala: error: {}\n", printable(message));
  std::fflush(stderr);
}

namespace {

// "mancala db stats" for the deepest subcommand the parse reached, for the hint after a parse
// error.
std::string command_path(const CLI::App& app) {
  std::string path = "mancala";
  const CLI::App* at = &app;
  while (at) {
    const std::vector<CLI::App*> chosen = at->get_subcommands();
    at = chosen.empty() ? nullptr : chosen.front();
    if (at) path += " " + at->get_name();
  }
  return path;
}

}  // namespace

int run_command_line(CLI::App& app, int argc, const char* const* argv, CommandMode mode) {
  app.footer("GAME strings:\n" + std::string(game_string_forms()) +
             "\nExit status: 0 done; 1 a request that cannot be carried out (an illegal move, a\n"
             "damaged table file, a full disk); 2 bad input (an option, GAME or position string).\n"
             "Errors are one line on standard error: 'mancala: error: ...'.");
  current_mode = mode;
  // Past a file size limit a write then fails with EFBIG, which is reported, instead of the
  // process being killed by SIGXFSZ.
  if (mode == CommandMode::Execute) std::signal(SIGXFSZ, SIG_IGN);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // The hint ends the message's first line.
    std::string message = e.what();
    if (app.get_subcommands().empty() && argc > 1 && argv[1][0] != '-')
      message = "unknown command '" + std::string(argv[1]) + "'";
    message.insert(std::min(message.find('\n'), message.size()),
                   " (see " + command_path(app) + " --help)");
    report_error(message);
    return 2;
  } catch (const UsageError& e) {
    report_error(e.what());
    return 2;
  } catch (const Failure& e) {
    report_error(e.what());
    return 1;
  } catch (const ReportedFailure&) {
    return 1;
  } catch (const std::bad_alloc&) {
    report_error("out of memory");
    return 1;
  }
  return 0;
}

void warn(std::string_view message) {
  fmt::print(stderr, "mancala: warning: {}\n", printable(message));
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  auto escape = [&](unsigned char byte) { out += fmt::format("\\x{:02x}", byte); };
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
        escape(c);
      else
        out += static_cast<char>(c);
      ++i;
      continue;
    }
    // Line feeds and tabs are kept (messages have several lines); every other control byte is
    // escaped. A UTF-8 sequence is kept when it is well formed and not a C1 control
    // (U+0080..U+009F, which some terminals obey as they do ESC); anything else is escaped byte by
    // byte.
    const size_t length = c >= 0xF0 && c <= 0xF4  ? 4
                          : c >= 0xE0             ? 3
                          : c >= 0xC2 && c < 0xE0 ? 2
                                                  : 0;
    bool well_formed = length > 0 && i + length <= text.size();
    uint32_t code = length == 2 ? c & 0x1F : length == 3 ? c & 0x0F : c & 0x07;
    for (size_t k = 1; well_formed && k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      well_formed = (next & 0xC0) == 0x80;
      code = code << 6 | (next & 0x3F);
    }
    if (well_formed) {
      const uint32_t smallest = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000;
      well_formed = code >= smallest && code <= 0x10FFFF && (code < 0xD800 || code > 0xDFFF) &&
                    !(code >= 0x80 && code <= 0x9F);
    }
    if (well_formed) {
      out.append(text.substr(i, length));
      i += length;
    } else {
      escape(c);
      ++i;
    }
  }
  return out;
}

// ---- Validators

CLI::Validator integer_in(int64_t lo, int64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) {
        int64_t value = 0;
        std::string problem = integer_problem(text, lo, hi, value);
        if (problem.empty()) text = std::to_string(value);  // what CLI11 converts: plain decimal
        return problem;
      },
      fmt::format("{}..{}", lo, hi));
}

CLI::Validator unsigned_in(uint64_t lo, uint64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) {
        uint64_t value = 0;
        std::string problem = unsigned_problem(text, lo, hi, value);
        if (problem.empty()) text = std::to_string(value);
        return problem;
      },
      fmt::format("{}..{}", lo, hi));
}

CLI::Validator number_in(double lo, double hi, bool above_lo) {
  return CLI::Validator(
      [lo, hi, above_lo](std::string& text) {
        double value = 0;
        std::string problem = number_problem(text, lo, hi, above_lo, value);
        if (problem.empty()) text = fmt::format("{}", value);
        return problem;
      },
      fmt::format("{}{}..{}", above_lo ? ">" : "", lo, hi));
}

CLI::Validator positive_seconds() {
  return number_in(0, 365.0 * 24 * 3600, true).description("seconds > 0");
}

CLI::Validator path_name() {
  return CLI::Validator(
      [](std::string& text) { return text.empty() ? std::string("an empty path") : ""; }, "");
}

CLI::Validator computer_level() {
  return integer_in(kMinLevel, kMaxLevel);
}

CLI::Validator thread_count() {
  return CLI::Validator(
      [](std::string& text) {
        int64_t value = 0;
        std::string problem =
            integer_problem(text, INT64_MIN, INT64_MAX, value);  // a whole number at all?
        if (problem.empty() && value < 1)
          problem = fmt::format("must be at least 1, not {}", value);
        if (problem.empty() && value > max_threads())
          problem = fmt::format("at most {} (four times this machine's {} cores), not {}",
                                max_threads(), machine_cores(), value);
        if (problem.empty()) text = std::to_string(value);
        return problem;
      },
      fmt::format("1..{}", max_threads()));
}

CLI::Validator memory_megabytes() {
  return CLI::Validator(
      [](std::string& text) {
        const auto limit = static_cast<int64_t>(machine_memory_bytes() >> 20);
        int64_t value = 0;
        std::string problem = integer_problem(text, 1, limit, value);
        if (!problem.empty() && integer_problem(text, INT64_MIN, 0, value).empty())
          problem = fmt::format("must be at least 1, not {}", value);
        else if (!problem.empty() && value > limit)
          problem = fmt::format("{} MB is more than this machine's memory ({} MB)", value, limit);
        if (problem.empty()) text = std::to_string(value);
        return problem;
      },
      "MB");
}

CLI::Validator memory_gibibytes() {
  return CLI::Validator(
      [](std::string& text) {
        const double limit = static_cast<double>(machine_memory_bytes()) / (1ull << 30);
        double value = 0;
        std::string problem = number_problem(text, 0, limit, false, value);
        if (!problem.empty() && value > limit)
          problem =
              fmt::format("{} GiB is more than this machine's memory ({:.1f} GiB)", value, limit);
        else if (!problem.empty() && value < 0)
          problem = fmt::format("must be at least 0, not {}", value);
        if (problem.empty()) text = fmt::format("{}", value);
        return problem;
      },
      "GiB");
}

CLI::Validator table_seeds() {
  return integer_in(0, kMaxTableSeeds);
}

Expected<int64_t> parse_integer(std::string_view text, int64_t lo, int64_t hi,
                                std::string_view what) {
  int64_t value = 0;
  const std::string problem = integer_problem(text, lo, hi, value);
  if (!problem.empty()) return Error{std::string(what) + ": " + problem};
  return value;
}

Expected<double> parse_number(std::string_view text, double lo, double hi, bool above_lo,
                              std::string_view what) {
  double value = 0;
  const std::string problem = number_problem(text, lo, hi, above_lo, value);
  if (!problem.empty()) return Error{std::string(what) + ": " + problem};
  return value;
}

int machine_cores() {
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

uint64_t machine_memory_bytes() {
  struct sysinfo info {};
  if (::sysinfo(&info) != 0 || info.totalram == 0) return uint64_t{1} << 40;  // unknown: 1 TiB
  return static_cast<uint64_t>(info.totalram) * std::max<uint64_t>(info.mem_unit, 1);
}

int max_threads() {
  return 4 * machine_cores();
}

void require_memory(uint64_t bytes, const std::string& what) {
  const uint64_t memory = machine_memory_bytes();
  if (bytes > memory)
    throw Failure(fmt::format("{} needs {:.1f} GiB, more than this machine's memory ({:.1f} GiB)",
                              what, static_cast<double>(bytes) / (1ull << 30),
                              static_cast<double>(memory) / (1ull << 30)));
}

// ---- User input

Rules require_rules(const std::string& game) {
  Expected<Rules> rules = parse_rules(game);
  if (!rules) throw UsageError(rules.error());
  return *rules;
}

Position require_position(const Rules& rules, const std::string& text) {
  if (text.empty()) return start_position(rules);
  Expected<Position> position = parse_position(rules, text);
  if (!position) throw UsageError(position.error());
  return *position;
}

std::string database_directory(const std::string& option) {
  return option.empty() ? db::default_database_directory() : option;
}

void set_thread_count(int threads) {
  if (threads < 0 || threads > max_threads())  // the validator has refused these already
    throw UsageError(fmt::format("--threads must be from 1 to {}", max_threads()));
  if (threads > 0) omp_set_num_threads(threads);
}

bool stdout_is_color_terminal() {
  return isatty(STDOUT_FILENO) && std::getenv("NO_COLOR") == nullptr;
}

bool stderr_is_terminal() {
  return isatty(STDERR_FILENO);
}

std::string format_line(const Rules& rules, const Position& from, const std::vector<Move>& moves) {
  std::string line;
  Position p = from;
  for (size_t i = 0; i < moves.size(); ++i) {
    if (!generate_moves(rules, p).contains(moves[i])) break;
    if (i > 0 && line.back() != ' ' &&
        (std::isupper(static_cast<unsigned char>(line.back())) != 0) !=
            (p.side_to_move == Side::South))
      line += ' ';  // a new turn
    line += move_letter(p.side_to_move, moves[i]);
    p = apply_move(rules, p, moves[i]);
  }
  return line;
}

}  // namespace mancala::cli
