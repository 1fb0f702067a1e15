// Golden-output tests of the mancala command: each case runs the built binary and compares its
// exit status, standard output and standard error with tests/golden/NAME.txt. Measured times
// and rates are masked, field by field (timing_masks); every other value is compared.
// To accept new output deliberately: MANCALA_UPDATE_GOLDEN=1 ctest -R Golden, then review the diff.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/scratch_directory.h"

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
    // {db} is a directory of small tables the harness builds first (kalah:6 and oware, 6 seeds).
    {"db_query", "db query kalah 0-0-0-0-1-2-0-0-0-0-1-0-22-22-S --db {db}"},
    {"db_query_json", "db query oware 0-0-0-0-2-1-1-0-1-0-0-0-20-23-N --json --db {db}"},
    {"db_query_not_covered", "db query kalah 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S --db {db}"},
    {"db_query_game_over", "db query oware 1-0-0-0-0-0-0-0-0-0-0-1-25-21-S --db {db}"},
    {"db_query_congkak", "db query congkak 7-7-7-7-7-7-7-7-7-7-7-7-7-7-0-0-S --db {db}"},
    {"db_info_layer", "db info {db}/kalah-6/seeds-03.mtb"},
    {"db_stats_csv", "db stats {db}/kalah-6 --csv"},
    {"db_stats_table", "db stats {db}/oware-abapa --plot /dev/null"},
    {"db_info_directory", "db info {db}"},
    {"db_verify", "db verify {db}/oware-abapa --quiet"},
    {"db_verify_missing", "db verify {db}/nothing-here"},
    // Layers 0..3 have no more than 1000 positions: checked whole; 4..6 drawn from.
    {"db_verify_sample", "db verify {db}/oware-abapa --quiet --sample 1000 --seed 3"},
    {"db_verify_seed_needs_sample", "db verify {db}/oware-abapa --seed 3"},
    // {fresh_db} is a copy of {db} for the one case, which may write to it; {mancala} is the
    // binary, for a case that runs it twice.
    {"db_unpack", "db unpack kalah --db {fresh_db} --threads 1 -q"},
    // --threads travels to the build as a value: the header says how many build (and write).
    {"db_build_one_thread",
     "db build kalah --max-seeds 3 --threads 1 --out {fresh_db}/new -q && "
     "{mancala} db build kalah --max-seeds 4 --threads 1 --out {fresh_db}/new"},
    {"db_unpack_resume",
     "db unpack kalah --max-seeds 3 --db {fresh_db} -t 1 -q >/dev/null && "
     "{mancala} db unpack kalah --db {fresh_db} -t 1 -q"},
    {"db_unpack_beyond_tables", "db unpack oware --max-seeds 9 --db {db}"},
    {"db_unpack_missing", "db unpack kalah --db {db}/nothing-here"},
    {"db_unpack_congkak", "db unpack congkak --db {db}"},
    {"db_unpack_bad_max_seeds", "db unpack kalah --max-seeds -2 --db {db}"},
    {"db_info_plain",
     "db unpack kalah --max-seeds 2 --db {fresh_db} -q >/dev/null && "
     "{mancala} db info {fresh_db}/kalah-6"},
    {"db_info_plain_layer",
     "db unpack kalah --max-seeds 3 --db {fresh_db} -q >/dev/null && "
     "{mancala} db info {fresh_db}/kalah-6/seeds-03.plain.mtb"},
    {"db_verify_plain",
     "db unpack oware --db {fresh_db} -q >/dev/null && "
     "{mancala} db verify {fresh_db}/oware-abapa --quiet"},
    {"db_verify_plain_corrupt",
     "db unpack kalah --db {fresh_db} -q >/dev/null && printf X | dd bs=1 seek=5000 "
     "conv=notrunc of={fresh_db}/kalah-6/seeds-06.plain.mtb 2>/dev/null && "
     "{mancala} db verify {fresh_db}/kalah-6 --quiet"},
    {"db_query_plain",
     "db unpack kalah --db {fresh_db} -q >/dev/null && "
     "{mancala} db query kalah 0-0-0-0-1-2-0-0-0-0-1-0-22-22-S --db {fresh_db}"},
    // A puzzle library from the small tables, written and read back; damaged, it is refused.
    {"puzzles_build",
     "puzzles build oware --db {db} --min-seeds 4 --max-seeds 6 --count 6 --seed 3 "
     "--out {fresh_db}/p.json >/dev/null && cat {fresh_db}/p.json && "
     "{mancala} puzzles verify {fresh_db}/p.json --db {db} | sed 's/([0-9.]* s)/(T s)/'"},
    {"puzzles_verify_damaged",
     "puzzles build kalah --db {db} --max-seeds 6 --count 3 --out {fresh_db}/p.json >/dev/null && "
     "sed -i 's/\"rating\":1/\"rating\":2/' {fresh_db}/p.json && "
     "{mancala} puzzles verify {fresh_db}/p.json --db {db}"},
    {"puzzles_build_beyond_tables",
     "puzzles build kalah --db {db} --max-seeds 12 --out {fresh_db}/p.json"},
    {"solve_kalah_2_2", "solve kalah:2:2 --no-tables --json --threads 1"},
    {"solve_with_tables",
     "solve kalah --position 0-0-0-1-1-2-0-1-0-0-1-0-20-22-N --db {db} --threads 1"},
    {"analyse_kalah", "analyse kalah:3:2 2-2-2-2-2-2-0-0-S --depth 8 --no-tables"},
    // A position small enough to prove well inside the time: the output does not depend on it.
    {"analyse_time", "analyse kalah:2:2 2-2-2-2-0-0-S --time 0.5 --no-tables"},
    {"analyse_bad_time", "analyse kalah 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S --time -1"},
    {"analyse_json", "analyse oware 0-0-0-0-2-1-1-0-1-0-0-0-20-23-N --depth 6 --json --db {db}"},
    // Terminal play, fed from a file: bad input gets a message and a new prompt, end of input
    // quits.
    {"play_session", "play kalah:3:2 --human-vs-human --no-color < {golden}/play_session.input"},
    {"play_computer",
     "play kalah:3:2 --level 3 --seed 7 --think --no-color < {golden}/play_computer.input"},
    {"play_bad_level", "play kalah --level 9 < /dev/null"},
    {"match_json", "match kalah --a 2 --b 1 --games 10 --json --quiet --threads 1"},
    {"match_bad_level", "match kalah --a 7 --b 1"},
    {"match_text", "match congkak:5:3 --a 4 --b 3 --games 4 --quiet --threads 1"},
    {"match_no_balance", "match oware --a 3 --b 2 --games 2 --no-balance --opening-turns 2 -q"},
    // Every game saved as a record (the date line is today's, so it is left out).
    {"match_pgn",
     "match kalah:4:3 --a 2 --b 1 --games 2 --quiet --threads 1 --pgn {fresh_db}/games.pgn && "
     "grep -v '^\\[Date' {fresh_db}/games.pgn"},
    {"match_pgn_unwritable",
     "match kalah:3:2 --a 2 --b 1 --games 2 --quiet --pgn /nonexistent-directory/games.pgn"},
    {"match_bad_balance", "match kalah --a 2 --b 1 --balance -1"},
    // External engines (docs/match.md): `mancala engine` against itself at fixed depths, from an
    // opening suite of a position and a move list, written as Aualé .ogn records.
    {"match_engines",
     "perft kalah 1 >/dev/null && printf '# a suite\\n4-4-4-4-4-0-5-5-5-5-4-4-0-0-N\\nC a\\n' > "
     "{fresh_db}/openings.txt && "
     "{mancala} match oware --engine-a '{mancala} engine' --option-a Level=4 --option-a "
     "UseTables=false --name-a Four --engine-b '{mancala} engine' --option-b Level=3 --option-b "
     "UseTables=false --games 4 --openings {fresh_db}/openings.txt --sprt 0 50 -q --pgn "
     "{fresh_db}/games.ogn && grep -v '^\\[Date' {fresh_db}/games.ogn"},
    {"match_both_level_and_engine", "match kalah --a 2 --engine-a 'mancala engine' --b 1"},
    {"match_option_for_a_level", "match kalah --a 2 --b 1 --option-a Hash=8"},
    {"match_two_time_controls", "match kalah --a 2 --b 1 --move-time 1 --clock 60+1"},
    {"match_bad_clock", "match kalah --a 2 --b 1 --clock 60+x"},
    {"match_ogn_for_kalah", "match kalah --a 2 --b 1 --pgn games.ogn"},
    {"match_bad_opening",
     "perft kalah 1 >/dev/null && printf 'C a\\nC C\\n' > {fresh_db}/openings.txt && {mancala} "
     "match oware --a 2 --b 1 "
     "--openings {fresh_db}/openings.txt"},
    {"match_engine_cannot_start",
     "match oware --engine-a 'exec /nonexistent/engine' --b 1 --games 2 -q"},
    // Solving from nothing: the disk's tables stop at 6 seeds, so the layers to 8 are built
    // first, in memory, or into the database directory with --save-tables. (By default none
    // would be: the kalah:6:2 start has too few seeds for a build to pay.) Kalah(6,2) rather than
    // (6,3): the same paths in 6 086 nodes rather than 2.9 M (8 s a case under the sanitizers).
    {"solve_builds_tables_in_memory", "solve kalah:6:2 --db {db} --build-tables 8 --threads 1 -q"},
    {"solve_builds_tables_json", "solve kalah:6:2 --db {db} --build-tables 8 --threads 1 --json"},
    {"solve_says_where_it_saved_the_tables",
     "solve kalah:6:2 --db {fresh_db} --build-tables 8 --save-tables --threads 1 -q"},
    {"solve_saves_the_tables_it_builds",
     "solve kalah:6:2 --db {fresh_db} --build-tables 8 --save-tables --threads 1 -q && "
     "ls {fresh_db}/kalah-6"},
    {"solve_bad_build_tables", "solve kalah:6:3 --build-tables 65"},
    {"solve_bad_table_memory", "solve kalah:3:3 --table-memory -1"},
    {"solve_limit", "solve kalah:4:4 --no-tables --max-seconds 0.000001 --threads 1"},
    {"solve_bad_threads", "solve kalah:3:3 --threads -1"},
    {"solve_guess", "solve kalah:3:3 --no-tables --guess -18 --threads 1"},
    {"solve_each_move", "solve kalah:4:4 --no-tables --each-move --threads 1 -q"},
    {"solve_each_move_json",
     "solve kalah --position 0-0-0-1-1-2-0-1-0-0-1-0-20-22-N --db {db} --each-move --json -t 1"},
    {"solve_each_move_with_a_guess", "solve kalah:3:3 --each-move --guess 0"},
    {"solve_each_move_within_a_limit",
     "solve kalah:4:4 --no-tables --each-move --max-seconds 0.000001 --threads 1 -q"},
    {"solve_guess_out_of_range", "solve kalah:3:3 --no-tables --guess -30 --threads 1"},
    // A solve stopped by its limit goes on from its checkpoint; a finished one answers from it.
    {"solve_checkpoint_goes_on",
     "solve kalah:4:4 --no-tables --max-seconds 0.000001 --threads 1 --checkpoint {fresh_db}/ck; "
     "{mancala} solve kalah:4:4 --no-tables --threads 1 -q --checkpoint {fresh_db}/ck"},
    {"solve_each_move_checkpoint_answers_again",
     "solve kalah:3:3 --no-tables --each-move -t 1 -q --hash 16 --checkpoint {fresh_db}/ck "
     ">/dev/null 2>&1 && {mancala} solve kalah:3:3 --no-tables --each-move -t 1 -q --hash 16 "
     "--checkpoint {fresh_db}/ck"},
    {"solve_checkpoint_of_another_solve",
     "solve kalah:3:2 --no-tables -t 1 -q --hash 16 --checkpoint {fresh_db}/ck >/dev/null && "
     "{mancala} solve kalah:3:2 --no-tables --each-move -t 1 -q --hash 16 --checkpoint "
     "{fresh_db}/ck"},
    {"solve_checkpoint_minutes_need_a_checkpoint", "solve kalah:3:3 --checkpoint-minutes 5"},
    {"solve_checkpoint_minutes_zero", "solve kalah:3:3 --checkpoint d --checkpoint-minutes 0"},
    {"solve_checkpoint_of_another_size",
     "solve kalah:3:2 --no-tables -t 1 -q --hash 16 --checkpoint {fresh_db}/ck >/dev/null && "
     "{mancala} solve kalah:3:2 --no-tables -t 1 -q --hash 32 --checkpoint {fresh_db}/ck"},
    // Issue 11: every command-line problem is "mancala: error: ..." with exit status 2.
    {"unknown_command", "chess"},
    {"unknown_option", "play --bogus"},
    {"missing_argument", "perft"},
    {"analyse_depth_zero", "analyse kalah 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S --depth 0"},
    {"analyse_time_inf", "analyse kalah 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S --time inf"},
    {"analyse_time_nan", "analyse kalah 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S --time nan"},
    {"db_build_bad_level", "db build kalah --max-seeds 2 --level 99"},
    {"db_build_empty_out", "db build kalah --max-seeds 2 --out ''"},
    {"match_nodes_zero", "match kalah --a 5 --b 5 --nodes 0"},
    {"db_bench_too_many_probes", "db bench kalah -n 18446744073709551615"},
    {"solve_hash_negative", "solve kalah:3:3 --hash -1"},
    // Issue 11: loading a record of another game switches the rules, the computer and its tables
    // (here the Oware tables value the reply exactly: +4 for North).
    {"play_load_other_game",
     "perft kalah 1 >/dev/null && printf 'load {golden}/oware_endgame.record\\nE\\nquit\\n' | "
     "{mancala} play kalah --level 6 --think --seed 7 --db {db} --no-color"},
    // Control bytes read from a record are escaped, not sent to the terminal.
    {"play_load_escape_bytes",
     "perft kalah 1 >/dev/null && printf 'load {golden}/escape_bytes.record\\nquit\\n' | "
     "{mancala} play kalah -2 --no-color"},
    {"play_load_device",
     "perft kalah 1 >/dev/null && printf 'load /dev/zero\\nquit\\n' | "
     "{mancala} play kalah -2 --no-color"},
    // A save that cannot be written says so (and writes nothing).
    {"play_save_full_disk",
     "perft kalah 1 >/dev/null && printf 'C\\nsave /dev/full\\nquit\\n' | "
     "{mancala} play kalah:3:2 -2 --no-color"},
    // Issue 11: a layer missing in the middle is an error for verify and a warning for readers;
    // swapped layers are refused by every reader; a failed probe is reported at once.
    {"db_verify_missing_middle_layer",
     "perft kalah 1 >/dev/null && rm {fresh_db}/kalah-6/seeds-03.mtb && "
     "{mancala} db verify {fresh_db}/kalah-6 --quiet"},
    {"db_query_missing_middle_layer",
     "perft kalah 1 >/dev/null && rm {fresh_db}/kalah-6/seeds-03.mtb && "
     "{mancala} db query kalah 0-0-0-0-1-2-0-0-0-0-1-0-22-22-S --db {fresh_db}"},
    {"db_stats_swapped_layers",
     "perft kalah 1 >/dev/null && cd {fresh_db}/kalah-6 && mv seeds-04.mtb x && "
     "mv seeds-05.mtb seeds-04.mtb && mv x seeds-05.mtb && {mancala} db stats {fresh_db}/kalah-6"},
    {"analyse_failed_probe",
     "perft kalah 1 >/dev/null && printf garbage > {fresh_db}/kalah-6/seeds-03.mtb && "
     "{mancala} analyse kalah 0-0-0-0-1-2-0-0-0-0-1-0-22-22-S --depth 4 --db {fresh_db}"},
    {"solve_failed_probe",
     "perft kalah 1 >/dev/null && printf garbage > {fresh_db}/kalah-6/seeds-03.mtb && "
     "{mancala} solve kalah --position 0-0-0-0-1-2-0-0-0-0-1-0-22-22-S --db {fresh_db} -t 1"},
    {"db_query_fifo_layer",
     "perft kalah 1 >/dev/null && rm {fresh_db}/kalah-6/seeds-04.mtb && "
     "mkfifo {fresh_db}/kalah-6/seeds-04.mtb && "
     "{mancala} db query kalah 0-0-0-0-1-2-0-0-0-0-1-0-22-22-S --db {fresh_db}"},
    // Issue 24: a database directory with a line feed is shown escaped, so the error stays one
    // line (the second line is not forged); a directory without tables says so.
    {"db_query_control_bytes_in_directory",
     "perft kalah 1 >/dev/null && MANCALA_DB=\"$(printf '/nonexistent\\nmancala: error: forged')\" "
     "{mancala} db query kalah 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"},
    // Issue 24: the chart is never written over a table layer, nor into the directory read.
    {"db_stats_plot_over_a_layer",
     "db stats {fresh_db}/kalah-6 --plot {fresh_db}/kalah-6/seeds-00.mtb"},
    {"db_stats_plot_over_a_copied_layer",
     "perft kalah 1 >/dev/null && cp {fresh_db}/kalah-6/seeds-02.mtb {fresh_db}/copy.mtb && "
     "{mancala} db stats {fresh_db}/oware-abapa --plot {fresh_db}/copy.mtb"},
    {"db_stats_plot_in_the_table_directory",
     "db stats {fresh_db}/kalah-6 --plot {fresh_db}/kalah-6/chart.svg"},
    // The engine protocol, fed from a file (end of input lets the last search finish): searches
    // with and without the tables, levels, a game ended by repetition, another game; and malformed
    // commands, each reported and ignored.
    {"engine_session", "engine --db {db} < {golden}/engine_session.input"},
    {"engine_malformed", "engine --db {db} < {golden}/engine_malformed.input"},
};

// Small tables for the db cases, built once per test process.
const std::string& database_dir() {
  static const std::string dir = [] {
    const std::string d = ::testing::TempDir() + "golden_db_" + std::to_string(::getpid());
    // A directory an earlier process of the same id left behind would be resumed by `db build`,
    // tables of another build and all (a golden run once read an older binary's level-19 files
    // there): the build starts from nothing, and the directory goes when the process ends.
    std::filesystem::remove_all(d);
    mancala::testing_helpers::remove_at_exit(d);
    for (const char* game : {"kalah", "oware"}) {
      const std::string command = std::string(MANCALA_BINARY) + " db build " + game +
                                  " --max-seeds 6 --quiet --out " + d + " >/dev/null";
      EXPECT_EQ(std::system(command.c_str()), 0);
    }
    return d;
  }();
  return dir;
}

// A private copy of the small tables for one case.
std::string fresh_database_dir(const std::string& case_name) {
  const std::string d =
      ::testing::TempDir() + "golden_fresh_" + case_name + "_" + std::to_string(::getpid());
  std::filesystem::remove_all(d);
  std::filesystem::copy(database_dir(), d, std::filesystem::copy_options::recursive);
  return d;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// What varies from run to run, field by field: measured times and rates, nothing else. Every
// other number (counts, values, percentages, bits per position, Elo) is compared. A mask keeps
// the text around the field and puts <NAME> where the field's value was; the spaces that pad a
// table's column go with it, since the value's width varies.
struct TimingMask {
  const char* what;  // the field, for the reader of this table
  std::regex pattern;
  const char* replacement;
};

const std::vector<TimingMask>& timing_masks() {
  static const std::vector<TimingMask> masks = {
      {"JSON: a measured time", std::regex("\"(seconds|value_seconds)\":[-+.eE0-9]+"),
       "\"$1\":<seconds>"},
      {"perft row: seconds and moves per second",
       std::regex("^( *[0-9]+ +[0-9]+ +[0-9]+) +[0-9]+\\.[0-9]+ +[0-9]+\\.[0-9]+M$",
                  std::regex::multiline),
       "$1 <seconds> <rate>M"},
      {"db unpack row: seconds",
       std::regex("^( *[0-9]+ +[0-9]+ +[0-9]+) +[0-9]+\\.[0-9]+(  (written|kept))",
                  std::regex::multiline),
       "$1 <seconds>$2"},
      {"db build row: build, exits, levels and write seconds",
       std::regex("^( *[0-9]+ +[0-9]+ +(1 pass|-|[0-9]+))( +[0-9]+\\.[0-9]+){4}( +[0-9]+ "
                  "+[0-9]+\\.[0-9]+)",
                  std::regex::multiline),
       "$1 <seconds> <seconds> <seconds> <seconds>$4"},
      {"db build total: seconds",
       std::regex("(bits/position\\)), [0-9]+\\.[0-9]+ s$", std::regex::multiline),
       "$1, <seconds> s"},
      {"progress line for a log: rate",
       std::regex("^(.*: [0-9.]+% \\([^,]* of [^,]*, )[0-9.]+[kMG]? ([a-z]+/s\\))",
                  std::regex::multiline),
       "$1<rate> $2"},
      {"db unpack total: seconds",
       std::regex("(, [0-9]+ kept), [0-9]+\\.[0-9]+ s$", std::regex::multiline), "$1, <seconds> s"},
      {"search and solve: seconds after a node count",
       std::regex("([0-9]+ nodes(,| in)) [0-9]+\\.[0-9]+ s"), "$1 <seconds> s"},
      {"solve: the seconds spent building tables in memory",
       std::regex("(in memory \\([0-9.]+ MB), [0-9]+\\.[0-9]+ s\\)"), "$1, <seconds> s)"},
      {"solve --each-move row: seconds",
       std::regex("^([A-Za-z] +[-+][0-9]+ +[-+][0-9]+  .* [0-9.]+[kMG]?) +[0-9]+\\.[0-9]+$",
                  std::regex::multiline),
       "$1 <seconds>"},
      {"solve: the time a checkpoint had spent",
       std::regex("(from the checkpoint in [^:]*: ).* (spent before)"), "$1<duration> $2"},
      {"solve: when the value was proven", std::regex("(value proven in) [0-9]+\\.[0-9]+ s"),
       "$1 <seconds> s"},
      {"engine info: milliseconds and nodes per second", std::regex(" (time|nps) [0-9]+"),
       " $1 <$1>"},
  };
  return masks;
}

std::string mask_timings(std::string text) {
  for (const TimingMask& mask : timing_masks())
    text = std::regex_replace(text, mask.pattern, mask.replacement);
  return text;
}

std::string run_case(const GoldenCase& c) {
  // One file per case and process: ctest runs cases in parallel.
  const std::string err_path =
      ::testing::TempDir() + "golden_stderr_" + c.name + "_" + std::to_string(::getpid()) + ".txt";
  std::string arguments = c.arguments;
  const bool uses_db = arguments.find("{db}") != std::string::npos;
  if (uses_db) arguments = replace_all(arguments, "{db}", database_dir());
  const bool uses_fresh_db = arguments.find("{fresh_db}") != std::string::npos;
  const std::string fresh_db = uses_fresh_db ? fresh_database_dir(c.name) : "";
  if (uses_fresh_db) arguments = replace_all(arguments, "{fresh_db}", fresh_db);
  arguments = replace_all(arguments, "{golden}", MANCALA_GOLDEN_DIR);
  arguments = replace_all(arguments, "{mancala}", MANCALA_BINARY);
  const std::string command = std::string(MANCALA_BINARY) + " " + arguments + " 2>" + err_path;
  FILE* pipe = popen(command.c_str(), "r");
  EXPECT_NE(pipe, nullptr);
  std::string out;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  const int status = pclose(pipe);
  const int exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::string err = read_file(err_path);
  std::remove(err_path.c_str());
  if (uses_fresh_db) {
    out = replace_all(out, fresh_db, "{fresh_db}");
    err = replace_all(err, fresh_db, "{fresh_db}");
    std::filesystem::remove_all(fresh_db);
  }
  // The checkout's place differs from machine to machine.
  out = replace_all(out, MANCALA_GOLDEN_DIR, "{golden}");
  err = replace_all(err, MANCALA_GOLDEN_DIR, "{golden}");
  if (uses_db) {  // the scratch directory's name changes from run to run
    out = replace_all(out, database_dir(), "{db}");
    err = replace_all(err, database_dir(), "{db}");
  }
  return mask_timings("$ mancala " + std::string(c.arguments) + "\nexit: " +
                      std::to_string(exit_code) + "\n--- stdout\n" + out + "--- stderr\n" + err);
}

// How GoogleTest (and so ctest's list) shows a case: its name, not the bytes of the struct.
void PrintTo(const GoldenCase& c, std::ostream* out) {
  *out << c.name;
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
