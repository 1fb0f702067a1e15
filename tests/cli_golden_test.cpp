// Golden-output tests of the mancala command: each case runs the built binary and compares its
// exit status, standard output and standard error with tests/golden/NAME.txt. Timings are masked.
// To accept new output deliberately: MANCALA_UPDATE_GOLDEN=1 ctest -R Golden, then review the diff.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace {

struct GoldenCase {
  const char* name;
  const char* arguments;
};

const GoldenCase kCases[] = {
    {"perft_kalah", "perft kalah 5"},
    {"perft_oware_json", "perft oware 4 --json"},
    {"perft_congkak_position", "perft congkak:3:2 3 --position 2-2-2-2-2-2-0-0-N"},
    {"apply_kalah", "apply kalah C F b"},
    {"apply_joined_letters", "apply kalah CFb"},
    {"apply_json", "apply oware --json F a E b D c"},
    {"apply_json_game_over", "apply kalah:1:1 A --json"},
    {"apply_illegal_move", "apply kalah C a"},
    {"apply_empty_house", "apply kalah C C"},
    {"apply_after_game_over", "apply kalah:1:1 A a"},
    {"bad_game", "perft chess 3"},
    {"bad_game_houses", "apply kalah:13:4"},
    {"bad_position_field_count", "apply kalah --position 4-4-4"},
    {"bad_position_number", "apply kalah --position 4-4-4-4-4-x-4-4-4-4-4-4-0-0-S"},
    {"bad_position_total", "apply kalah --position 4-4-4-4-4-4-4-4-4-4-4-5-0-0-S"},
    {"bad_position_side", "apply kalah --position 4-4-4-4-4-4-4-4-4-4-4-4-0-0-X"},
    {"bad_perft_depth", "perft kalah 0"},
};

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string mask_timings(const std::string& text) {
  static const std::regex number_with_point("[0-9]+\\.[0-9]+M?");
  return std::regex_replace(text, number_with_point, "<t>");
}

std::string run_case(const GoldenCase& c) {
  const std::string err_path = ::testing::TempDir() + "golden_stderr.txt";
  const std::string command =
      std::string(MANCALA_BINARY) + " " + c.arguments + " 2>" + err_path;
  FILE* pipe = popen(command.c_str(), "r");
  EXPECT_NE(pipe, nullptr);
  std::string out;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  const int status = pclose(pipe);
  const int exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return mask_timings("$ mancala " + std::string(c.arguments) + "\nexit: " +
                      std::to_string(exit_code) + "\n--- stdout\n" + out + "--- stderr\n" +
                      read_file(err_path));
}

class Golden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(Golden, OutputMatches) {
  const GoldenCase& c = GetParam();
  const std::string actual = run_case(c);
  const std::string path = std::string(MANCALA_GOLDEN_DIR) + "/" + c.name + ".txt";
  if (std::getenv("MANCALA_UPDATE_GOLDEN")) {
    std::ofstream(path) << actual;
    GTEST_SKIP() << "rewrote " << path;
  }
  EXPECT_EQ(actual, read_file(path)) << "golden file " << path;
}

INSTANTIATE_TEST_SUITE_P(Cli, Golden, ::testing::ValuesIn(kCases),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

}  // namespace
