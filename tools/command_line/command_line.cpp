#include "tools/command_line/command_line.h"

#include <unistd.h>

#include <cctype>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>

#include "db/table_set.h"
#include "solver/rules/moves.h"
#include "solver/search/players.h"
#include "solver/tables/table_index.h"
#include "tools/service/validation.h"

namespace mancala::command_line {

namespace {

thread_local CommandMode current_mode = CommandMode::Execute;

}  // namespace

// ---- The command line

bool executing() {
  return current_mode == CommandMode::Execute;
}

void set_command(CLI::App* cmd, std::function<void()> run) {
  cmd->callback([run = std::move(run)] {
    if (executing() && run) run();
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

namespace {

std::string escape_controls(std::string_view text, bool keep_line_breaks) {
  std::string out;
  out.reserve(text.size());
  auto escape = [&](unsigned char byte) { out += fmt::format("\\x{:02x}", byte); };
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if ((c < 0x20 && !(keep_line_breaks && (c == '\n' || c == '\t'))) || c == 0x7f)
        escape(c);
      else
        out += static_cast<char>(c);
      ++i;
      continue;
    }
    // Line feeds and tabs are kept when asked (messages have several lines); every other control
    // byte is escaped. A UTF-8 sequence is kept when it is well formed and not a C1 control
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

}  // namespace

std::string printable(std::string_view text) {
  return escape_controls(text, true);
}

std::string printable_line(std::string_view text) {
  return escape_controls(text, false);
}

bool read_bounded_line(std::istream& in, std::string& line, bool& too_long, size_t max_bytes) {
  line.clear();
  too_long = false;
  std::streambuf* buffer = in.rdbuf();
  while (true) {
    const int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      return !line.empty() || too_long;
    }
    if (c == '\n') return true;
    if (line.size() < max_bytes)
      line += static_cast<char>(c);
    else
      too_long = true;
  }
}

// ---- Validators: the service's checks (tools/service/validation.h), worded for an option, and
// the text normalised to what was checked (plain decimal), which is what CLI11 then converts.

namespace {

template <class T>
std::string problem_or_normalise(const Expected<T>& value, std::string& text) {
  if (!value) return value.error();
  text = fmt::format("{}", *value);
  return "";
}

}  // namespace

CLI::Validator integer_in(int64_t lo, int64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) {
        return problem_or_normalise(service::read_integer(text, lo, hi), text);
      },
      fmt::format("{}..{}", lo, hi));
}

CLI::Validator unsigned_in(uint64_t lo, uint64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) {
        return problem_or_normalise(service::read_unsigned(text, lo, hi), text);
      },
      fmt::format("{}..{}", lo, hi));
}

CLI::Validator number_in(double lo, double hi, bool above_lo) {
  return CLI::Validator(
      [lo, hi, above_lo](std::string& text) {
        return problem_or_normalise(service::read_number(text, lo, hi, above_lo), text);
      },
      fmt::format("{}{}..{}", above_lo ? ">" : "", lo, hi));
}

CLI::Validator positive_seconds() {
  return number_in(0, service::kMaxSeconds, true).description("seconds > 0");
}

CLI::Validator path_name() {
  return CLI::Validator(
      [](std::string& text) {
        const Expected<std::string> path = service::check_path(text);
        return path ? std::string() : path.error();
      },
      "");
}

CLI::Validator computer_level() {
  return integer_in(kMinLevel, kMaxLevel);
}

CLI::Validator thread_count() {
  return CLI::Validator(
      [](std::string& text) {
        const Expected<int64_t> whole = service::read_integer(text, INT64_MIN, INT64_MAX);
        if (!whole) return whole.error();
        if (*whole < 1) return fmt::format("must be at least 1, not {}", *whole);
        if (*whole > max_threads())
          return fmt::format("at most {} (four times this machine's {} cores), not {}",
                             max_threads(), machine_cores(), *whole);
        text = std::to_string(*whole);
        return std::string();
      },
      fmt::format("1..{}", max_threads()));
}

CLI::Validator memory_megabytes() {
  return CLI::Validator(
      [](std::string& text) {
        const auto limit = static_cast<int64_t>(machine_memory_bytes() >> 20);
        const Expected<int64_t> whole = service::read_integer(text, INT64_MIN, INT64_MAX);
        if (!whole) return service::read_integer(text, 1, limit).error();
        if (*whole < 1) return fmt::format("must be at least 1, not {}", *whole);
        const Expected<uint64_t> bytes = service::megabytes_to_bytes(static_cast<uint64_t>(*whole));
        if (!bytes) return bytes.error();
        text = std::to_string(*whole);
        return std::string();
      },
      "MB");
}

CLI::Validator memory_gibibytes() {
  return CLI::Validator(
      [](std::string& text) {
        const double limit = static_cast<double>(machine_memory_bytes()) / (1ull << 30);
        const Expected<double> number = service::read_number(text, -1e300, 1e300);
        if (!number) return service::read_number(text, 0, limit).error();
        if (*number > limit)
          return fmt::format("{} GiB is more than this machine's memory ({:.1f} GiB)", *number,
                             limit);
        if (*number < 0) return fmt::format("must be at least 0, not {}", *number);
        text = fmt::format("{}", *number);
        return std::string();
      },
      "GiB");
}

CLI::Validator table_seeds() {
  return integer_in(0, kMaxTableSeeds);
}

Expected<int64_t> parse_integer(std::string_view text, int64_t lo, int64_t hi,
                                std::string_view what) {
  Expected<int64_t> value = service::read_integer(text, lo, hi);
  if (!value) return Error{std::string(what) + ": " + value.error()};
  return value;
}

Expected<double> parse_number(std::string_view text, double lo, double hi, bool above_lo,
                              std::string_view what) {
  Expected<double> value = service::read_number(text, lo, hi, above_lo);
  if (!value) return Error{std::string(what) + ": " + value.error()};
  return value;
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

std::string thread_count_text(int threads) {
  return fmt::format("{} thread{}", threads, threads == 1 ? "" : "s");
}

RulesAndPosition require_rules_and_position(const std::string& game, const std::string& position) {
  const Rules rules = require_rules(game);
  return {rules, require_position(rules, position)};
}

bool stdout_is_color_terminal() {
  return isatty(STDOUT_FILENO) && std::getenv("NO_COLOR") == nullptr;
}

bool stderr_is_terminal() {
  return isatty(STDERR_FILENO);
}

}  // namespace mancala::command_line
