// Helpers shared by the subcommands: the one error path, the option validators, turning user
// input into library values with clear errors, JSON output, and terminal detection. Only the
// command line prints; the library never does.
//
// How every subcommand is wired (a new one must be wired the same way):
//   1. Its options bind to a struct held by a shared_ptr (add_*_command).
//   2. Every option that takes a value gets a validator from this file (`->check(...)`): CLI11
//      runs it on the option's text before converting it, so no out-of-range, NaN, infinite,
//      wrapped-around ("-1" into an unsigned) or empty value reaches the command, and the message
//      names the option. Each validator also normalises what it accepts (decimal, no leading
//      zeros), so that CLI11's conversion reads exactly what was checked.
//   3. The GAME string (require_rules, whose message lists the accepted forms) and checks across
//      options (a position against its game) go in the command's `check` function, which throws
//      UsageError. It parses each of them once and returns what it parsed (a Rules, a
//      RulesAndPosition, a struct of the command's own), which `run` is handed: run parses
//      nothing again.
//   4. set_command(cmd, check, run) registers both (set_command(cmd, run) a command whose
//      validators check everything). run_command_line() parses, checks and runs; with
//      CommandMode::ParseOnly it parses and checks only, so that option handling can be driven
//      in-process without running anything (the command-line fuzz target and the tests do).
//   5. Values go to the library as values: a --threads count travels in the request or the
//      call that uses it (0: all cores, solver/util/thread_count.h), never as a setting of the
//      whole process.
//   6. Every error, CLI11's own parse errors and ours, leaves through run_command_line as
//      "mancala: error: ..." on standard error (control bytes escaped), with exit status 2 for
//      bad input (UsageError, a parse error) and 1 for a request that cannot be carried out
//      (Failure); --help prints help and exits 0.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "solver/rules/position.h"
#include "solver/rules/rules.h"
#include "solver/util/expected.h"
#include "tools/service/game_tables.h"
#include "tools/service/move_text.h"
#include "tools/service/validation.h"

namespace mancala::command_line {

// Bad input from the user: printed as "mancala: error: ..." with exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A request that cannot be carried out (an illegal move, a missing file): exit status 1.
struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A failure whose error line was printed already (by report_error, on the one process of an MPI
// job that speaks for all): exit status 1, nothing more printed.
struct ReportedFailure {};

// ---- The command line and its one error path

enum class CommandMode {
  Execute,    // parse, check, run
  ParseOnly,  // parse and check; run nothing (fuzzing, tests)
};

// Parses argv against `app` (its subcommands registered) and runs the chosen subcommand; returns
// the exit status (0, 1 or 2), having printed any error as "mancala: error: ...".
int run_command_line(CLI::App& app, int argc, const char* const* argv,
                     CommandMode mode = CommandMode::Execute);
// Whether the command line being parsed is to run its command (CommandMode::Execute).
bool executing();
// Registers a subcommand whose options' validators check everything: `run` does the work.
void set_command(CLI::App* cmd, std::function<void()> run);
// Registers a subcommand's check and work (steps 3 and 4 above): `check()` parses and checks what
// the validators cannot, once, and returns it; `run` is handed that value.
template <class Check, class Run>
void set_command(CLI::App* cmd, Check check, Run run) {
  cmd->callback([check = std::move(check), run = std::move(run)] {
    const auto parsed = check();
    if (executing()) run(parsed);
  });
}

// "mancala: error: MESSAGE" on standard error (control bytes escaped), flushed: the one error line.
void report_error(std::string_view message);
// "mancala: warning: MESSAGE" on standard error (control bytes escaped).
void warn(std::string_view message);

// `text` with terminal control bytes escaped (\x1b, \r, C1 controls, invalid UTF-8), for echoing
// anything read from a file or typed by a user. Line feeds and tabs are kept: messages have
// several lines.
std::string printable(std::string_view text);
// The same on one line: line feeds and tabs escaped too, for a protocol read line by line (the
// engine's answers).
std::string printable_line(std::string_view text);

// ---- Reading lines from a person or a GUI

// The longest line read (play, engine); the rest of a longer line is skipped.
inline constexpr size_t kMaxInputLine = 4096;
// One line of `in`, without its newline, of at most `max_bytes` (so that input without newlines,
// such as /dev/zero, cannot use up memory); false at the end of input. `too_long` says that the
// rest of the line, up to its newline, was skipped.
bool read_bounded_line(std::istream& in, std::string& line, bool& too_long,
                       size_t max_bytes = kMaxInputLine);

// ---- Option validators (step 2). Each names what it accepts in the option's help.

// A decimal integer in lo..hi.
CLI::Validator integer_in(int64_t lo, int64_t hi);
// A decimal unsigned integer in lo..hi (for uint64_t options such as seeds of random numbers).
CLI::Validator unsigned_in(uint64_t lo, uint64_t hi);
// A finite decimal number in lo..hi; with `above_lo`, strictly above lo.
CLI::Validator number_in(double lo, double hi, bool above_lo = false);
// Seconds: finite, above 0, at most a year.
CLI::Validator positive_seconds();
// A non-empty path.
CLI::Validator path_name();
// A computer level, kMinLevel..kMaxLevel.
CLI::Validator computer_level();
// A thread count: 1 to four times this machine's cores.
CLI::Validator thread_count();
// Megabytes of memory: 1 to this machine's memory.
CLI::Validator memory_megabytes();
// Gibibytes of memory (a budget): 0 to this machine's memory.
CLI::Validator memory_gibibytes();
// A table layer's seeds: 0..kMaxTableSeeds.
CLI::Validator table_seeds();

// The same checks for text that does not come through CLI11 (lines typed in `play`, HTTP
// parameters); the error names `what`.
Expected<int64_t> parse_integer(std::string_view text, int64_t lo, int64_t hi,
                                std::string_view what);
Expected<double> parse_number(std::string_view text, double lo, double hi, bool above_lo,
                              std::string_view what);

// The machine (tools/service/validation.h).
using service::machine_cores;
using service::machine_memory_bytes;
using service::max_threads;
// Throws Failure when `bytes` (for `what`) is more than this machine's memory.
void require_memory(uint64_t bytes, const std::string& what);

// ---- Turning user input into library values

Rules require_rules(const std::string& game);
// The start position when `text` is empty.
Position require_position(const Rules& rules, const std::string& text);
// A GAME and a position string (empty: the start) parsed together, as most commands take them.
struct RulesAndPosition {
  Rules rules;
  Position position;
};
RulesAndPosition require_rules_and_position(const std::string& game, const std::string& position);

// "1 thread", "4 threads": how a command's header line reports the threads it runs on.
std::string thread_count_text(int threads);

// The database directory of a --db / --out option (tools/service/game_tables.h).
using service::database_directory;

// The most bytes a game record (`play`'s load) may have.
inline constexpr size_t kMaxRecordBytes = 4u << 20;

// True when standard output is a terminal and NO_COLOR is unset.
bool stdout_is_color_terminal();
bool stderr_is_terminal();

// A line of moves as letters, a turn's sowings together, turns apart: "CF be A".
using service::line_by_turns;

}  // namespace mancala::command_line
