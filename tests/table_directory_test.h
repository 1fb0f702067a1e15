// A test fixture with a fresh database directory of its own (removed after the test), and the
// table build and layer paths that the table tests share.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <utility>

#include "db/table_build.h"
#include "db/table_format.h"
#include "solver/rules/rules.h"
#include "tests/scratch_directory.h"

namespace mancala::db::testing_tables {

class TableDirectoryTest : public ::testing::Test {
 protected:
  // `prefix` names the scratch directory, so that a failed test's leftovers say whose they are.
  explicit TableDirectoryTest(std::string prefix) : prefix_(std::move(prefix)) {}
  void SetUp() override { dir_ = testing_helpers::fresh_test_directory(prefix_); }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Builds `game`'s tables up to `seeds` into dir_.
  void build(const char* game, int seeds, WriteOptions write = {}) {
    BuildRequest request{*parse_rules(game), seeds, dir_.string(), write, 0, {}};
    Expected<bool> done = build_tables(request, {}, {});
    ASSERT_TRUE(done.ok()) << done.error();
  }
  std::string layer_path(const char* table_dir, int seeds) const {
    return (dir_ / table_dir / layer_file_name(seeds)).string();
  }

  std::filesystem::path dir_;

 private:
  std::string prefix_;
};

}  // namespace mancala::db::testing_tables
