// The distributed build (db/table_build_mpi.h) as users run it: the `mancala` binary under a
// real `mpirun`, on 1 to 4 ranks (oversubscribed on a small machine), against the one-machine
// build's files byte for byte; a job killed mid-layer and resumed; a rank killed mid-build.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/scratch_directory.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;

// Tables to 10 seeds (Oware: 0.65 M positions); fewer in a sanitizer build, whose ranks run many
// times slower (MANCALA_MPI_TEST_SEEDS).
constexpr int kMaxSeeds = MANCALA_MPI_TEST_SEEDS;

// OpenMPI refuses to start as root (CI runs as root) unless told. A small machine has fewer cores
// than the ranks these tests start (--oversubscribe), and shares them with other work: a rank
// waiting for the others yields its core instead of spinning on it (mpi_yield_when_idle).
void allow_mpirun() {
  setenv("OMP_WAIT_POLICY", "passive", 1);  // threads of a rank also share the cores
#ifdef MANCALA_SANITIZED_RANKS
  // The ranks' MPI library keeps allocations until exit in plugins it unloads at MPI_Finalize,
  // which LeakSanitizer can neither attribute nor suppress: leaks go unchecked in the ranks
  // (every other AddressSanitizer and UndefinedBehaviorSanitizer check stays on).
  const char* asan = std::getenv("ASAN_OPTIONS");
  setenv("ASAN_OPTIONS", ((asan ? std::string(asan) + ":" : "") + "detect_leaks=0").c_str(), 1);
#endif
  setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
  setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
}

std::string mpirun(int ranks) {
  allow_mpirun();
  return std::string(MANCALA_MPIEXEC) +
         " --oversubscribe --bind-to none --mca mpi_yield_when_idle 1 -np " +
         std::to_string(ranks) + " " + MANCALA_BINARY;
}

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

CommandResult run(const std::string& command) {
  CommandResult result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string scratch(const std::string& name) {
  const fs::path dir =
      fs::path(::testing::TempDir()) / ("mancala_mpi_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

std::string layer_name(int seeds) {
  char name[32];
  std::snprintf(name, sizeof name, "seeds-%02d.mtb", seeds);
  return name;
}

// The one-machine build of `game` to `max_seeds` in `encoding` (coded: format version 2, zstd:
// version 1), built once per test process.
std::string reference(const std::string& game, int max_seeds = kMaxSeeds,
                      const std::string& encoding = "coded") {
  static std::map<std::string, std::string> built;
  const std::string key = game + "/" + std::to_string(max_seeds) + "/" + encoding;
  if (auto it = built.find(key); it != built.end()) return it->second;
  std::string name = game + "_" + std::to_string(max_seeds) + "_" + encoding;
  for (char& c : name)
    if (c == ':') c = '_';
  const std::string dir = scratch("reference_" + name);
  // The reference builds serve the whole process, and go when it ends.
  mancala::testing_helpers::remove_at_exit(dir);
  const CommandResult r =
      run(std::string(MANCALA_BINARY) + " db build " + game + " --max-seeds " +
          std::to_string(max_seeds) + " --encoding " + encoding + " --quiet --out " + dir);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return built[key] = dir;
}

// How many lines of `output` hold `text`.
int lines_with(const std::string& output, const std::string& text) {
  std::istringstream lines(output);
  int count = 0;
  for (std::string line; std::getline(lines, line);)
    if (line.find(text) != std::string::npos) ++count;
  return count;
}

// Every layer file of table directory `table` is the same in both database directories.
void expect_same_layers(const std::string& expected_db, const std::string& actual_db,
                        const std::string& table, int max_seeds = kMaxSeeds) {
  for (int s = 0; s <= max_seeds; ++s) {
    const std::string expected = expected_db + "/" + table + "/" + layer_name(s);
    const std::string actual = actual_db + "/" + table + "/" + layer_name(s);
    ASSERT_TRUE(fs::exists(actual)) << actual;
    EXPECT_TRUE(read_bytes(expected) == read_bytes(actual))
        << actual << " differs from " << expected;
  }
  for (const auto& entry : fs::directory_iterator(actual_db + "/" + table))
    EXPECT_EQ(entry.path().extension(), ".mtb") << "left behind: " << entry.path();
}

struct BuildCase {
  const char* game;
  const char* table;
  int ranks;
  int threads;
  const char* partition;
  const char* encoding = "coded";
};

std::string case_name(const ::testing::TestParamInfo<BuildCase>& info) {
  std::string name = std::string(info.param.table) + "_" + std::to_string(info.param.ranks) +
                     "_ranks_" + std::to_string(info.param.threads) + "_threads_" +
                     info.param.partition + "_" + info.param.encoding;
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

// How GoogleTest (and so ctest's list) shows a case: its name, not the bytes of the struct.
void PrintTo(const BuildCase& c, std::ostream* out) {
  *out << case_name({c, 0});
}

class DistributedBuild : public ::testing::TestWithParam<BuildCase> {};

TEST_P(DistributedBuild, GivesTheOneMachineBuildsBytes) {
  const BuildCase& c = GetParam();
  const std::string out = scratch(case_name({c, 0}));
  const CommandResult r =
      run(mpirun(c.ranks) + " db build " + c.game + " --max-seeds " + std::to_string(kMaxSeeds) +
          " --mpi --threads " + std::to_string(c.threads) + " --partition " + c.partition +
          " --encoding " + c.encoding + " --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(std::to_string(c.ranks) + " ranks x " + std::to_string(c.threads) +
                          (c.threads == 1 ? " thread," : " threads,")),
            std::string::npos)
      << r.output;
  expect_same_layers(reference(c.game, kMaxSeeds, c.encoding), out, c.table);
  fs::remove_all(out);
}

// Every game with 1 to 4 ranks (4 ranks on fewer cores: oversubscribed), then several threads in
// each rank and the other way of cutting layers. A sanitized build runs 1 and 3 ranks only: the
// same code paths (one rank, uneven shares), at a fraction of the time under AddressSanitizer.
std::vector<BuildCase> build_cases() {
  const std::pair<const char*, const char*> games[] = {
      {"oware:4:abapa", "oware-abapa"},
      {"oware:4:awari", "oware-awari"},
      {"kalah:6:4", "kalah-6"},
      {"kalah:6:4:empty-capture", "kalah-6-empty-capture"}};
#ifdef MANCALA_SANITIZED_RANKS
  const int rank_counts[] = {1, 3};
#else
  const int rank_counts[] = {1, 2, 3, 4};
#endif
  std::vector<BuildCase> cases;
  for (const auto& [game, table] : games)
    for (const int ranks : rank_counts) cases.push_back({game, table, ranks, 1, "interleaved"});
  cases.push_back({"oware:4:abapa", "oware-abapa", 2, 2, "interleaved"});
  cases.push_back({"oware:4:awari", "oware-awari", 3, 1, "ranges"});
  cases.push_back({"kalah:6:4", "kalah-6", 2, 2, "ranges"});
  // Format version 1 (zstd blocks), still written on request, the same bytes too.
  cases.push_back({"kalah:6:4", "kalah-6", 3, 1, "interleaved", "zstd"});
  cases.push_back({"oware:4:abapa", "oware-abapa", 2, 2, "ranges", "zstd"});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(EveryGameWithTables, DistributedBuild, ::testing::ValuesIn(build_cases()),
                         case_name);

// A job started in the background, its output in a file.
struct Job {
  pid_t pid = -1;
  std::string log;
};

Job start(const std::string& command, const std::string& log) {
  Job job;
  job.log = log;
  std::vector<std::string> words;
  std::istringstream in(command);
  for (std::string w; in >> w;) words.push_back(w);
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawn(&job.pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return job;
}

// Waits for the job to end, at most `limit`; its exit status, or -1 if it was still running
// (then it is killed, so a failing test does not leave it behind).
int wait_for(const Job& job, std::chrono::seconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    int status = 0;
    if (waitpid(job.pid, &status, WNOHANG) == job.pid)
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  kill(job.pid, SIGKILL);
  waitpid(job.pid, nullptr, 0);
  return -1;
}

bool wait_for_file(const std::string& path, std::chrono::seconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (fs::exists(path)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

// The processes whose parent is `parent` (mpirun's ranks).
std::vector<pid_t> children_of(pid_t parent) {
  std::vector<pid_t> children;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    // pid (comm) state ppid ...: comm may hold spaces, so read after its closing parenthesis.
    const size_t close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    char state;
    pid_t ppid = 0;
    rest >> state >> ppid;
    if (ppid == parent && line.find("(mancala)") != std::string::npos)
      children.push_back(static_cast<pid_t>(std::stoi(name)));
  }
  return children;
}

// Has process `pid` ended (gone, or a zombie nobody reaps), within a few seconds?
bool ended(pid_t pid) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < end) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return true;
    const size_t close = line.rfind(')');
    if (close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z')
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

TEST(DistributedBuildResume, JobKilledMidLayerResumesToTheSameBytes) {
  // Two layers above the others' tables: the last layers take long enough to be killed inside.
  const int seeds = kMaxSeeds + 2;
  const std::string out = scratch("killed_job");
  const std::string table = out + "/oware-abapa";
  Job job = start(mpirun(2) + " db build oware --max-seeds " + std::to_string(seeds) +
                      " --quiet --mpi --threads 1 --out " + out,
                  out + "/first.log");
  // Stop the job (as a scheduler does, with SIGTERM to mpirun and its processes) once layer
  // seeds-3 is written: it is then inside layer seeds-2. The ranks are frozen first, at once: the
  // three layers left take about a second, and on a loaded machine (a clean-clone CI run beside
  // a build) they were once all written before mpirun had passed the signal on. A frozen rank
  // ends on the signal waiting for it as soon as it runs again.
  ASSERT_TRUE(wait_for_file(table + "/" + layer_name(seeds - 3), std::chrono::seconds(120)));
  const std::vector<pid_t> ranks = children_of(job.pid);
  ASSERT_EQ(ranks.size(), 2u);
  for (pid_t rank : ranks) kill(rank, SIGSTOP);
  kill(job.pid, SIGTERM);
  for (pid_t rank : ranks) {
    kill(rank, SIGTERM);
    kill(rank, SIGCONT);
  }
  EXPECT_NE(wait_for(job, std::chrono::seconds(60)), -1) << "mpirun did not stop";
  for (pid_t rank : ranks) EXPECT_TRUE(ended(rank)) << "rank process " << rank << " is left";
  EXPECT_FALSE(fs::exists(table + "/" + layer_name(seeds))) << "the job ended before the kill";
  // Resume with another number of ranks: finished layers are kept, the rest built.
  const CommandResult resumed = run(mpirun(3) + " db build oware --max-seeds " +
                                    std::to_string(seeds) + " --mpi --threads 1 --out " + out);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("(kept from an earlier build)"), std::string::npos)
      << resumed.output;
  expect_same_layers(reference("oware", seeds), out, "oware-abapa", seeds);
  fs::remove_all(out);
}

TEST(DistributedBuildResume, HalfWrittenFilesAreBuiltAgainNotTrusted) {
  const int seeds = kMaxSeeds - 2;
  const std::string out = scratch("half_written");
  const std::string table = out + "/kalah-6";
  const CommandResult first =
      run(mpirun(2) + " db build kalah --max-seeds " + std::to_string(seeds - 1) +
          " --quiet --mpi --threads 1 --out " + out);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  // The last layer cut short under its real name, a flipped byte in the data of the one below,
  // and the temporary file of the next layer left by a job that died while writing it.
  const std::string last = table + "/" + layer_name(seeds - 1);
  fs::resize_file(last, fs::file_size(last) / 2);
  {
    std::fstream f(table + "/" + layer_name(seeds - 2),
                   std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(-10, std::ios::end);
    const char byte = static_cast<char>(f.get() ^ 0x40);
    f.seekp(-10, std::ios::end);
    f.put(byte);
  }
  std::ofstream(table + "/" + layer_name(seeds) + ".tmp") << "half a file";
  const CommandResult resumed = run(mpirun(3) + " db build kalah --max-seeds " +
                                    std::to_string(seeds) + " --mpi --threads 1 --out " + out);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  // Layers 0 .. seeds-3 kept; the damaged two and the new one built.
  EXPECT_EQ(lines_with(resumed.output, "(kept from an earlier build)"), seeds - 2)
      << resumed.output;
  expect_same_layers(reference("kalah", seeds), out, "kalah-6", seeds);
  fs::remove_all(out);
}

// Kept layers with plain copies beside them (`db unpack`) are read from the copies: each rank
// copies its part, nothing is decoded, and the bytes are the same.
TEST(DistributedBuildResume, KeptLayersAreReadFromTheirPlainCopies) {
  const int seeds = kMaxSeeds;
  const std::string out = scratch("plain_copies");
  const CommandResult first =
      run(mpirun(2) + " db build oware --max-seeds " + std::to_string(seeds - 1) +
          " --quiet --mpi --threads 1 --out " + out);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const CommandResult unpacked =
      run(std::string(MANCALA_BINARY) + " db unpack oware --quiet --db " + out);
  ASSERT_EQ(unpacked.exit_code, 0) << unpacked.output;
  // The one-machine unpack leaves its writer's lock file, which the check of the files below takes
  // for something the distributed build left behind.
  for (const auto& entry : fs::directory_iterator(out + "/oware-abapa"))
    if (entry.path().extension() != ".mtb") fs::remove(entry.path());
  const CommandResult resumed = run(mpirun(3) + " db build oware --max-seeds " +
                                    std::to_string(seeds) + " --mpi --threads 1 --out " + out);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  // Layers 0 .. seeds-1.
  EXPECT_EQ(lines_with(resumed.output, "(kept from an earlier build, read from its plain copy)"),
            seeds)
      << resumed.output;
  expect_same_layers(reference("oware", seeds), out, "oware-abapa", seeds);
  fs::remove_all(out);
}

TEST(DistributedBuildFailure, RankThatDiesStopsTheWholeJobWithAnError) {
  const std::string out = scratch("dead_rank");
  const std::string table = out + "/oware-abapa";
  Job job =
      start(mpirun(3) + " db build oware --max-seeds 16 --quiet --mpi --threads 1 --out " + out,
            out + "/job.log");
  ASSERT_TRUE(wait_for_file(table + "/" + layer_name(10), std::chrono::seconds(120)));
  const std::vector<pid_t> ranks = children_of(job.pid);
  ASSERT_EQ(ranks.size(), 3u);
  kill(ranks.back(), SIGKILL);
  const int status = wait_for(job, std::chrono::seconds(60));
  ASSERT_NE(status, -1) << "the other ranks kept waiting for the dead one";
  EXPECT_NE(status, 0);
  const std::string log = read_bytes(job.log);
  EXPECT_NE(log.find("exited on signal 9"), std::string::npos) << log;
  EXPECT_FALSE(fs::exists(table + "/" + layer_name(16)));
  for (pid_t rank : ranks) EXPECT_TRUE(ended(rank)) << "rank process " << rank << " is left";
  fs::remove_all(out);
}

size_t occurrences(const std::string& text, const std::string& part) {
  size_t count = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

// Every rank finds the same error at once, so any of them may be the first to stop: rank 0 must
// still have said it, once, whatever the order. Run with 2 and 3 ranks, several times (the order
// in which the ranks stop varies run to run; scripts/stress-tests.sh runs it hundreds of times
// beside the rest of the suite).
TEST(DistributedBuildFailure, OutputDirectoryThatCannotBeCreatedIsAnErrorOnEveryRank) {
  for (int ranks : {2, 3, 2, 3}) {
    const CommandResult r =
        run(mpirun(ranks) + " db build oware --max-seeds 3 --quiet --mpi --out /proc/nope");
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_EQ(occurrences(r.output, "mancala: error: /proc/nope/oware-abapa: cannot create"), 1u)
        << ranks << " ranks:\n"
        << r.output;
    EXPECT_EQ(occurrences(r.output, "mancala: error:"), 1u) << r.output;
    // --quiet: nothing but the error (and mpiexec's own words on the status).
    EXPECT_EQ(r.output.find("seeds"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("building"), std::string::npos) << r.output;
  }
}

// Each machine must hold the parts of the ranks it runs: a build far beyond it is refused before
// anything is built, with what it would need and the deepest that fits, said once by rank 0.
TEST(DistributedBuildFailure, BuildBeyondTheMachinesMemoryIsRefusedUpFront) {
  const std::string out = scratch("too_deep");
  const CommandResult r = run(mpirun(2) + " db build kalah --max-seeds 40 --mpi --out " + out);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(occurrences(r.output, "mancala: error: layers up to 40 seeds over 2 ranks need about "),
            1u)
      << r.output;
  EXPECT_NE(r.output.find("GB on this machine, which runs 2 of them and has "), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("the deepest build that fits here goes to "), std::string::npos)
      << r.output;
  // Refused before the table's header, and nothing made.
  EXPECT_EQ(r.output.find("building"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out + "/kalah-6")) << r.output;
  fs::remove_all(out);
}

TEST(DistributedBuildQuiet, PrintsNothingWhenTheBuildSucceeds) {
  const std::string out = scratch("quiet");
  const CommandResult r =
      run(mpirun(2) + " db build oware --max-seeds 4 --quiet --mpi --threads 1 --out " + out);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "");
  fs::remove_all(out);
}

TEST(WithoutMpi, QuietPrintsNothingButErrors) {
  const std::string out = scratch("quiet_one_machine");
  const CommandResult built =
      run(std::string(MANCALA_BINARY) + " db build kalah --max-seeds 4 --quiet --out " + out);
  EXPECT_EQ(built.exit_code, 0) << built.output;
  EXPECT_EQ(built.output, "");
  const CommandResult failed =
      run(std::string(MANCALA_BINARY) + " db build kalah --max-seeds 4 --quiet --out /proc/nope");
  EXPECT_EQ(failed.exit_code, 1) << failed.output;
  EXPECT_EQ(failed.output.rfind("mancala: error: /proc/nope: cannot create the directory", 0), 0u)
      << failed.output;
  EXPECT_EQ(occurrences(failed.output, "\n"), 1u) << failed.output;
  fs::remove_all(out);
}

TEST(WithoutMpi, BuildNeverStartsMpi) {
  // An MPI whose message layer cannot load: starting it fails. Without --mpi the build must not
  // notice (it never starts MPI, so it needs no mpirun); with --mpi it fails, which shows that
  // the check would see MPI being started.
  allow_mpirun();
  const std::string broken = "OMPI_MCA_pml=no_such_component ";
  const std::string out = scratch("without_mpi");
  const CommandResult plain =
      run(broken + MANCALA_BINARY + " db build oware --max-seeds 4 --quiet --out " + out);
  EXPECT_EQ(plain.exit_code, 0) << plain.output;
  const CommandResult with_mpi =
      run(broken + MANCALA_BINARY + " db build oware --max-seeds 4 --quiet --mpi --out " + out);
  EXPECT_NE(with_mpi.exit_code, 0) << with_mpi.output;
  fs::remove_all(out);
}

}  // namespace
