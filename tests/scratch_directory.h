// A fresh scratch directory for the running GoogleTest test.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include <gtest/gtest.h>

namespace mancala::testing_helpers {

// TempDir()/<prefix>_<pid>_<test name>, empty: what a killed earlier run left there is removed
// first. The caller removes it when done. A parameterised test's name holds a slash
// ("Probes/PlainLayer"): it becomes an underscore, so that the directory is one level deep and
// removing it leaves no parent behind.
inline std::filesystem::path fresh_test_directory(const std::string& prefix) {
  std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::replace(name.begin(), name.end(), '/', '_');
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) /
                                    (prefix + "_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// Removes `dir` and everything in it when the process ends: for scratch that a whole test process
// shares, such as tables built once and read by many tests, which no single test may remove.
inline void remove_at_exit(const std::filesystem::path& dir) {
  static struct Removals {
    std::vector<std::filesystem::path> dirs;
    ~Removals() {
      for (const std::filesystem::path& d : dirs) {
        std::error_code ignored;
        std::filesystem::remove_all(d, ignored);
      }
    }
  } removals;
  removals.dirs.push_back(dir);
}

}  // namespace mancala::testing_helpers
