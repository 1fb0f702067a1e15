// Fault injection for the table store and every file the command writes (issue 11): each case
// breaks something on disk, or the disk itself, under the real `mancala` binary, and asserts a
// clear error, no crash or hang, and nothing lost or trusted that should not be.
//
// Faults: a table directory the user cannot read (mode 000; as root, where mode 000 stops no
// read, the command runs as the user nobody), a symbolic link loop, a FIFO and a directory in
// place of layer files, a missing and two swapped layers, a layer truncated or rewritten in
// place under a running reader, a full disk (a file size limit) during build, unpack, save,
// match --pgn and db stats --plot, kill -9 during build and unpack (the resumed result must be
// byte for byte what an undisturbed run makes), and two writers at once.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tests/scratch_directory.h"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr uid_t kNobody = 65534;

struct RunOptions {
  std::string input;                       // standard input
  rlim_t file_size_limit = RLIM_INFINITY;  // bytes: a "full disk" for files written
  bool as_nobody = false;                  // drop root to the user nobody first
  double timeout_seconds = 120;
};

struct Result {
  int exit_code = -1;  // when it exited
  int signal = 0;      // when a signal ended it
  bool timed_out = false;
  std::string out, err;
};

std::string describe(const std::vector<std::string>& args) {
  std::string text = "mancala";
  for (const std::string& arg : args) text += " " + arg;
  return text;
}

// Starts `mancala ARGS` with pipes for its standard streams.
struct Child {
  pid_t pid = -1;
  int in = -1, out = -1, err = -1;
};

Child start(const std::vector<std::string>& args, const RunOptions& options = {}) {
  int in[2], out[2], err[2];
  if (::pipe(in) || ::pipe(out) || ::pipe(err)) return {};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) ::close(fd);
    if (options.file_size_limit != RLIM_INFINITY) {
      const rlimit limit{options.file_size_limit, options.file_size_limit};
      ::setrlimit(RLIMIT_FSIZE, &limit);
    }
    if (options.as_nobody && (::setgroups(0, nullptr) || ::setgid(kNobody) || ::setuid(kNobody)))
      ::_exit(125);
    std::vector<char*> argv = {const_cast<char*>(MANCALA_BINARY)};
    for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    ::execv(MANCALA_BINARY, argv.data());
    ::_exit(126);
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  return {pid, in[1], out[0], err[0]};
}

// Reads what is there without waiting.
void drain(int fd, std::string& into) {
  char buffer[4096];
  while (true) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 0) <= 0 || !(p.revents & (POLLIN | POLLHUP))) return;
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n <= 0) return;
    into.append(buffer, static_cast<size_t>(n));
  }
}

// Waits for the child, reading its output; kills it after the timeout.
Result finish(Child child, double timeout_seconds, Result result = {}) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeout_seconds);
  int status = 0;
  while (true) {
    drain(child.out, result.out);
    drain(child.err, result.err);
    const pid_t done = ::waitpid(child.pid, &status, WNOHANG);
    if (done == child.pid) break;
    if (Clock::now() > deadline) {
      ::kill(child.pid, SIGKILL);
      ::waitpid(child.pid, &status, 0);
      result.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  drain(child.out, result.out);
  drain(child.err, result.err);
  for (int fd : {child.in, child.out, child.err}) ::close(fd);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

Result run(const std::vector<std::string>& args, const RunOptions& options = {}) {
  Child child = start(args, options);
  if (!options.input.empty()) (void)!::write(child.in, options.input.data(), options.input.size());
  ::close(child.in);
  child.in = ::open("/dev/null", O_RDONLY);
  return finish(child, options.timeout_seconds);
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

bool wait_for(const std::function<bool()>& condition, double seconds) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  while (Clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return condition();
}

// Entries of a directory other than the writers' lock, by name, with their bytes (a
// subdirectory's are empty).
std::map<std::string, std::string> files_of(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_directory())
      files[entry.path().filename()] = "";
    else if (entry.path().filename() != ".mancala-writer.lock")
      files[entry.path().filename()] = read_file(entry.path());
  return files;
}

// The command lines that read the tables in `db`: every one must fail clearly or go on without
// them, never crash or hang.
std::vector<std::vector<std::string>> table_readers(const std::string& db) {
  const std::string four = "0-0-0-0-1-2-0-0-0-0-1-0-22-22-S";  // 4 seeds on the board
  return {
      {"db", "query", "kalah", four, "--db", db},
      {"db", "stats", db + "/kalah-6"},
      {"db", "info", db},
      {"db", "verify", db, "-q", "-t", "1"},
      {"db", "bench", "kalah", "--db", db, "-n", "1000", "-t", "1"},
      {"db", "unpack", "kalah", "--db", db, "-q", "-t", "1"},
      {"analyse", "kalah", four, "--depth", "4", "--db", db},
      {"solve", "kalah", "--position", four, "--db", db, "-t", "1", "-q"},
      {"match", "kalah:6:1", "--a", "6", "--b", "1", "--games", "2", "--nodes", "500", "-t", "1",
       "-q", "--db", db},
      {"play", "kalah:6:1", "--level", "6", "--db", db, "--no-color", "--seconds", "0.05"},
  };
}

class FaultInjection : public ::testing::Test {
 protected:
  // Tables the cases break (kalah:6, layers 0..10) and their plain copies, made once.
  static const fs::path& reference() {
    static const fs::path dir = [] {
      const fs::path d = fs::path(::testing::TempDir()) /
                         ("mancala_fault_reference_" + std::to_string(::getpid()));
      fs::remove_all(d);
      const Result built =
          run({"db", "build", "kalah", "--max-seeds", "10", "--out", d.string(), "-q", "-t", "2"});
      EXPECT_EQ(built.exit_code, 0) << built.err;
      fs::create_directories(d / "unpacked");
      fs::copy(d / "kalah-6", d / "unpacked" / "kalah-6", fs::copy_options::recursive);
      const Result unpacked =
          run({"db", "unpack", "kalah", "--db", (d / "unpacked").string(), "-q", "-t", "2"});
      EXPECT_EQ(unpacked.exit_code, 0) << unpacked.err;
      return d;
    }();
    return dir;
  }
  static void TearDownTestSuite() { fs::remove_all(reference()); }

  void SetUp() override {
    dir_ = mancala::testing_helpers::fresh_test_directory("mancala_fault");
    fs::permissions(dir_, fs::perms::all);  // others (nobody) may enter and write
  }
  void TearDown() override {
    std::error_code ignored;
    fs::permissions(table(), fs::perms::owner_all, ignored);
    fs::remove_all(dir_);
  }

  // A copy of the reference tables (compressed, or unpacked too) in dir_/db.
  std::string copy_tables(bool unpacked = false) {
    const fs::path from = unpacked ? reference() / "unpacked" : reference();
    fs::create_directories(dir_ / "db");
    fs::copy(from / "kalah-6", table(), fs::copy_options::recursive);
    return db();
  }
  std::string db() const { return (dir_ / "db").string(); }
  fs::path table() const { return dir_ / "db" / "kalah-6"; }
  fs::path layer(int seeds, bool plain = false) const {
    char name[32];
    std::snprintf(name, sizeof name, plain ? "seeds-%02d.plain.mtb" : "seeds-%02d.mtb", seeds);
    return table() / name;
  }

  // Runs every table reader over the broken tables: none may crash, hang or pass silently.
  void expect_every_reader_copes(const std::string& expected_message,
                                 const RunOptions& options = {}) {
    for (const std::vector<std::string>& args : table_readers(db())) {
      RunOptions with_input = options;
      with_input.input = "quit\n";
      const Result r = run(args, with_input);
      const std::string shown = describe(args) + "\nstdout: " + r.out + "\nstderr: " + r.err;
      EXPECT_FALSE(r.timed_out) << shown;
      EXPECT_EQ(r.signal, 0) << shown;
      EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << shown;
      EXPECT_EQ(r.err.find("terminate called"), std::string::npos) << shown;
      // A reader that did not fail said what it could not use (a command that never needed
      // the broken layer may say nothing).
      if (r.exit_code == 1) {
        EXPECT_NE(r.err.find("mancala: error: "), std::string::npos) << shown;
        EXPECT_NE((r.out + r.err).find(expected_message), std::string::npos) << shown;
      }
    }
  }

  fs::path dir_;
};

// ------------------------------------------------------------------ unreadable and odd files

TEST_F(FaultInjection, UnreadableTableDirectory) {
  copy_tables();
  fs::permissions(table(), fs::perms::none);
  RunOptions options;
  if (::geteuid() == 0) {
    // Root reads through mode 000; another user is what the fault is about.
    options.as_nobody = true;
    fs::permissions(dir_ / "db", fs::perms::all);
    if (run({"--help"}, options).exit_code != 0)
      GTEST_SKIP() << "running as root, and the user nobody cannot run " << MANCALA_BINARY
                   << " (a directory above it is closed to others), so mode 000 cannot be "
                      "tested here";
  }
  expect_every_reader_copes("Permission denied", options);
  const Result query = run(table_readers(db())[0], options);
  EXPECT_EQ(query.exit_code, 1);
  EXPECT_NE(query.err.find("Permission denied"), std::string::npos) << query.err;
}

TEST_F(FaultInjection, SymbolicLinkLoopAmongTheLayers) {
  copy_tables();
  fs::remove(layer(4));
  fs::create_symlink(layer(4).filename(), layer(4));
  expect_every_reader_copes("Too many levels of symbolic links");
}

TEST_F(FaultInjection, FifoInPlaceOfALayerHangsNothing) {
  copy_tables();
  fs::remove(layer(7));
  ASSERT_EQ(::mkfifo(layer(7).c_str(), 0644), 0);
  expect_every_reader_copes("is not a regular file");
  // What does not need the layer still works.
  const Result query =
      run({"db", "query", "kalah", "0-0-0-0-1-2-0-0-0-0-1-0-22-22-S", "--db", db()});
  EXPECT_EQ(query.exit_code, 0) << query.err;
  const Result build = run({"db", "build", "kalah", "--max-seeds", "7", "--out", db(), "-q"});
  EXPECT_EQ(build.exit_code, 1);
  EXPECT_NE(build.err.find("is not a regular file; remove it first"), std::string::npos)
      << build.err;
}

TEST_F(FaultInjection, DirectoryInPlaceOfALayer) {
  copy_tables();
  fs::remove(layer(4));
  fs::create_directory(layer(4));
  expect_every_reader_copes("is a directory");
}

TEST_F(FaultInjection, MissingMiddleLayer) {
  copy_tables();
  fs::remove(layer(6));
  const Result verify = run({"db", "verify", table().string(), "-q"});
  EXPECT_EQ(verify.exit_code, 1);
  EXPECT_NE(verify.out.find("seeds-06.mtb: missing"), std::string::npos) << verify.out;
  for (const std::vector<std::string>& args : table_readers(db())) {
    if (args[0] == "db" && args[1] == "verify") continue;
    const Result r = run(args, {.input = "quit\n"});
    EXPECT_EQ(r.signal, 0) << describe(args);
    EXPECT_NE(r.err.find("layer 6 is missing"), std::string::npos)
        << describe(args) << ": " << r.err;
  }
}

TEST_F(FaultInjection, SwappedLayersAreRefusedByEveryReader) {
  copy_tables();
  fs::rename(layer(5), dir_ / "x");
  fs::rename(layer(8), layer(5));
  fs::rename(dir_ / "x", layer(8));
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"db", "stats", table().string()},
           {"db", "info", table().string()},
           {"db", "verify", table().string(), "-q"},
           {"db", "query", "kalah", "0-0-0-1-1-2-0-1-0-0-0-0-21-22-S", "--db", db()}}) {
    const Result r = run(args);
    EXPECT_EQ(r.exit_code, 1) << describe(args) << ": " << r.out << r.err;
    EXPECT_NE((r.out + r.err).find("holds layer 8, expected 5"), std::string::npos)
        << describe(args) << ": " << r.out << r.err;
  }
}

// ------------------------------------------------------------------ files changed under a reader

// A match whose level-6 player reads plain layers while they are broken under it: it must warn
// that the tables failed and go on, never die of SIGBUS. `break_layer` breaks one layer; it is
// called for the layers the reader is seen to have open, and only those (a layer opened after it
// is broken fails at its open, with another message that could come first).
constexpr int kFirstWatchedLayer = 5, kLastWatchedLayer = 10;
void expect_reader_survives(const fs::path& db, const std::function<void(int seeds)>& break_layer) {
  Child match = start({"match", "kalah:6:1", "--a", "6", "--b", "6", "--games", "100000", "--nodes",
                       "2000", "-t", "1", "-q", "--no-balance", "--db", db.string()});
  // Layers are opened on their first probe: wait until the reader has mapped the watched layers,
  // so that the files change under live mappings (not before they are opened).
  const std::string maps = "/proc/" + std::to_string(match.pid) + "/maps";
  const bool mapped_all = wait_for(
      [&] {
        const std::string mapped = read_file(maps);
        for (int s = kFirstWatchedLayer; s <= kLastWatchedLayer; ++s) {
          char name[32];
          std::snprintf(name, sizeof name, "seeds-%02d.plain.mtb", s);
          if (mapped.find(name) == std::string::npos) return false;
        }
        return true;
      },
      60);
  if (!mapped_all) {
    ::kill(match.pid, SIGKILL);
    const Result r = finish(match, 10);
    FAIL() << "the reader never mapped layers " << kFirstWatchedLayer << ".." << kLastWatchedLayer
           << "\n"
           << r.err;
  }
  // A layer shows in the maps as soon as it is mapped, a moment before its open has checked the
  // index through the mapping; a change in that moment is refused at open ("checksum mismatch"),
  // not met by a live reader. Opening a layer of at most 10 seeds takes microseconds: let it end.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  for (int s = kFirstWatchedLayer; s <= kLastWatchedLayer; ++s) break_layer(s);
  Result partial;
  const bool warned = wait_for(
      [&] {
        drain(match.err, partial.err);
        return partial.err.find("endgame table probe failed") != std::string::npos;
      },
      60);
  int status = 0;
  const bool still_running = ::waitpid(match.pid, &status, WNOHANG) == 0;
  ::kill(match.pid, SIGKILL);
  const Result r = finish(match, 10, partial);
  EXPECT_TRUE(still_running) << "the reader died: "
                             << (WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "exit") << "\n"
                             << r.err;
  EXPECT_TRUE(warned) << r.err;
  EXPECT_NE(r.err.find("changed under this reader"), std::string::npos) << r.err;
}

TEST_F(FaultInjection, LayerTruncatedUnderARunningReader) {
  copy_tables(true);
  expect_reader_survives(
      db(), [&](int seeds) { ASSERT_EQ(::truncate(layer(seeds, true).c_str(), 300), 0); });
}

TEST_F(FaultInjection, LayerRewrittenInPlaceUnderARunningReader) {
  copy_tables(true);
  // What `cp smaller-file layer` does: truncate, then write the other file's bytes in place.
  const std::string other = read_file(layer(2, true));
  expect_reader_survives(db(), [&](int seeds) {
    std::ofstream out(layer(seeds, true), std::ios::binary | std::ios::trunc);
    out << other;
  });
}

// ------------------------------------------------------------------ a full disk

TEST_F(FaultInjection, FullDiskDuringBuildLosesNothingAndResumes) {
  RunOptions small_disk;
  small_disk.file_size_limit = 20000;  // layers 0..7 fit (9.3 kB coded), layer 8 does not
  const Result full = run(
      {"db", "build", "kalah", "--max-seeds", "10", "--out", db(), "-q", "-t", "2"}, small_disk);
  EXPECT_EQ(full.exit_code, 1) << full.out << full.err;
  EXPECT_NE(full.err.find("File too large"), std::string::npos) << full.err;
  const auto partial = files_of(table());
  for (const auto& [name, bytes] : partial) {
    EXPECT_EQ(name.find(".tmp"), std::string::npos) << name << " left behind";
    EXPECT_EQ(bytes, read_file(reference() / "kalah-6" / name)) << name << " is not whole";
  }
  EXPECT_FALSE(fs::exists(layer(8)));
  // Without -q, which prints nothing but errors: the table says which layers were kept.
  const Result resumed =
      run({"db", "build", "kalah", "--max-seeds", "10", "--out", db(), "-t", "2"});
  EXPECT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_NE(resumed.out.find("kept from an earlier build"), std::string::npos) << resumed.out;
  EXPECT_EQ(files_of(table()), files_of(reference() / "kalah-6"));
}

TEST_F(FaultInjection, FullDiskDuringUnpackLosesNothingAndResumes) {
  copy_tables();
  RunOptions small_disk;
  small_disk.file_size_limit = 20000;  // plain layers 0..6 fit, layer 7 does not
  const Result full = run({"db", "unpack", "kalah", "--db", db(), "-q", "-t", "2"}, small_disk);
  EXPECT_EQ(full.exit_code, 1) << full.out << full.err;
  EXPECT_NE(full.err.find("File too large"), std::string::npos) << full.err;
  EXPECT_FALSE(fs::exists(layer(7, true)));
  for (const auto& [name, bytes] : files_of(table()))
    EXPECT_EQ(name.find(".tmp"), std::string::npos) << name << " left behind";
  const Result resumed = run({"db", "unpack", "kalah", "--db", db(), "-q", "-t", "2"});
  EXPECT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_EQ(files_of(table()), files_of(reference() / "unpacked" / "kalah-6"));
}

TEST_F(FaultInjection, FullDiskDuringSaveKeepsTheOldRecord) {
  const fs::path record = dir_ / "game.txt";
  std::ofstream(record) << "the old record\n";
  RunOptions full;
  // 10 bytes: `play` between two people never starts OpenMP, whose LLVM runtime (clang builds)
  // needs to write 1 KiB when it starts (see the test below).
  full.file_size_limit = 10;
  full.input = "C\nsave " + record.string() + "\nquit\n";
  const Result r = run({"play", "kalah", "-2", "--no-color"}, full);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("could not save: " + record.string() + ": cannot write: File too large"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("saved"), std::string::npos) << r.out;
  EXPECT_EQ(read_file(record), "the old record\n");
  EXPECT_EQ(files_of(dir_).size(), 1u);  // no temporary left
  // /dev/full, the device that is always full.
  const Result device =
      run({"play", "kalah", "-2", "--no-color"}, {.input = "C\nsave /dev/full\nquit\n"});
  EXPECT_NE(device.out.find("could not save: /dev/full: cannot write: No space left on device"),
            std::string::npos)
      << device.out;
}

TEST_F(FaultInjection, FullDiskForMatchRecordsAndStatsPlotsKeepsTheOldFiles) {
  copy_tables();
  const fs::path pgn = dir_ / "games.pgn", plot = dir_ / "plot.svg";
  std::ofstream(pgn) << "old games\n";
  std::ofstream(plot) << "old plot\n";
  RunOptions full;
  // 2 KiB: the records of 20 games (~4 KiB) and the plot (~4.5 KiB) do not fit; the 1 KiB file
  // LLVM's OpenMP runtime writes when it starts (clang builds) does.
  full.file_size_limit = 2048;
  const Result match = run({"match", "kalah:3:2", "--a", "2", "--b", "1", "--games", "20", "-q",
                            "-t", "1", "--pgn", pgn.string()},
                           full);
  EXPECT_EQ(match.exit_code, 1) << match.err;
  EXPECT_NE(match.err.find("File too large"), std::string::npos) << match.err;
  EXPECT_EQ(read_file(pgn), "old games\n");
  const Result stats = run({"db", "stats", table().string(), "--plot", plot.string()}, full);
  EXPECT_EQ(stats.exit_code, 1) << stats.err;
  EXPECT_NE(stats.err.find("File too large"), std::string::npos) << stats.err;
  EXPECT_EQ(read_file(plot), "old plot\n");
  EXPECT_EQ(files_of(dir_).size(), 3u);  // db, and the two old files: no temporaries
}

// ------------------------------------------------------------------ kill -9 and two writers

// Starts `args` and kills it (SIGKILL) as soon as `started` exists: true when it died of that
// before it wrote `last`. These writers take a third of a second (a build) or 30 ms (an unpack), so
// a busy machine may wake this process too late: the callers try again.
bool killed_midway(const std::vector<std::string>& args, const fs::path& started,
                   const fs::path& last) {
  Child child = start(args);
  const bool seen = wait_for([&] { return fs::exists(started); }, 120);
  ::kill(child.pid, SIGKILL);
  const Result r = finish(child, 10);
  return seen && r.signal == SIGKILL && !fs::exists(last);
}

TEST_F(FaultInjection, KillDuringBuildThenResumeGivesTheSameBytes) {
  bool killed = false;
  for (int attempt = 0; attempt < 10 && !killed; ++attempt) {
    fs::remove_all(table());
    killed =
        killed_midway({"db", "build", "kalah", "--max-seeds", "10", "--out", db(), "-q", "-t", "1"},
                      layer(5), layer(10));
  }
  ASSERT_TRUE(killed) << "the build was never killed before its last layer";
  const Result resumed =
      run({"db", "build", "kalah", "--max-seeds", "10", "--out", db(), "-q", "-t", "2"});
  EXPECT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_EQ(files_of(table()), files_of(reference() / "kalah-6"));
}

TEST_F(FaultInjection, KillDuringUnpackThenResumeGivesTheSameBytes) {
  copy_tables();
  bool killed = false;
  for (int attempt = 0; attempt < 10 && !killed; ++attempt) {
    for (int s = 0; s <= 10; ++s) fs::remove(layer(s, true));
    killed = killed_midway({"db", "unpack", "kalah", "--db", db(), "-q", "-t", "1"}, layer(0, true),
                           layer(10, true));
  }
  ASSERT_TRUE(killed) << "the unpack was never killed before its last layer";
  const Result resumed = run({"db", "unpack", "kalah", "--db", db(), "-q", "-t", "2"});
  EXPECT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_EQ(files_of(table()), files_of(reference() / "unpacked" / "kalah-6"));
}

TEST_F(FaultInjection, TwoWritersAtOnce) {
  Child first =
      start({"db", "build", "kalah", "--max-seeds", "10", "--out", db(), "-q", "-t", "1"});
  // The whole build takes a third of a second: as soon as the first writer has written its first
  // layer (so that there are tables to unpack) it is held there, stopped with the lock still
  // taken, while the other two try, so that they meet it however slowly this machine starts them.
  ASSERT_TRUE(wait_for([&] { return fs::exists(layer(0)); }, 120));
  ::kill(first.pid, SIGSTOP);
  const bool held_in_time = !fs::exists(layer(10));
  Result second, unpack;
  if (held_in_time) {
    second = run({"db", "build", "kalah", "--max-seeds", "10", "--out", db(), "-q", "-t", "1"});
    unpack = run({"db", "unpack", "kalah", "--db", db(), "-q"});
  }
  ::kill(first.pid, SIGCONT);
  const Result done = finish(first, 300);
  ASSERT_TRUE(held_in_time) << "the first writer had finished before it could be held";
  for (const Result* refused : {&second, &unpack}) {
    EXPECT_EQ(refused->exit_code, 1) << refused->err;
    EXPECT_NE(refused->err.find("another mancala process (process " + std::to_string(first.pid) +
                                ") is writing these tables"),
              std::string::npos)
        << refused->err;
  }
  EXPECT_EQ(done.exit_code, 0) << done.err;
  EXPECT_EQ(files_of(table()), files_of(reference() / "kalah-6"));
  const Result verify = run({"db", "verify", table().string(), "-q"});
  EXPECT_EQ(verify.exit_code, 0) << verify.out << verify.err;
}

}  // namespace
