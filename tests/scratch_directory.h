// A fresh scratch directory for the running GoogleTest test.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace mancala::testing_helpers {

// TempDir()/<prefix>_<pid>_<test name>, empty: what a killed earlier run left there is removed
// first. The caller removes it when done.
inline std::filesystem::path fresh_test_directory(const std::string& prefix) {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) /
      (prefix + "_" + std::to_string(::getpid()) + "_" +
       ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace mancala::testing_helpers
