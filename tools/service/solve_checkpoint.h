// A checkpoint of a long solve: where it stands and a copy of its transposition table, written to a
// directory from time to time so that a solve of hours (`mancala solve --checkpoint DIR`) stopped
// by anything (a reboot, a kill, the machine taken back) goes on from its last checkpoint when
// started again, its limit counting every run's time. Prints nothing; the door words its messages.
//
// The directory holds two files:
//   solve.json          what the solve is (game, position, kind, table size) and where it stands:
//                       the time and nodes spent, and with --each-move the moves finished and the
//                       one being solved; it names the table file and its checksum.
//   transposition-N.bin the solver's table, word by word (solve.cpp gives the entry's layout), in
//                       this machine's byte order; N counts the checkpoints.
// A checkpoint is put in place file by file, each written under a temporary name and renamed: the
// new table first, then solve.json that names it, then the old table is removed. A run stopped at
// any point leaves solve.json naming a whole table whose checksum it holds.
//
// Why the whole table and not only the bounds found so far: the bounds of one move are proven by
// a search whose work is the table (Kalah(6,6): minutes per test near the value); a run that went
// on with an empty table would search again everything the last one had proven.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "db/file_io.h"
#include "solver/rules/position.h"
#include "solver/rules/rules.h"
#include "solver/search/solve.h"
#include "solver/util/expected.h"

namespace mancala::service {

struct SolveCheckpoint {
  // What the solve is: a checkpoint is only taken up by the same solve.
  std::string game;      // Rules::name()
  std::string position;  // to_string(Position)
  bool each_move = false;
  // Where it stands. A whole solve: the time and nodes spent, the bounds proven so far.
  double seconds = 0;
  uint64_t nodes = 0;
  int lower = 0, upper = 0;
  // Each move: the moves finished, and how far the one after them had got.
  EachMoveResume each;

  // The seconds the solve has spent, all runs together: those its time limit has counted.
  double seconds_spent() const {
    return each_move ? each.seconds_before_next + each.seconds_on_next : seconds;
  }
};

// Makes `directory` if missing and locks it for this process's solve: a second solve into it fails
// at once, in words that say so.
Expected<db::WriterLock> lock_checkpoint_directory(const std::string& directory);

// The checkpoint `directory` holds for a solve of `rules` from `position` (each move or whole):
// none when the directory has no solve.json yet; an error when it holds another solve's, or one
// made with another table size, or a damaged one. Found, its table is put into `solver`, which
// must not be searching.
Expected<std::optional<SolveCheckpoint>> load_solve_checkpoint(const std::string& directory,
                                                               const Rules& rules,
                                                               const Position& position,
                                                               bool each_move, Solver& solver);

// Writes `checkpoint` and a copy of `solver`'s table into `directory` (made if missing), the
// checkpoint it replaces removed once this one is whole. The solver may be searching meanwhile
// (its table is copied entry by entry, every one proven whenever it is read). Not thread-safe:
// one writer a directory.
Expected<bool> save_solve_checkpoint(const std::string& directory,
                                     const SolveCheckpoint& checkpoint, const Solver& solver);

}  // namespace mancala::service
