// The whole-game solver: the exact game-theoretic value of a position (the final store
// difference with perfect play), its best moves and a principal variation.
//
// Unlike `Search`, which searches to a depth and scores the horizon, the solver has no horizon:
// every score it returns is proven. It is MTD(f): a sequence of null-window alpha-beta tests
// "is the value at least g?" that converge on the value. What makes it fast:
//   - the seed bound: the mover's final lead lies within [lead - R, lead + R], R the seeds still
//     on the board, so a test far from the current lead is answered without search (the
//     "futility pruning" of Irving, Donkers and Uiterwijk's "Solving Kalah", 2000);
//   - a transposition table of proven lower and upper bounds, keyed on the houses and the side
//     to move only, with the bounds stored without the stores (what the mover will still gain
//     over the opponent), so positions reached with other stores share entries;
//   - enhanced transposition cutoffs: before searching a node's children, their table bounds
//     are checked for a cutoff;
//   - the endgame tables, read through a decoded in-memory copy (`ExactValues`), and move
//     ordering by the table's best move, extra turns and captures;
//   - an initial guess from a short heuristic search.
//
// Kalah and Congkak cannot repeat a position (a sowing that puts nothing in a store only moves
// the mover's seeds towards it). Oware can: a position that repeats one on the current line is
// scored as the stores stand (an endless cycle gives neither side more, as in the tables). A
// result that rests on a repetition of a position above the node depends on the line that led to
// it (the "graph history interaction") and is not stored. That keeps Oware values exact, at a
// price: above the tables Oware solving is exponential (a 9-seed position over 8-seed tables
// does not finish in 30 s). Storing such results anyway is 100 times faster but wrong: it gave
// 0 for a 10-seed position the tables value at +2.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "solver/moves.h"
#include "solver/position.h"
#include "solver/rules.h"
#include "solver/search.h"

namespace mancala {

struct SolveLimits {
  double max_seconds = 0;  // 0: no limit
  uint64_t max_nodes = 0;  // 0: no limit
};

struct SolveProgress {
  int lower = 0, upper = 0;  // proven bounds on the value so far
  uint64_t nodes = 0;
  double seconds = 0;
};

struct SolveResult {
  bool solved = false;       // false: stopped by a limit; `lower`/`upper` hold what is proven
  int value = 0;             // final store difference for the side to move
  int lower = 0, upper = 0;  // proven bounds (equal to value when solved)
  std::vector<Move> best;    // every move that keeps the value (when solved)
  std::vector<Move> pv;      // a principal variation, to the end of the game or into the tables
  uint64_t nodes = 0;
  double seconds = 0;        // the whole answer: value, best moves and line
  double value_seconds = 0;  // the value alone
  uint64_t table_probes = 0;
};

class Solver {
 public:
  struct Entry;

  // `tables` may be null; it must outlive the solver. The transposition table takes
  // `table_megabytes` (rounded down to a power of two entries).
  Solver(const Rules& rules, size_t table_megabytes = 1024, const ExactValues* tables = nullptr);
  ~Solver();
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  // The position must not be over. `on_progress` sees the bounds after each test.
  SolveResult solve(const Position& position, const SolveLimits& limits = {},
                    const std::function<void(const SolveProgress&)>& on_progress = {});

  // One null-window test: a proven bound on the value: >= beta means value >= result,
  // < beta means value <= result. Sets `aborted()` when a limit stopped it. (It runs on the
  // caller's stack: deep Oware positions want `solve`, which runs on a large one.)
  int test(const Position& position, int beta);
  bool aborted() const { return aborted_; }
  uint64_t nodes() const { return nodes_; }
  void stop() { stop_.store(true); }

 private:
  template <GameKind K>
  int search(const Position& p, int alpha, int beta, int ply);
  int dispatch(const Position& p, int alpha, int beta);
  SolveResult solve_here(const Position& position, const SolveLimits& limits,
                         const std::function<void(const SolveProgress&)>& on_progress);
  Entry* find(uint64_t key);
  // The key's slot, a fresh one (replacing the bucket's least worked) when it has none.
  Entry& slot_for(uint64_t key);
  bool out_of_limits();
  void report_progress();
  // With the value `value` of `p` known: a move that keeps it (nullopt if a limit stopped us).
  std::vector<Move> moves_keeping(const Position& p, int value, bool all);
  std::vector<Move> principal_variation(const Position& p, int value);

  Rules rules_;
  const ExactValues* tables_;
  Entry* entries_ = nullptr;  // buckets of four
  size_t table_bytes_ = 0;
  uint64_t bucket_mask_ = 0;
  uint64_t nodes_ = 0;
  uint64_t probes_ = 0;
  SolveLimits limits_;
  std::chrono::steady_clock::time_point started_;
  std::atomic<bool> stop_{false};
  int lower_ = 0, upper_ = 0;  // proven bounds on the value of the position being solved
  const std::function<void(const SolveProgress&)>* on_progress_ = nullptr;
  bool aborted_ = false;
  // Oware: the positions on the current line (hash -> ply), and the shallowest ply that a
  // repetition in the subtree being searched reached back to.
  std::unordered_map<uint64_t, int> path_;
  int repetition_ply_ = 0;
};

}  // namespace mancala
