// The command line's one error path and its validators (tools/command_line/command_line.h), driven
// in-process: command lines are parsed and checked without running anything
// (CommandMode::ParseOnly).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>
#include <vector>

#include "tools/command_line/command_line.h"
#include "tools/mancala_command.h"

// A namespace per file: the suite is compiled in unity batches.
namespace mancala::cli_test {

using namespace command_line;  // the helpers every command line shares
namespace {

// What the last parse printed on standard error.
std::string& last_error() {
  static std::string text;
  return text;
}

// The exit status of `mancala ARGS...`, parsed and checked only.
int parse(std::vector<std::string> args) {
  args.insert(args.begin(), "mancala");
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  ::testing::internal::CaptureStderr();
  ::testing::internal::CaptureStdout();
  const int status =
      run_command_line(static_cast<int>(argv.size()), argv.data(), CommandMode::ParseOnly);
  ::testing::internal::GetCapturedStdout();
  last_error() = ::testing::internal::GetCapturedStderr();
  return status;
}

TEST(CommandLine, WellFormedCommandLinesParse) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"play"},
           {"play", "oware", "--level", "6", "--seconds", "0.5", "--seed", "18446744073709551615"},
           {"perft", "kalah", "010"},  // decimal, not octal
           {"analyse", "kalah", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "--time", "1e-1"},
           {"solve", "kalah:3:3", "--hash", "1", "--table-memory", "0", "--threads", "1"},
           {"match", "kalah", "--a", "1", "--b", "6", "--nodes", "1", "--games", "1"},
           {"db", "build", "oware", "--max-seeds", "0", "--level", "22", "--block-size", "64"},
           {"db", "bench", "kalah", "-n", "1"},
           {"puzzles", "build", "oware", "--out", "p.json", "-n", "10", "--seed", "0",
            "--min-seeds", "4", "--max-seeds", "4", "--max-moves", "1"},
           {"puzzles", "verify", "p.json", "--db", "db"},
           {"serve", "--port", "0", "--threads", "1", "--queue", "1", "--http-threads", "1",
            "--max-connections", "1", "--request-seconds", "1", "--move-seconds", "0.5",
            "--analyse-seconds", "1", "--max-body", "1024"},
           {"--help"},
           {"db", "stats", "--help"},
       })
    EXPECT_EQ(parse(args), 0) << fmt::format("{}", fmt::join(args, " ")) << ": " << last_error();
}

struct BadCommandLine {
  std::vector<std::string> args;
  const char* message;
};

TEST(CommandLine, EveryBadInputExitsTwoWithOneKindOfMessage) {
  const std::vector<BadCommandLine> cases = {
      {{}, "A subcommand is required"},
      {{"chess"}, "chess"},
      {{"perft"}, "GAME is required"},
      {{"perft", "kalah", "x"}, "DEPTH: 'x' is not a whole number"},
      {{"perft", "kalah", "41"}, "DEPTH: must be from 1 to 40, not 41"},
      {{"perft", "chess", "3"}, "bad GAME 'chess'"},
      {{"play", "--bogus"}, "not expected: --bogus"},
      {{"play", "--level", "9"}, "--level: must be from 1 to 6, not 9"},
      {{"play", "--seconds", "0"}, "--seconds: must be more than 0"},
      {{"play", "--seed", "-1"}, "--seed: '-1' is not a whole number"},
      {{"play", "--db", ""}, "--db: an empty path"},
      {{"play", "kalah", "--position", "4-4-4"}, "position"},
      {{"analyse", "kalah", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "--depth", "0"},
       "--depth: must be from 1"},
      {{"analyse", "kalah", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "--time", "inf"},
       "--time: 'inf' is not a number"},
      {{"analyse", "kalah", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "--time", "nan"},
       "--time: 'nan' is not a number"},
      {{"analyse", "kalah", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "--time", "1e999"},
       "--time: must be more than 0"},
      {{"analyse", "kalah", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "--depth", "3", "--time", "1"},
       "excludes"},
      {{"solve", "kalah", "--hash", "-1"}, "--hash: must be at least 1, not -1"},
      {{"solve", "kalah", "--hash", "18446744073709551615"}, "--hash:"},
      {{"solve", "kalah", "--hash", "17592186044415"}, "more than this machine's memory"},
      {{"solve", "kalah", "--table-memory", "nan"}, "--table-memory: 'nan' is not a number"},
      {{"solve", "kalah:3:3", "--guess", "-30"}, "--guess: the value of this position lies in"},
      {{"solve", "kalah", "--max-seconds", "-1"}, "--max-seconds: must be more than 0"},
      {{"puzzles", "build", "kalah"}, "--out is required"},
      {{"puzzles", "build", "kalah", "-o", "p.json", "--count", "0"}, "--count: must be from 1"},
      {{"puzzles", "build", "kalah", "-o", "p.json", "--min-seeds", "9", "--max-seeds", "8"},
       "--min-seeds 9 is above --max-seeds 8"},
      {{"puzzles", "build", "chess", "-o", "p.json"}, "chess"},
      {{"puzzles", "verify"}, "FILE is required"},
      {{"match", "kalah", "--a", "7", "--b", "1"}, "--a: must be from 1 to 6, not 7"},
      {{"match", "kalah", "--a", "5", "--b", "5", "--nodes", "0"}, "--nodes: must be from 1"},
      {{"match", "kalah", "--a", "5", "--b", "5", "--games", "0"}, "--games: must be from 1"},
      {{"match", "kalah", "--a", "5", "--b", "5", "--pgn", ""}, "--pgn: an empty path"},
      {{"db", "build", "kalah", "--max-seeds", "2", "--level", "99"},
       "--level: must be from 1 to 22, not 99"},
      {{"db", "build", "kalah", "--max-seeds", "2", "--level", "-5"},
       "--level: must be from 1 to 22, not -5"},
      {{"db", "build", "kalah", "--max-seeds", "65"}, "--max-seeds: must be from 0 to 64"},
      {{"db", "build", "kalah", "--max-seeds", "64"}, "the deepest build that fits here goes to"},
      {{"db", "build", "kalah", "--max-seeds", "2", "--out", ""}, "--out: an empty path"},
      {{"db", "build", "kalah", "--max-seeds", "2", "--block-size", "4294967295"},
       "--block-size: must be from 64 to 1048576"},
      {{"db", "bench", "kalah", "-n", "18446744073709551615"},
       "--probes: must be from 1 to 1000000000"},
      {{"db", "verify", "x", "--threads", "0"}, "--threads: must be at least 1, not 0"},
      {{"db", "stats", "x", "--plot", ""}, "--plot: an empty path"},
      {{"serve", "--port", "65536"}, "--port: must be from 0 to 65535, not 65536"},
      {{"serve", "--host", ""}, "--host: an empty host"},
      {{"serve", "--db", ""}, "--db: an empty path"},
      {{"serve", "--threads", "100000"}, "--threads: at most"},
      {{"serve", "--queue", "0"}, "--queue: must be from 1"},
      {{"serve", "--http-threads", "100000"}, "--http-threads: must be from 1 to 4096"},
      {{"serve", "--max-connections", "0"}, "--max-connections: must be from 1 to 100000"},
      {{"serve", "--request-seconds", "3601"}, "--request-seconds: must be from 1 to 3600"},
      {{"serve", "--move-seconds", "inf"}, "--move-seconds: 'inf' is not a number"},
      {{"serve", "--analyse-seconds", "0"}, "--analyse-seconds: must be more than 0"},
      {{"serve", "--max-body", "18446744073709551616"}, "--max-body:"},
  };
  for (const BadCommandLine& c : cases) {
    const std::string shown = fmt::format("{}", fmt::join(c.args, " "));
    EXPECT_EQ(parse(c.args), 2) << shown;
    EXPECT_EQ(last_error().rfind("mancala: error: ", 0), 0u) << shown << ": " << last_error();
    EXPECT_NE(last_error().find(c.message), std::string::npos) << shown << ": " << last_error();
  }
}

TEST(CommandLine, ThreadsAreBoundedByFourTimesTheCores) {
  EXPECT_EQ(parse({"db", "verify", "x", "--threads", std::to_string(max_threads())}), 0);
  EXPECT_EQ(parse({"db", "verify", "x", "--threads", std::to_string(max_threads() + 1)}), 2);
  EXPECT_NE(last_error().find(fmt::format("at most {} (four times this machine's {} cores)",
                                          max_threads(), machine_cores())),
            std::string::npos)
      << last_error();
  EXPECT_EQ(parse({"match", "kalah", "--a", "1", "--b", "1", "-t", "100000"}), 2);
}

TEST(CommandLine, TheHashIsBoundedByTheMachinesMemory) {
  const uint64_t megabytes = machine_memory_bytes() >> 20;
  EXPECT_EQ(parse({"solve", "kalah", "--hash", std::to_string(megabytes)}), 0);
  EXPECT_EQ(parse({"solve", "kalah", "--hash", std::to_string(megabytes + 1)}), 2);
  EXPECT_NE(last_error().find("more than this machine's memory"), std::string::npos)
      << last_error();
}

TEST(CommandLine, ControlBytesInAnErrorAreEscaped) {
  EXPECT_EQ(parse({"perft", "\x1b[2J\x1b]0;title\x07kalah", "1"}), 2);
  EXPECT_EQ(last_error().find('\x1b'), std::string::npos) << last_error();
  EXPECT_NE(last_error().find("\\x1b[2J"), std::string::npos) << last_error();
}

TEST(Printable, EscapesControlBytesAndKeepsText) {
  EXPECT_EQ(printable("plain text"), "plain text");
  EXPECT_EQ(printable("two\nlines\tand a tab"), "two\nlines\tand a tab");
  EXPECT_EQ(printable("\x1b[31mred\x07\r"), "\\x1b[31mred\\x07\\x0d");
  EXPECT_EQ(printable("Aual\xc3\xa9"), "Aual\xc3\xa9");  // é is text
  EXPECT_EQ(printable("\xc2\x9b"
                      "2J"),
            "\\xc2\\x9b2J");                       // CSI as a C1 control is not
  EXPECT_EQ(printable("\xff\xfe"), "\\xff\\xfe");  // nor is invalid UTF-8
  EXPECT_EQ(printable("\xc3"), "\\xc3");           // a cut sequence
  EXPECT_EQ(printable("\x7f"), "\\x7f");
}

TEST(Validators, IntegersAreDecimalAndInRange) {
  EXPECT_EQ(*parse_integer("010", 0, 100, "n"), 10);
  EXPECT_EQ(*parse_integer("+7", 0, 100, "n"), 7);
  EXPECT_EQ(*parse_integer("-9223372036854775808", INT64_MIN, 0, "n"), INT64_MIN);
  EXPECT_FALSE(parse_integer("9223372036854775808", INT64_MIN, INT64_MAX, "n").ok());
  EXPECT_FALSE(parse_integer("99999999999999999999999", 0, 10, "n").ok());
  EXPECT_FALSE(parse_integer("0x10", 0, 100, "n").ok());
  EXPECT_FALSE(parse_integer(" 5", 0, 100, "n").ok());
  EXPECT_FALSE(parse_integer("", 0, 100, "n").ok());
  EXPECT_FALSE(parse_integer("-", 0, 100, "n").ok());
  Expected<int64_t> low = parse_integer("-1", 1, 6, "--level");
  ASSERT_FALSE(low.ok());
  EXPECT_EQ(low.error(), "--level: must be from 1 to 6, not -1");
}

TEST(Validators, NumbersAreFiniteDecimalsInRange) {
  EXPECT_DOUBLE_EQ(*parse_number("0.5", 0, 10, true, "t"), 0.5);
  EXPECT_DOUBLE_EQ(*parse_number("1e-3", 0, 10, true, "t"), 0.001);
  EXPECT_DOUBLE_EQ(*parse_number("-2.5", -3, 0, false, "t"), -2.5);
  EXPECT_DOUBLE_EQ(*parse_number("0", 0, 10, false, "t"), 0.0);
  for (const char* bad :
       {"0", "-1", "nan", "inf", "-inf", "1e999", "0x1p3", "1.2.3", "e5", "", "5s", " 1"})
    EXPECT_FALSE(parse_number(bad, 0, 10, true, "t").ok()) << bad;
}

}  // namespace
}  // namespace mancala::cli_test
