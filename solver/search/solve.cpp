#include "solver/search/solve.h"

#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <utility>

#include <pthread.h>

#include "solver/search/position_hash.h"
#include "solver/search/score.h"
#include "solver/util/atomic_ref.h"
#include "solver/util/stopwatch.h"

namespace mancala {

// One transposition-table entry, a single 64-bit word; eight share a 64-byte bucket (chosen by
// the low bits of the hash). All values are "futures": the final lead minus the present lead,
// for the mover, so they lie within -seeds..+seeds of the game (at most 288, Kalah(12,12)).
//
//   bits 63..30  check: the hash's high 34 bits
//   bits 29..20  proven lower bound on the future (10-bit two's complement, -512..511)
//   bits 19..10  proven upper bound on the future (the same)
//   bits  9..6   the best move found, tried first (0..11; 15: none, an entry made only to be
//                marked busy)
//   bit   5      busy: some thread is searching the position now (parallel solves only)
//   bits  4..0   work: 1 + log2 of the nodes the last search of this position took (at most
//                31); within a bucket the entry of least work is replaced
//   0: an empty entry (a stored entry has a non-zero check, bounds or work: work is at least 1)
//
// Why one word: the solver's time goes on this table's cache misses, and eight entries to a
// line hold twice the positions of sixteen-byte ones in the same memory (Kalah(6,4),
// empty-capture, 256 MB: 17% fewer nodes). A 34-bit check over eight entries mistakes a
// position less often than a 32-bit check over four did. Several threads share the table
// without locks: an entry is read and written as one word, so it is never torn. Two threads may
// still write the same entry at once, and one write is then lost: every bound ever stored is
// proven, so a lost or older one costs work, never a wrong value.
//
// Why the busy mark is in the entry (ABDADA keeps it there too) and not in a table of its own:
// the node's own line has just been read, and its children's lines are fetched anyway for the
// cutoff check, so marking and asking cost no extra miss; a separate table (the solver had one,
// 64 K slots) is written at every node by every thread, and its lines move between the cores.
struct Solver::Entry {
  uint64_t word;
};
static_assert(sizeof(Solver::Entry) == 8);

namespace {
constexpr size_t kBucket = 8;
// Where each field of the word above starts, and its width.
constexpr int kCheckShift = 30;
constexpr int kLowerShift = 20;
constexpr int kUpperShift = 10;
constexpr int kMoveShift = 6;
constexpr int kBoundBits = 10;
constexpr uint64_t kBoundMask = (uint64_t{1} << kBoundBits) - 1;
constexpr int kBoundLimit = 1 << (kBoundBits - 1);  // bounds lie in -kBoundLimit..kBoundLimit-1
constexpr uint64_t kMoveMask = 0xF;
constexpr int kMaxWork = 31;  // the work field's five bits
// Set while some thread searches the entry's position (parallel solves only; see `search`).
constexpr uint64_t kBusyBit = uint64_t{1} << 5;
// The move field of an entry made only to carry the busy bit: no move known yet.
constexpr int kNoMove = 15;

// The deepest line a solve follows before it gives up (unproven, as when its budget runs out).
// Natively none: the solve runs on a thread with a 1 GB stack (start_large_stack_thread), for Oware
// lines thousands of sowings deep. In a browser (the WebAssembly build, tools/wasm) each level of
// the recursion also takes ~400 bytes of the JavaScript engine's own stack, about 1 MB, which no
// page can enlarge: an Oware analysis over 10-seed tables overflowed it (node 20) with a cap of
// 3000 and not with 2000. 1000 leaves room for a smaller stack in a worker.
#ifdef __EMSCRIPTEN__
constexpr int kMaxSolvePly = 1000;
#else
constexpr int kMaxSolvePly = INT_MAX;
#endif
static_assert(kMaxHouses <= static_cast<int>(kMoveMask) + 1, "a move fits in four bits");

uint64_t load(const uint64_t& word) {
  return AtomicRef<const uint64_t>(word).load(std::memory_order_relaxed);
}
void put(uint64_t& word, uint64_t value) {
  AtomicRef<uint64_t>(word).store(value, std::memory_order_relaxed);
}
uint64_t bound_field(int bound) {
  return static_cast<uint64_t>(bound) & kBoundMask;
}
int bound_of(uint64_t field) {
  // Sign-extends the 10-bit field.
  const int raw = static_cast<int>(field & kBoundMask);
  return raw >= kBoundLimit ? raw - 2 * kBoundLimit : raw;
}
uint64_t pack_entry(uint64_t key, int lower, int upper, int move, int work) {
  return (key >> kCheckShift << kCheckShift) | bound_field(lower) << kLowerShift |
         bound_field(upper) << kUpperShift |
         (static_cast<uint64_t>(move) & kMoveMask) << kMoveShift | static_cast<uint64_t>(work);
}
bool same_check(uint64_t word, uint64_t key) {
  return word != 0 && (word >> kCheckShift) == (key >> kCheckShift);
}
int lower_of(uint64_t word) {
  return bound_of(word >> kLowerShift);
}
int upper_of(uint64_t word) {
  return bound_of(word >> kUpperShift);
}
int move_of(uint64_t word) {
  return static_cast<int>(word >> kMoveShift & kMoveMask);
}
int work_of(uint64_t word) {
  return static_cast<int>(word & static_cast<uint64_t>(kMaxWork));
}
bool busy_of(uint64_t word) {
  return (word & kBusyBit) != 0;
}
}  // namespace

// The other threads of a parallel solve. Each test is searched by all of them at once on the
// shared table: whatever one proves, the others find in the table, and the first to finish the
// test ends it for all. A thread puts off a child that another one is searching (the busy bit of
// its entry, see `search`), so that they split the work of a node between them.
struct Solver::Helpers {
  std::vector<pthread_t> threads;
  std::vector<std::unique_ptr<Worker>> workers;
  std::mutex mutex;
  std::condition_variable wake;  // a new test, or the end
  std::condition_variable idle;  // a helper stopped working on a test
  Position position;
  int beta = 0;
  uint64_t job = 0;  // generation of the test handed out
  int busy = 0;
  bool quit = false;
  // The result of the first thread to finish the current test.
  uint64_t result_generation = 0;
  int result = 0;
};

Solver::Solver(const Rules& rules, size_t transposition_megabytes, const ExactValues* endgame,
               int threads)
    : rules_(rules),
      endgame_(endgame),
      endgame_max_seeds_(endgame ? endgame->max_seeds() : -1),
      etc_from_(endgame ? endgame_max_seeds_ + kEtcAboveTables + 1 : 0),
      threads_(std::max(threads, 1)) {
  // Every GAME string's game has at most 288 seeds; a Rules value made in code could hold more
  // than the entries' bounds can carry.
  if (rules.total_seeds() >= kBoundLimit)
    throw std::invalid_argument("the solver takes games of at most " +
                                std::to_string(kBoundLimit - 1) + " seeds");
  // The largest power of two of buckets that fits in the size asked for, computed so that no
  // size can overflow (a size beyond the address space is capped, and BigBuffer then reports
  // std::bad_alloc).
  const size_t megabytes = std::clamp<size_t>(transposition_megabytes, 1, SIZE_MAX >> 21);
  const size_t bucket_bytes = kBucket * sizeof(Entry);
  size_t buckets = 1;
  while (buckets <= (megabytes << 20) / (2 * bucket_bytes)) buckets *= 2;
  // Fresh pages are zero (empty slots), and are left to be faulted in by the search as it first
  // touches them: touching a large table up front cost seconds before the first node (a 64 GiB
  // table, page by page), and a small solve touches only part of its table.
  transposition_memory_ = BigBuffer(buckets * bucket_bytes, false);
  entries_ = static_cast<Entry*>(transposition_memory_.data());
  bucket_mask_ = buckets - 1;
}

Solver::~Solver() {
  if (!helpers_) return;
  {
    std::lock_guard<std::mutex> lock(helpers_->mutex);
    helpers_->quit = true;
  }
  helpers_->wake.notify_all();
  for (pthread_t thread : helpers_->threads) pthread_join(thread, nullptr);
}

size_t Solver::transposition_words() const {
  return (bucket_mask_ + 1) * kBucket;
}

void Solver::copy_transposition(size_t first, std::span<uint64_t> out) const {
  if (first > transposition_words() || out.size() > transposition_words() - first)
    throw std::out_of_range("copy_transposition: past the table's end");
  for (size_t i = 0; i < out.size(); ++i) out[i] = load(entries_[first + i].word) & ~kBusyBit;
}

void Solver::restore_transposition(size_t first, std::span<const uint64_t> words) {
  if (first > transposition_words() || words.size() > transposition_words() - first)
    throw std::out_of_range("restore_transposition: past the table's end");
  for (size_t i = 0; i < words.size(); ++i) put(entries_[first + i].word, words[i] & ~kBusyBit);
}

bool Solver::is_busy(uint64_t key) const {
  uint64_t word = 0;
  return entry_of(key, word) && busy_of(word);
}

void Solver::mark_busy(uint64_t key, int lower, int upper) {
  uint64_t word = 0;
  Entry* slot = slot_for(key, word);
  if (!same_check(word, key))
    put(slot->word, pack_entry(key, lower, upper, kNoMove, 1) | kBusyBit);
  else if (!busy_of(word))
    put(slot->word, word | kBusyBit);
}

void Solver::clear_busy(uint64_t key) {
  uint64_t word = 0;
  if (Entry* entry = entry_of(key, word); entry && busy_of(word))
    put(entry->word, word & ~kBusyBit);
}

Solver::Entry* Solver::bucket_of(uint64_t key) const {
  return entries_ + (key & bucket_mask_) * kBucket;
}

Solver::Entry* Solver::entry_of(uint64_t key, uint64_t& word) const {
  Entry* bucket = bucket_of(key);
  for (size_t i = 0; i < kBucket; ++i) {
    word = load(bucket[i].word);
    if (same_check(word, key)) return &bucket[i];
  }
  return nullptr;
}

bool Solver::find(uint64_t key, int& lower, int& upper, int& move) const {
  uint64_t word = 0;
  if (!entry_of(key, word)) return false;
  lower = lower_of(word);
  upper = upper_of(word);
  move = move_of(word) == kNoMove ? -1 : move_of(word);
  return true;
}

Solver::Entry* Solver::slot_for(uint64_t key, uint64_t& word) const {
  Entry* bucket = bucket_of(key);
  Entry* slot = &bucket[0];
  int least = INT_MAX;
  for (size_t i = 0; i < kBucket; ++i) {
    word = load(bucket[i].word);
    if (same_check(word, key)) return &bucket[i];
    const int w = word == 0 ? -1 : work_of(word);
    if (w < least) {
      least = w;
      slot = &bucket[i];
    }
  }
  word = 0;
  return slot;
}

void Solver::store(uint64_t key, int lower, int upper, int move, int work) {
  uint64_t word = 0;
  Entry* slot = slot_for(key, word);
  if (work < 0) work = same_check(word, key) ? work_of(word) : 1;
  put(slot->word, pack_entry(key, lower, upper, move, std::clamp(work, 1, kMaxWork)));
}

void Solver::report_progress() {
  (*on_progress_)({lower_, upper_, nodes(), budget_.elapsed_seconds()});
}

// Every 1024 nodes: the node count goes to the shared total, and the thread learns whether to
// stop (a limit, or the test already finished by another thread).
void Solver::check_in(Worker& w) {
  total_nodes_.fetch_add(w.nodes, std::memory_order_relaxed);
  w.checked_in += w.nodes;
  w.nodes = 0;
  if (active_generation_.load(std::memory_order_relaxed) != w.generation) w.aborted = true;
  if (budget_.exhausted(nodes())) {
    budget_.request_stop();  // every thread stops
    w.aborted = true;
  }
  // A test can take minutes: the bounds so far are reported as it goes.
  if (w.id == 0 && on_progress_ && nodes() >= next_report_) {
    next_report_ = nodes() + (uint64_t{1} << 22);
    report_progress();
  }
}

namespace {

using detail::Board;

// Reading a position held in a board (moves.h): the search works on boards, so that a child is
// one sowing of the lanes, with no copy into a Position and back.
int store_of(const Board& b, Side side) {
  return b[detail::store_slot(b.houses(), side)];
}
// The side to move's store minus the opponent's (Position::mover_lead).
int mover_lead(const Board& b) {
  const Side mover = b.side_to_move();
  return store_of(b, mover) - store_of(b, opponent(mover));
}
// Every seed is on the board or in a store: seeds on the board are the total less the stores.
int seeds_on_board(const Board& b, int total) {
  return total - store_of(b, Side::South) - store_of(b, Side::North);
}

}  // namespace

template <GameKind K>
int Solver::search(Worker& w, const Board& b, int alpha, int beta, int ply, bool all_node) {
  if ((++w.nodes & 1023) == 0) check_in(w);
  if (w.aborted) return 0;
  if (ply > kMaxSolvePly) {
    w.aborted = true;
    return 0;
  }
  const Side mover = b.side_to_move();
  const int lead = mover_lead(b);

  const uint32_t legal = legal_slots<K>(rules_, b);
  if (legal == 0) return final_outcome(rules_, detail::to_position(b)).lead(mover);
  // The seed bound: what is still on the board is all either side can gain.
  const int on_board = seeds_on_board(b, w.seeds);
  int lower = lead - on_board, upper = lead + on_board;
  if (lower >= beta) return lower;
  if (upper <= alpha) return upper;
  // (Only the root and the positions tested for best moves get here inside the tables: a
  // node values its children in the tables itself.)
  if (on_board <= endgame_max_seeds_) {
    if (const std::optional<int> v = endgame_->value(detail::to_position(b))) return lead + *v;
  }
  const uint64_t key = position_hash(b);
  if constexpr (K == GameKind::Oware) {
    if (const auto on_line = w.path.find(key); on_line != w.path.end()) {
      // A repetition: no further gain either way. The ply mark keeps what rests on it out of
      // the transposition table above the repeated position.
      w.repetition_ply = std::min(w.repetition_ply, on_line->second);
      return lead;
    }
  }
  int tt_move = -1;
  if (int e_lower, e_upper, e_move; find(key, e_lower, e_upper, e_move)) {
    lower = std::max(lower, lead + e_lower);
    upper = std::min(upper, lead + e_upper);
    if (lower >= beta || lower == upper) return lower;
    if (upper <= alpha) return upper;
    tt_move = e_move;
  }

  const int alpha_in = alpha;
  const int first = detail::first_house(rules_.houses, mover);
  int best = -kInfiniteScore;
  Move best_move = static_cast<Move>(std::countr_zero(legal) - first);
  auto consider = [&](int value, Move move) {
    if (value > best) {
      best = value;
      best_move = move;
      alpha = std::max(alpha, best);
    }
  };
  // A child's value for our mover when it needs no search: the game ended, the seed bound keeps
  // it out of the window, or the tables hold it (a leaf costs a probe instead of a call).
  auto settled = [&](const Board& c) -> std::optional<int> {
    const int child_seeds = seeds_on_board(c, w.seeds);
    if (ended_by_move<K>(rules_, c, child_seeds)) {
      // Kalah and Congkak settle an ended game at once (every seed in a store); the Oware
      // majority rule leaves seeds on the board to nobody.
      if constexpr (K == GameKind::Oware)
        return final_outcome(rules_, detail::to_position(c)).lead(mover);
      else
        return store_of(c, mover) - store_of(c, opponent(mover));
    }
    if (child_seeds > endgame_max_seeds_) return std::nullopt;
    // The seed bound first: a child that cannot reach the window needs no probe.
    const int sign = c.side_to_move() == mover ? 1 : -1;
    const int child_lead = mover_lead(c);
    const int reach = sign > 0 ? child_lead + child_seeds : -(child_lead - child_seeds);
    if (reach <= alpha) return reach;  // an upper bound, as the child's search would have returned
    if (const std::optional<int> v = endgame_->value(detail::to_position(c)))
      return sign * (child_lead + *v);
    return std::nullopt;
  };
  auto search_child = [&](const Board& c) {
    // The expected type of a node: a child where the same side moves again has its parent's, an
    // opponent's child the other one; once a child has been searched without a cutoff, the node
    // is failing low, and its later children are expected to cut off.
    const int v = c.side_to_move() == mover ? search<K>(w, c, alpha, beta, ply + 1, all_node)
                                            : -search<K>(w, c, -beta, -alpha, ply + 1, !all_node);
    all_node = true;
    return v;
  };

  const uint64_t nodes_before = w.nodes + w.checked_in;
  int saved_repetition = 0;
  if constexpr (K == GameKind::Oware) {
    saved_repetition = w.repetition_ply;
    w.repetition_ply = INT_MAX;
    w.path.emplace(key, ply);
  }
  // Marked busy while its children are searched (parallel solves only; cleared by the store).
  const bool shared = threads_ > 1;
  if (shared) mark_busy(key, lower - lead, upper - lead);

  // Enhanced transposition cutoffs (a child whose proven bound already refutes the window) wait
  // for every child's bucket; near the tables, where a child's search is mostly probes, that wait
  // costs more than the searches it spares. There the transposition table's move is searched
  // first instead, alone: in the repeated tests of MTD(f) it usually settles the node, and then
  // the other children are never made, probed or fetched.
  const bool etc = on_board >= etc_from_;
  uint32_t others = legal;
  if (!etc && tt_move >= 0 && (legal >> (first + tt_move) & 1)) {
    const int slot = first + tt_move;
    others &= ~(uint32_t{1} << slot);
    const Board c = apply_slot<K>(rules_, b, slot);
    const std::optional<int> value = settled(c);
    const int v = value ? *value : search_child(c);
    if (!w.aborted) consider(v, static_cast<Move>(tt_move));
  }

  // The other children: those that need no search are valued first (an exact value is the best
  // cutoff there is); the rest are ordered and searched. Their boards stay where they were made;
  // the order sorts small records that point at them.
  std::array<Board, kMaxHouses> boards;
  struct Child {
    uint64_t key;
    int order;
    Move move;
    uint8_t board;  // index in `boards`
  };
  std::array<Child, kMaxHouses> children;
  int n = 0;  // children left to search
  bool etc_cut = false;
  for (uint32_t slots = others; slots && best < beta && !w.aborted; slots &= slots - 1) {
    const int slot = std::countr_zero(slots);
    Board& c = boards[static_cast<size_t>(n)];
    c = apply_slot<K>(rules_, b, slot);
    const Move move = static_cast<Move>(slot - first);
    if (const std::optional<int> value = settled(c)) {
      consider(*value, move);
      continue;
    }
    Child& child = children[static_cast<size_t>(n)];
    child.key = position_hash(c);
    child.move = move;
    child.board = static_cast<uint8_t>(n);
    ++n;
  }
  // The cutoff check below waits on one cache miss per child (perf: 59% of a Kalah(6,4) solve
  // without tables stalled on that one load); the children's buckets are all asked for first, in
  // one tight loop, so that the misses overlap. Measured, paired whole runs on the AMD EPYC build
  // machine: 0.82 of the time before (empty-capture, no tables) and 0.84 (standard, over the
  // 0..20-seed tables). Prefetching each bucket as its child was made, among the sowings and the
  // table probes, had measured 1.4 to 1.7 times slower; probing the children's table values as a
  // batch (every rank first, their cache lines asked for, then the reads) 1.10 times slower than
  // this alone: it costs a Position per child and probes that a cutoff would have spared.
  if (best < beta && !w.aborted) {
    for (int i = 0; i < n; ++i) __builtin_prefetch(bucket_of(children[static_cast<size_t>(i)].key));
    for (int i = 0; i < n && !etc_cut; ++i) {
      Child& child = children[static_cast<size_t>(i)];
      const Board& c = boards[child.board];
      const bool same = c.side_to_move() == mover;
      if (int e_lower, e_upper, e_move; etc && find(child.key, e_lower, e_upper, e_move)) {
        const int child_lead = mover_lead(c);
        const int bound = same ? child_lead + e_lower : -(child_lead + e_upper);
        if (bound >= beta) {
          best = bound;
          best_move = child.move;
          etc_cut = true;
        }
      }
      // Order: the table's move; extra turns, the house nearest the store first (sowing a house
      // further back would drop a seed into the nearer ones and spoil their exact counts); then by
      // what the move gains; then the houses nearest the store first. Measured: 2 to 10 times fewer
      // nodes than ordering by gain alone (kalah:4:5, 4:6, 5:4, 6:3).
      const int gain = (store_of(c, mover) - store_of(b, mover)) -
                       (store_of(c, opponent(mover)) - store_of(b, opponent(mover)));
      child.order = (child.move == tt_move ? 1000 : 0) + (same ? 100 : 0) + child.move + 4 * gain;
    }
    // Insertion sort, best first (six children at most; ties keep the move order).
    for (int i = 1; i < n; ++i)
      for (int j = i; j > 0 && children[static_cast<size_t>(j)].order >
                                   children[static_cast<size_t>(j - 1)].order;
           --j)
        std::swap(children[static_cast<size_t>(j)], children[static_cast<size_t>(j - 1)]);
  }

  // In a parallel solve a child another thread is searching right now is put off until the
  // others are done (by then its bound is often in the table), so that the threads split a
  // node's children between them instead of all searching the same one ("ABDADA"). The first
  // child is put off only at a node expected to fail low (an ALL node, where every child is
  // searched anyway): at a node expected to cut off it is the likeliest cutoff, and a second
  // child searched meanwhile is likely wasted. Putting it off nowhere (as before) made both
  // threads walk every first child together down to the next split: Kalah(6,4) over the 0..20
  // tables searched 17-25% more nodes on two threads than on one; with the expected node type,
  // 4-9% more.
  std::array<int, kMaxHouses> deferred;
  int deferred_count = 0;
  for (int pass = 0, count = n; pass < 2 && best < beta && !w.aborted; ++pass) {
    for (int j = 0; j < count && best < beta; ++j) {
      const int i = pass == 0 ? j : deferred[static_cast<size_t>(j)];
      const Child& child = children[static_cast<size_t>(i)];
      if (pass == 0 && shared && (i > 0 || others != legal || all_node) && is_busy(child.key)) {
        deferred[static_cast<size_t>(deferred_count++)] = i;
        continue;
      }
      const int v = search_child(boards[child.board]);
      if (w.aborted) break;
      consider(v, child.move);
    }
    count = deferred_count;
  }
  bool storable = true;
  if constexpr (K == GameKind::Oware) {
    w.path.erase(key);
    storable = w.repetition_ply >= ply;  // it rests on no repetition of a position above
    w.repetition_ply = std::min(saved_repetition, w.repetition_ply);
  }
  if (w.aborted) {
    if (shared) clear_busy(key);
    return 0;
  }
  best = std::clamp(best, lower, upper);
  if (best >= beta)
    lower = best;
  else if (best <= alpha_in)
    upper = best;
  else
    lower = upper = best;
  if (!storable) {
    if (shared) clear_busy(key);
    return best;
  }
  // The work counts this thread's nodes below the node: exact with one thread; in a parallel
  // solve the others' share of the subtree is left out (counting every thread's nodes meanwhile,
  // as before, charged a small subtree with whatever the others searched elsewhere).
  // A cutoff from a child's stored bound searched nothing here (the table's move goes first only
  // where those cutoffs are not tried): the slot keeps the work it had.
  const uint64_t work = w.nodes + w.checked_in - nodes_before;
  store(key, lower - lead, upper - lead, best_move,
        etc_cut ? -1 : std::min<int>(1 + static_cast<int>(std::bit_width(work)), kMaxWork));
  return best;
}

bool Solver::run_test(Worker& w, const Position& p, int beta, int& result) {
  // A helper may wake up to a test that is already over.
  w.aborted = active_generation_.load() != w.generation;
  w.path.clear();
  w.repetition_ply = INT_MAX;
  w.seeds = p.seeds_total();
  const detail::Board board = detail::to_board(p);
  switch (rules_.kind) {
    case GameKind::Kalah:
      result = search<GameKind::Kalah>(w, board, beta - 1, beta, 0, root_all_);
      break;
    case GameKind::Oware:
      result = search<GameKind::Oware>(w, board, beta - 1, beta, 0, root_all_);
      break;
    case GameKind::Congkak:
      result = search<GameKind::Congkak>(w, board, beta - 1, beta, 0, root_all_);
      break;
  }
  total_nodes_.fetch_add(w.nodes, std::memory_order_relaxed);
  w.checked_in += w.nodes;
  w.nodes = 0;
  return !w.aborted;
}

namespace {

// Starts `body(argument)` on a thread with a large stack. Oware lines without repetition can run
// thousands of sowings deep before they end, beyond the usual 8 MB stack; the pages are only
// committed where the recursion reaches. False when no such thread could be made.
bool start_large_stack_thread(pthread_t& thread, void* (*body)(void*), void* argument) {
  constexpr size_t kStackBytes = size_t{1} << 30;
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  const bool started = pthread_attr_setstacksize(&attributes, kStackBytes) == 0 &&
                       pthread_create(&thread, &attributes, body, argument) == 0;
  pthread_attr_destroy(&attributes);
  return started;
}

}  // namespace

void Solver::helper_loop(Worker& w) {
  Helpers& h = *helpers_;
  uint64_t done = 0;  // the last test this helper took part in
  while (true) {
    Position position;
    int beta;
    {
      std::unique_lock<std::mutex> lock(h.mutex);
      h.wake.wait(lock, [&] { return h.quit || h.job != done; });
      if (h.quit) return;
      done = w.generation = h.job;
      position = h.position;
      beta = h.beta;
      ++h.busy;
    }
    int result = 0;
    const bool finished = run_test(w, position, beta, result);
    std::lock_guard<std::mutex> lock(h.mutex);
    if (finished && h.result_generation != w.generation) {
      h.result_generation = w.generation;
      h.result = result;
      active_generation_.store(0);  // the others stop
    }
    --h.busy;
    h.idle.notify_all();
  }
}

int Solver::test(const Position& p, int beta) {
  main_.generation = ++generation_;
  active_generation_.store(main_.generation);
  if (threads_ > 1 && !helpers_) {
    helpers_ = std::make_unique<Helpers>();
    for (int i = 1; i < threads_; ++i) {
      auto worker = std::make_unique<Worker>();
      worker->id = i;
      pthread_t thread;
      auto body = [](void* argument) -> void* {
        auto* pair = static_cast<std::pair<Solver*, Worker*>*>(argument);
        pair->first->helper_loop(*pair->second);
        delete pair;
        return nullptr;
      };
      auto* argument = new std::pair<Solver*, Worker*>(this, worker.get());
      if (!start_large_stack_thread(thread, body, argument)) {
        delete argument;
        break;  // fewer helpers, then
      }
      helpers_->threads.push_back(thread);
      helpers_->workers.push_back(std::move(worker));
    }
  }
  if (helpers_ && !helpers_->threads.empty()) {
    {
      std::lock_guard<std::mutex> lock(helpers_->mutex);
      helpers_->position = p;
      helpers_->beta = beta;
      helpers_->job = main_.generation;
    }
    helpers_->wake.notify_all();
  }
  int result = 0;
  const bool finished = run_test(main_, p, beta, result);
  if (!helpers_ || helpers_->threads.empty()) {
    active_generation_.store(0);
    aborted_ = !finished;
    return finished ? result : 0;
  }
  // Whoever finished first holds the result; the others stop, and the next test starts with
  // every helper idle.
  std::unique_lock<std::mutex> lock(helpers_->mutex);
  if (finished && helpers_->result_generation != main_.generation) {
    helpers_->result_generation = main_.generation;
    helpers_->result = result;
  }
  active_generation_.store(0);
  helpers_->idle.wait(lock, [&] { return helpers_->busy == 0; });
  aborted_ = helpers_->result_generation != main_.generation;
  return aborted_ ? 0 : helpers_->result;
}

std::vector<Move> Solver::moves_keeping(const Position& p, int value, bool all) {
  std::vector<Move> keeping;
  MoveList moves = generate_moves(rules_, p);
  // The table's move first: it is usually the one.
  if (int lower, upper, move;
      find(position_hash(p), lower, upper, move) && moves.contains(static_cast<Move>(move))) {
    MoveList ordered;
    ordered.push(static_cast<Move>(move));
    for (Move m : moves)
      if (m != move) ordered.push(m);
    moves = ordered;
  }
  for (Move m : moves) {
    const Position c = apply_move(rules_, p, m);
    bool keeps;
    if (generate_moves(rules_, c).empty()) {
      keeps = final_outcome(rules_, c).lead(p.side_to_move) >= value;
    } else if (c.side_to_move == p.side_to_move) {
      keeps = test(c, value) >= value;
    } else {
      keeps = test(c, -value + 1) < -value + 1;  // the opponent's value is at most -value
    }
    if (aborted_) break;
    if (keeps) {
      keeping.push_back(m);
      if (!all) break;
    }
  }
  return keeping;
}

std::vector<Move> Solver::principal_variation(const Position& root, int value, int max_plies) {
  std::vector<Move> pv;
  std::unordered_set<uint64_t> seen;  // an Oware line that comes round stops there
  Position p = root;
  // The line's final lead never changes along it; only its sign, with the side to move.
  for (int i = 0; i < max_plies && !generate_moves(rules_, p).empty(); ++i) {
    if (!seen.insert(position_hash(p)).second) break;
    const std::vector<Move> next = moves_keeping(p, value, false);
    if (next.empty()) break;  // only after a limit, or an Oware cycle
    const Position c = apply_move(rules_, p, next[0]);
    if (c.side_to_move != p.side_to_move) value = -value;
    pv.push_back(next[0]);
    p = c;
  }
  return pv;
}

namespace {

// Runs `work` on a thread with a large stack and waits for it.
void run_on_large_stack(const std::function<void()>& work) {
  pthread_t thread;
  auto body = [](void* argument) -> void* {
    (*static_cast<const std::function<void()>*>(argument))();
    return nullptr;
  };
  if (!start_large_stack_thread(thread, body, const_cast<std::function<void()>*>(&work))) {
    work();  // no thread to be had: the caller's stack will have to do
    return;
  }
  pthread_join(thread, nullptr);
}

}  // namespace

SolveResult Solver::solve(const Position& position, const SolveLimits& limits,
                          const std::function<void(const SolveProgress&)>& on_progress,
                          const SolveOptions& options) {
  SolveResult result;
  run_on_large_stack([&] { result = solve_here(position, limits, on_progress, options); });
  return result;
}

SolveResult Solver::solve_here(const Position& position, const SolveLimits& limits,
                               const std::function<void(const SolveProgress&)>& on_progress,
                               const SolveOptions& options) {
  budget_.start(limits.max_nodes, limits.max_seconds);
  total_nodes_.store(0);
  next_report_ = uint64_t{1} << 22;
  aborted_ = false;

  SolveResult result;
  const int lead = position.mover_lead();
  const int on_board = position.seeds_on_board();
  lower_ = lead - on_board;
  upper_ = lead + on_board;
  on_progress_ = on_progress ? &on_progress : nullptr;
  // Every seed ends in a store except in Oware (the majority rule can leave seeds on the
  // board), so elsewhere the value has the parity of lead + seeds on the board.
  const int step = rules_.kind == GameKind::Oware ? 1 : 2;

  auto prove_lower = [&](int v) {
    lower_ = std::max(lower_, v);
    if (step == 2 && ((lower_ - lead - on_board) & 1)) ++lower_;
  };
  auto prove_upper = [&](int v) {
    upper_ = std::min(upper_, v);
    if (step == 2 && ((upper_ - lead - on_board) & 1)) --upper_;
  };
  // MTD(f): null-window tests from a first guess, each moving one bound, until they meet. The
  // guess comes from a short depth-limited search (a node budget keeps it reproducible).
  int guess = lead;
  if (options.guess) {
    guess = *options.guess;
  } else {
    Search quick(rules_, 8, endgame_);
    SearchLimits quick_limits;
    quick_limits.max_nodes = 100000;
    guess = quick.run(position, quick_limits).score;
  }
  bool narrowing = options.outside_in;  // the outside-in tests, before MTD(f)'s
  bool lower_side_next = true;
  while (lower_ < upper_) {
    int g = std::clamp(guess, lower_, upper_);
    if (narrowing) {
      // Halfway from a bound to the guess, the sides in turn, while a bound is two steps or more
      // away from it. Each test moves one bound past its beta, so the bracket shrinks.
      const int below = g - lower_, above = upper_ - g;
      const bool lower_open = below >= 2 * step, upper_open = above >= 2 * step;
      if (lower_open || upper_open) {
        const bool lower_side = lower_open && (lower_side_next || !upper_open);
        g = lower_side ? lower_ + below / 2 : upper_ - above / 2;
        lower_side_next = !lower_side;
      } else {
        narrowing = false;
      }
    }
    if (step == 2 && ((g - lower_) & 1)) g += g < upper_ ? 1 : -1;
    const int beta = g == lower_ ? g + step : g;
    root_all_ = beta > guess;  // a test above the last answer is expected to fail
    const int r = test(position, beta);
    root_all_ = false;
    if (aborted_) break;
    if (r >= beta)
      prove_lower(r);
    else
      prove_upper(r);
    if (!narrowing) guess = r;  // narrowing keeps aiming at the first guess
    if (on_progress_) report_progress();
    // A test that finished past the limit (threads check in every 1024 nodes) keeps its answer,
    // and no other test starts: one would spend up to 1024 nodes a thread before its first check,
    // and tests shorter than that would run on unchecked, far past a small limit.
    if (lower_ < upper_ && budget_.exhausted(nodes())) break;
  }
  result.lower = lower_;
  result.upper = upper_;
  result.value_seconds = budget_.elapsed_seconds();
  on_progress_ = nullptr;
  if (lower_ == upper_) {
    result.solved = true;
    result.value = lower_;
    if (options.value_only) {
      // nothing more asked
    } else if (options.moves_only) {
      result.best = moves_keeping(position, result.value, true);
    } else if (options.line_within_limits) {
      result.pv = principal_variation(position, result.value, options.line_plies);
    } else {
      // The best moves and the line are part of the answer: no limit stops them halfway.
      budget_.remove_limits();
      result.best = moves_keeping(position, result.value, true);
      result.pv = principal_variation(position, result.value, options.line_plies);
    }
  }
  result.nodes = nodes();
  result.seconds = budget_.elapsed_seconds();
  return result;
}

namespace {

// A child's bounds, for the side that moved into it: the same when the move gave an extra turn,
// negated (and swapped) when the turn passed.
void bounds_for_mover(int sign, int child_lower, int child_upper, int& lower, int& upper) {
  lower = sign > 0 ? child_lower : -child_upper;
  upper = sign > 0 ? child_upper : -child_lower;
}

}  // namespace

EachMoveResult Solver::solve_each_move(
    const Position& position, const SolveLimits& limits,
    const std::function<void(const MoveBounds&)>& on_move,
    const std::function<void(Move, const SolveProgress&)>& on_progress,
    const EachMoveResume& resume) {
  const auto started = std::chrono::steady_clock::now();
  const MoveList moves = generate_moves(rules_, position);
  const int count = moves.size();
  const int resumed = static_cast<int>(resume.done.size());
  if (resumed > count) throw std::invalid_argument("solve_each_move: more moves done than legal");
  for (int i = 0; i < resumed; ++i)
    if (resume.done[static_cast<size_t>(i)].move != moves[i])
      throw std::invalid_argument("solve_each_move: the moves done are not this position's");
  // The time and nodes of the earlier runs, counted against the limits as this run's are.
  const double earlier_seconds =
      resumed < count ? resume.seconds_before_next + resume.seconds_on_next : 0;
  const auto elapsed = [&] { return earlier_seconds + seconds_since(started); };
  EachMoveResult all;
  all.lower = all.upper = INT_MIN;
  uint64_t nodes_spent = 0;
  SolveOptions value_only;
  value_only.value_only = true;
  value_only.outside_in = limits.max_seconds > 0 || limits.max_nodes > 0;
  for (int i = 0; i < count; ++i) {
    const Move m = moves[i];
    MoveBounds bounds;
    if (i < resumed) {
      bounds = resume.done[static_cast<size_t>(i)];
    } else {
      const Position c = apply_move(rules_, position, m);
      // The value of the move, for the side that plays it: the child's, negated when the turn
      // passes (an extra turn keeps the mover).
      const int sign = c.side_to_move == position.side_to_move ? 1 : -1;
      // The move a resumed run was in the middle of: its share was set when it began, and what
      // was spent on it then is part of its time and nodes.
      const bool going_on = i == resumed && (resume.seconds_on_next > 0 || resume.nodes_on_next);
      const double seconds_before = going_on ? resume.seconds_on_next : 0;
      const uint64_t nodes_before = going_on ? resume.nodes_on_next : 0;
      bounds.move = m;
      if (generate_moves(rules_, c).empty()) {
        bounds.solved = true;
        bounds.lower = bounds.upper = final_outcome(rules_, c).lead(position.side_to_move);
      } else {
        const int left = count - i;  // this move and those after it
        SolveLimits share;
        if (limits.max_seconds > 0)
          share.max_seconds =
              going_on ? std::max(limits.max_seconds - resume.seconds_before_next, 0.0) / left -
                             seconds_before
                       : std::max(limits.max_seconds - elapsed(), 0.0) / left;
        if (limits.max_nodes > 0) {
          const uint64_t spent = std::min(nodes_spent, limits.max_nodes);
          share.max_nodes = std::max<uint64_t>((limits.max_nodes - spent) / left, 1);
          share.max_nodes -= std::min(nodes_before, share.max_nodes - 1);
        }
        // A share of nothing would mean no limit: the moves after the time ran out get a moment.
        if (limits.max_seconds > 0 && share.max_seconds <= 0) share.max_seconds = 1e-6;
        std::function<void(const SolveProgress&)> progress;
        if (on_progress)
          progress = [&](const SolveProgress& child) {
            SolveProgress mover = child;
            bounds_for_mover(sign, child.lower, child.upper, mover.lower, mover.upper);
            mover.nodes += nodes_before;
            mover.seconds += seconds_before;
            on_progress(m, mover);
          };
        const SolveResult r = solve(c, share, progress, value_only);
        bounds.solved = r.solved;
        bounds_for_mover(sign, r.lower, r.upper, bounds.lower, bounds.upper);
        bounds.nodes = r.nodes + nodes_before;
        bounds.seconds = r.seconds + seconds_before;
      }
    }
    nodes_spent += bounds.nodes;
    all.moves.push_back(bounds);
    all.lower = std::max(all.lower, bounds.lower);
    all.upper = std::max(all.upper, bounds.upper);
    all.nodes += bounds.nodes;
    if (on_move) on_move(bounds);
  }
  all.solved = all.lower == all.upper;
  all.seconds = resumed < count ? elapsed() : resume.seconds_before_next;
  return all;
}

}  // namespace mancala
