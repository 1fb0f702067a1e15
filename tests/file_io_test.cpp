// The one filesystem layer of db/ and tools/ (db/file_io.h): errors as values, reads that cannot
// hang or run without bound, writes that are whole or not at all.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "db/file_io.h"
#include "tests/scratch_directory.h"

// A namespace per file: the suite is compiled in unity batches.
namespace mancala::db::file_io_test {
namespace {

namespace fs = std::filesystem;

class FileIo : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing_helpers::fresh_test_directory("mancala_file_io"); }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const char* name) const { return (dir_ / name).string(); }
  static std::string contents(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  // Names in dir_ other than `except`: what a write left behind.
  std::vector<std::string> leftovers(const std::string& except) const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_))
      if (entry.path().filename() != except) names.push_back(entry.path().filename());
    return names;
  }

  fs::path dir_;
};

TEST_F(FileIo, PathKindTellsNothingFromFilesDirectoriesAndTheRest) {
  std::ofstream(path("file")) << "x";
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0644), 0);
  fs::create_symlink("loop", path("loop"));
  EXPECT_EQ(*path_kind(path("nothing")), PathKind::Missing);
  EXPECT_EQ(*path_kind(path("file") + "/below"), PathKind::Missing);
  EXPECT_EQ(*path_kind(path("file")), PathKind::Regular);
  EXPECT_EQ(*path_kind(dir_.string()), PathKind::Directory);
  EXPECT_EQ(*path_kind(path("fifo")), PathKind::Other);
  EXPECT_EQ(*path_kind(path("loop")), PathKind::Other);
}

TEST_F(FileIo, ReadingAFifoOrADeviceIsRefusedAtOnce) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0644), 0);
  Expected<std::string> fifo = read_whole_file(path("fifo"), 100);
  ASSERT_FALSE(fifo.ok());
  EXPECT_NE(fifo.error().find("is not a regular file"), std::string::npos) << fifo.error();
  Expected<std::string> zero = read_whole_file("/dev/zero", 100);
  ASSERT_FALSE(zero.ok());
  EXPECT_NE(zero.error().find("/dev/zero: is not a regular file"), std::string::npos)
      << zero.error();
  Expected<std::string> directory = read_whole_file(dir_.string(), 100);
  ASSERT_FALSE(directory.ok());
  EXPECT_NE(directory.error().find("is a directory"), std::string::npos) << directory.error();
}

TEST_F(FileIo, ReadWholeFileStopsAtItsCap) {
  std::ofstream(path("big")) << std::string(1000, 'a');
  EXPECT_EQ(read_whole_file(path("big"), 1000)->size(), 1000u);
  Expected<std::string> capped = read_whole_file(path("big"), 999);
  ASSERT_FALSE(capped.ok());
  EXPECT_NE(capped.error().find("too large"), std::string::npos) << capped.error();
  Expected<std::string> missing = read_whole_file(path("nothing"), 10);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("nothing: no such file"), std::string::npos) << missing.error();
}

TEST_F(FileIo, AtomicWriteReplacesTheFileWhole) {
  std::ofstream(path("record")) << "old";
  ASSERT_TRUE(write_file_atomically(path("record"), "new contents").ok());
  EXPECT_EQ(contents(path("record")), "new contents");
  EXPECT_TRUE(leftovers("record").empty());
}

TEST_F(FileIo, AtomicWriteKeepsTheTargetsPermissions) {
  std::ofstream(path("record")) << "old";
  fs::permissions(path("record"), fs::perms::owner_read | fs::perms::owner_write);
  ASSERT_TRUE(write_file_atomically(path("record"), "new").ok());
  EXPECT_EQ(fs::status(path("record")).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write);
}

// A full disk, as a file size limit makes one: the write fails, says why, and the old file and
// nothing else is left. (In a child process: the limit and the ignored SIGXFSZ are its own.)
TEST_F(FileIo, AtomicWriteOnAFullDiskLeavesTheOldFile) {
  std::ofstream(path("record")) << "old";
  const std::string target = path("record");
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{1024, 1024};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    Expected<bool> written = write_file_atomically(target, std::string(5000, 'x'));
    const bool said_why = !written.ok() &&
                          written.error().find("File too large") != std::string::npos &&
                          written.error().find("nothing was changed") != std::string::npos;
    ::_exit(said_why ? 0 : 1);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the failed write was not reported";
  EXPECT_EQ(contents(target), "old");
  EXPECT_TRUE(leftovers("record").empty());
}

TEST_F(FileIo, WritingToANonRegularFileWritesThroughAndChecks) {
  EXPECT_TRUE(write_file_atomically("/dev/null", "anything").ok());
  Expected<bool> full = write_file_atomically("/dev/full", "anything");
  ASSERT_FALSE(full.ok());
  EXPECT_NE(full.error().find("No space left on device"), std::string::npos) << full.error();
  // A FIFO nobody reads: an error at once, not a wait.
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0644), 0);
  EXPECT_FALSE(write_file_atomically(path("fifo"), "x").ok());
}

TEST_F(FileIo, AnAtomicFileDroppedUncommittedLeavesNothing) {
  {
    Expected<AtomicFile> file = AtomicFile::create(path("games.pgn"));
    ASSERT_TRUE(file.ok()) << file.error();
    ASSERT_TRUE(file.value().write("half").ok());
  }
  EXPECT_TRUE(leftovers("").empty());
}

TEST_F(FileIo, AnAtomicFileInAMissingDirectoryFailsAtCreate) {
  Expected<AtomicFile> file = AtomicFile::create(path("no-such-dir") + "/games.pgn");
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.error().find("No such file or directory"), std::string::npos) << file.error();
  EXPECT_FALSE(AtomicFile::create("").ok());
}

TEST_F(FileIo, AtomicWriteThroughASymlinkReplacesTheFileItNames) {
  std::ofstream(path("real")) << "old";
  fs::create_symlink("real", path("link"));
  ASSERT_TRUE(write_file_atomically(path("link"), "new").ok());
  EXPECT_TRUE(fs::is_symlink(path("link")));
  EXPECT_EQ(contents(path("real")), "new");
}

TEST_F(FileIo, StaleTemporariesAreRemovedAndNothingElse) {
  for (const char* name : {"seeds-03.mtb.tmp-aB3dEf", "seeds-04.mtb.tmp", "seeds-03.mtb", "other"})
    std::ofstream(path(name)) << "x";
  remove_stale_temporaries(dir_.string(), "seeds-");
  EXPECT_FALSE(fs::exists(path("seeds-03.mtb.tmp-aB3dEf")));
  EXPECT_FALSE(fs::exists(path("seeds-04.mtb.tmp")));
  EXPECT_TRUE(fs::exists(path("seeds-03.mtb")));
  EXPECT_TRUE(fs::exists(path("other")));
}

TEST_F(FileIo, OneWriterLockAtATime) {
  Expected<WriterLock> first = WriterLock::acquire(dir_.string());
  ASSERT_TRUE(first.ok()) << first.error();
  Expected<WriterLock> second = WriterLock::acquire(dir_.string());
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.error().find("process " + std::to_string(::getpid())), std::string::npos)
      << second.error();
  { WriterLock released = std::move(first.value()); }
  EXPECT_TRUE(WriterLock::acquire(dir_.string()).ok());
}

TEST_F(FileIo, ListingAndMakingDirectoriesReportErrors) {
  EXPECT_FALSE(list_directory(path("nothing")).ok());
  ASSERT_TRUE(make_directories(path("a/b/c")).ok());
  EXPECT_EQ(*path_kind(path("a/b/c")), PathKind::Directory);
  std::ofstream(path("file")) << "x";
  Expected<bool> under_file = make_directories(path("file") + "/d");
  ASSERT_FALSE(under_file.ok());
  EXPECT_EQ(*list_directory(path("a")), std::vector<std::string>{"b"});
}

}  // namespace
}  // namespace mancala::db::file_io_test
