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
//     are checked for a cutoff. Each check waits on a cache miss, and near the endgame tables,
//     where a child's search is mostly table probes, the waits cost more than the searches they
//     spare: there (up to 10 seeds above the tables) the node searches the transposition
//     table's move first instead, alone, and makes the other children only if it does not cut
//     off (Kalah(6,4) over 0..20-seed tables: 6% more nodes, about 0.9 of the time);
//   - children that need no search (the game ended, or the endgame tables hold them) are valued
//     by the parent itself: a leaf costs one probe, not a call (Kalah(6,4): 4.8 M nodes instead
//     of 8.4 M with 24-seed tables);
//   - the endgame tables, read in place from plain files or through a decoded in-memory copy
//     (`ExactValues`), and move ordering by the table's best move, extra turns and captures;
//   - an initial guess from a short heuristic search;
//   - several threads on one shared table, each searching every test: what one proves the others
//     find in the table, and the first to finish ends the test. A node being searched carries a
//     busy bit in its entry, and a thread puts off the busy children of a node (ABDADA), the
//     first child only at a node expected to fail low, so that the threads split the children
//     instead of walking the same ones (docs/solving.md, "Several threads": two threads took
//     0.53-0.56 of one thread's time to Kalah(6,4)'s value, against 0.64-0.89 before).
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
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "solver/rules/moves.h"
#include "solver/rules/position.h"
#include "solver/rules/rules.h"
#include "solver/search/search.h"
#include "solver/search/search_budget.h"
#include "solver/tables/big_buffer.h"
#include "solver/tables/exact_values.h"

namespace mancala {

struct SolveLimits {
  double max_seconds = 0;  // 0: no limit
  uint64_t max_nodes = 0;  // 0: no limit
};

// Where a solve starts and what it answers.
struct SolveOptions {
  // A first guess at the value (MTD(f) needs fewer tests from a close one); none: a short
  // heuristic search makes one.
  std::optional<int> guess;
  // For players: the limits cover the best moves too, and no line is walked. Otherwise (the solve
  // command) the limits stop only the value; once it is proven, the best moves and the line are
  // found whatever they cost.
  bool moves_only = false;
  // Only the value (or, stopped by a limit, its bounds): no best moves, no line.
  bool value_only = false;
  // For an analysis: the value and its line (no other best moves), the line walked within the
  // limits too and at most `line_plies` long; a limit reached on the way cuts it short, every
  // move of it still keeping the value. Without it a line runs to the game's end.
  bool line_within_limits = false;
  int line_plies = 400;
  // Loose bounds first: each test halfway between a proven bound and the guess, the two sides in
  // turn, until both are within a step of it; then MTD(f). A test far from the value is much
  // cheaper than one at it (Kalah(6,6) over 0..30-seed tables: "at least -24?" took 2 min 45 s;
  // no test near the guess ended in 7 min), so a solve stopped by a limit has bounds on both
  // sides, where MTD(f) would have spent it all on the hardest test. Slower to the exact value.
  bool outside_in = false;
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
  std::vector<Move> best;    // every move that keeps the value (when solved; with
                             // SolveOptions::moves_only, those found within the limits)
  std::vector<Move> pv;      // a principal variation, to the end of the game or into the tables
                             // (SolveOptions::line_within_limits: as far as they allowed)
  uint64_t nodes = 0;
  double seconds = 0;        // the whole answer: value, best moves and line
  double value_seconds = 0;  // the value alone
};

// Bounds on the value of one move: the final store difference for the side that plays it.
struct MoveBounds {
  Move move = 0;
  bool solved = false;       // lower == upper
  int lower = 0, upper = 0;  // proven
  uint64_t nodes = 0;
  double seconds = 0;
};

// Bounds on every move of a position, and so on the position: it is worth its best move, so at
// least the greatest lower bound and at most the greatest upper bound.
struct EachMoveResult {
  std::vector<MoveBounds> moves;  // in move order
  bool solved = false;            // lower == upper
  int lower = 0, upper = 0;       // the position's value, for the side to move
  uint64_t nodes = 0;             // all moves together
  double seconds = 0;
};

// Where an each-move solve stopped, to go on from there (a checkpoint of a long solve,
// tools/service/solve_checkpoint.h): the moves it finished, and how far it had got with the one
// after them. The limits of the solve that goes on are those of the whole solve, all runs together.
struct EachMoveResume {
  std::vector<MoveBounds> done;    // the first moves, in move order, with their final bounds
  double seconds_before_next = 0;  // spent (all runs) when the move after them began
  double seconds_on_next = 0;      // spent on that move since
  uint64_t nodes_on_next = 0;
};

class Solver {
 public:
  struct Entry;

  // `endgame` (the endgame tables) may be null; it must outlive the solver and, with more than
  // one thread, be safe to probe from several threads at once. The transposition table takes
  // `transposition_megabytes` (rounded down to a power of two entries). `threads` search each
  // test together (see below).
  Solver(const Rules& rules, size_t transposition_megabytes = 1024,
         const ExactValues* endgame = nullptr, int threads = 1);
  ~Solver();
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  // The position must not be over. `on_progress` sees the bounds after each test. The table's
  // proven bounds stay valid: a solver kept across the moves of a game answers later positions
  // from what it proved earlier.
  SolveResult solve(const Position& position, const SolveLimits& limits = {},
                    const std::function<void(const SolveProgress&)>& on_progress = {},
                    const SolveOptions& options = {});

  // Bounds on the value of every legal move of `position` (which must not be over), in move
  // order, within `limits` for them all: each move is given an equal share of what the moves
  // before it left, so the time a move proves quickly goes to the later ones (with no limit,
  // every move's value). With a limit each move is solved outside in (SolveOptions::outside_in).
  // The moves share the transposition table, and what one proves the next may use. `on_move`
  // sees each move's bounds as they come in, `on_progress` the bounds of the move being solved
  // after each test (both for the side to move at `position`).
  // `resume` goes on from an earlier run (whose proven bounds the transposition table holds
  // again, see restore_transposition): its finished moves are reported as they were, the move
  // after them gets what is left of its share, and the time and nodes count every run's.
  EachMoveResult solve_each_move(
      const Position& position, const SolveLimits& limits = {},
      const std::function<void(const MoveBounds&)>& on_move = {},
      const std::function<void(Move, const SolveProgress&)>& on_progress = {},
      const EachMoveResume& resume = {});

  // The transposition table as words, for a checkpoint of a long solve: every entry is a proven
  // bound on a position's future (keyed on its houses and side to move, see solve.cpp), true for
  // any solve of the same rules, so a table put back lets a solve go on where an earlier one
  // stopped. The words depend on the table's size (the bucket is part of the key).
  size_t transposition_words() const;
  // Copies words [first, first + out.size()) of the table, their busy marks cleared. Safe while
  // the solver searches: each entry is read whole, and one being written reads as it was or as
  // it becomes, both proven.
  void copy_transposition(size_t first, std::span<uint64_t> out) const;
  // Puts back words copied from a solver of the same rules and table size. Not while it searches.
  void restore_transposition(size_t first, std::span<const uint64_t> words);

  // One null-window test: a proven bound on the value: >= beta means value >= result,
  // < beta means value <= result. Sets `aborted()` when a limit stopped it. (It runs on the
  // caller's stack: deep Oware positions want `solve`, which runs on a large one.)
  int test(const Position& position, int beta);
  bool aborted() const { return aborted_; }
  // Nodes searched by every thread since the solve (or the solver) started.
  uint64_t nodes() const { return total_nodes_.load(); }
  void stop() { budget_.request_stop(); }

 private:
  // What one searching thread keeps to itself. A line of its own: `nodes` is written at every
  // node, and a line shared with what the other threads read at every node (the solver's
  // fields) would move between the cores at every node.
  struct alignas(64) Worker {
    int id = 0;               // 0: the thread that called test()
    uint64_t generation = 0;  // the test it works on
    uint64_t nodes = 0;       // not yet added to total_nodes_
    uint64_t checked_in = 0;  // this thread's nodes added to total_nodes_ so far
    bool aborted = false;
    // Oware: the positions on the current line (hash -> ply), and the shallowest ply that a
    // repetition in the subtree being searched reached back to.
    std::unordered_map<uint64_t, int> path;
    int repetition_ply = 0;
    int seeds = 0;  // on the board and in the stores: the same in every position of the test
  };
  struct Helpers;  // the other threads and how they are handed a test

  // `all_node`: the node is expected to fail low (every child searched, an "ALL" node) rather
  // than to cut off; in a parallel solve it decides whether a busy first child is put off.
  template <GameKind K>
  int search(Worker& w, const detail::Board& b, int alpha, int beta, int ply, bool all_node);
  // A whole test by `w`; false when it was stopped (by a limit, or because another thread
  // finished the test first).
  bool run_test(Worker& w, const Position& p, int beta, int& result);
  void helper_loop(Worker& w);
  SolveResult solve_here(const Position& position, const SolveLimits& limits,
                         const std::function<void(const SolveProgress&)>& on_progress,
                         const SolveOptions& options);
  // Is some thread searching the position of `key` now? (Parallel solves only: the busy bit of
  // its transposition entry.)
  bool is_busy(uint64_t key) const;
  // Sets the busy bit of `key`'s entry, first making an entry with the bounds `lower`..`upper`
  // and no move if there is none. A store clears the bit; so does `clear_busy`, for a search that
  // stores nothing.
  void mark_busy(uint64_t key, int lower, int upper);
  void clear_busy(uint64_t key);
  // The bucket of the transposition table that holds `key`'s entry, if it is stored.
  Entry* bucket_of(uint64_t key) const;
  // The entry that holds `key` (`word` set to it), or null when it is not stored.
  Entry* entry_of(uint64_t key, uint64_t& word) const;
  // The slot of `key`'s bucket that holds its entry (`word` set to it), or else the one a new
  // entry replaces: an empty one, or the one of least work (`word` set to 0).
  Entry* slot_for(uint64_t key, uint64_t& word) const;
  // The proven bounds on the future stored for `key`, if any.
  bool find(uint64_t key, int& lower, int& upper, int& move) const;
  // Stores bounds for `key` in its slot, or in the bucket's least worked one. A negative `work`
  // keeps the slot's (at least 1).
  void store(uint64_t key, int lower, int upper, int move, int work);
  void check_in(Worker& w);
  void report_progress();
  // With the value `value` of `p` known: the moves that keep it (all of them, or the first
  // found); those found before a limit stopped it.
  std::vector<Move> moves_keeping(const Position& p, int value, bool all);
  // A line of moves keeping `value` from `p`, at most `max_plies` long: to the game's end, an
  // Oware cycle, or a limit.
  std::vector<Move> principal_variation(const Position& p, int value, int max_plies);

  Rules rules_;
  const ExactValues* endgame_;
  // No position with more seeds on the board is in the endgame tables (-1: no tables). Fixed for
  // the solver's life, and asked at every node: kept here, not asked of `endgame_` each time.
  int endgame_max_seeds_;
  // Enhanced transposition cutoffs are tried at positions with at least this many seeds on the
  // board: all of them without tables; over tables, those more than kEtcAboveTables seeds above
  // them (see `search`).
  static constexpr int kEtcAboveTables = 10;
  int etc_from_;
  BigBuffer transposition_memory_;
  Entry* entries_ = nullptr;  // the transposition table: buckets of eight, in transposition_memory_
  uint64_t bucket_mask_ = 0;
  int threads_ = 1;
  Worker main_;
  std::unique_ptr<Helpers> helpers_;
  // The test being searched (0: none); a thread that sees another value stops. (This and the
  // node total are written while the threads search: each on a line of its own, away from the
  // fields every node reads.)
  alignas(64) std::atomic<uint64_t> active_generation_{0};
  uint64_t generation_ = 0;
  alignas(64) std::atomic<uint64_t> total_nodes_{0};
  SearchBudget budget_;
  int lower_ = 0, upper_ = 0;  // proven bounds on the value of the position being solved
  // Whether the test being started is expected to fail low (its root an ALL node): MTD(f) asks
  // above its last result or guess when it expects the test to fail.
  bool root_all_ = false;
  const std::function<void(const SolveProgress&)>* on_progress_ = nullptr;
  uint64_t next_report_ = 0;
  bool aborted_ = false;
};

}  // namespace mancala
