#include "solver/solve.h"

#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <new>
#include <unordered_set>

#include <pthread.h>
#include <sys/mman.h>

namespace mancala {

namespace {

constexpr int kInfinity = 10000;
constexpr int16_t kMaxFuture = 30000;  // no bound yet

}  // namespace

// One transposition-table slot, 16 bytes; four share a 64-byte bucket (chosen by the low bits
// of the hash). All values are "futures": the final lead minus the present lead, for the mover.
//   check   the hash's high 32 bits
//   lower   proven lower bound on the future
//   upper   proven upper bound on the future
//   move    the best move found, tried first
//   work    1 + log2 of the nodes the last search of this position took; 0: an empty slot.
//           Within a bucket the slot of least work is replaced.
struct Solver::Entry {
  uint32_t check;
  int16_t lower;
  int16_t upper;
  uint8_t move;
  uint8_t work;
  uint8_t padding[6];
};
static_assert(sizeof(Solver::Entry) == 16);

namespace {
constexpr size_t kBucket = 4;

uint32_t check_of(uint64_t key) {
  return static_cast<uint32_t>(key >> 32);
}
}  // namespace

Solver::Solver(const Rules& rules, size_t table_megabytes, const ExactValues* tables)
    : rules_(rules), tables_(tables) {
  size_t buckets = 1;
  while (buckets * 2 * kBucket * sizeof(Entry) <= std::max<size_t>(table_megabytes, 1) << 20)
    buckets *= 2;
  // Fresh anonymous pages are zero (empty slots). Populating them up front costs less than a
  // page fault per 4 KB on first touch inside the search.
  table_bytes_ = buckets * kBucket * sizeof(Entry);
  void* memory = ::mmap(nullptr, table_bytes_, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  entries_ = static_cast<Entry*>(memory);
  bucket_mask_ = buckets - 1;
}

Solver::~Solver() {
  ::munmap(entries_, table_bytes_);
}

Solver::Entry* Solver::find(uint64_t key) {
  Entry* bucket = entries_ + (key & bucket_mask_) * kBucket;
  const uint32_t check = check_of(key);
  for (size_t i = 0; i < kBucket; ++i)
    if (bucket[i].check == check && bucket[i].work) return &bucket[i];
  return nullptr;
}

Solver::Entry& Solver::slot_for(uint64_t key) {
  Entry* bucket = entries_ + (key & bucket_mask_) * kBucket;
  const uint32_t check = check_of(key);
  Entry* slot = &bucket[0];
  for (size_t i = 0; i < kBucket; ++i) {
    if (bucket[i].check == check && bucket[i].work) return bucket[i];
    if (bucket[i].work < slot->work) slot = &bucket[i];
  }
  *slot = Entry{};
  slot->check = check;
  slot->lower = -kMaxFuture;
  slot->upper = kMaxFuture;
  return *slot;
}

void Solver::report_progress() {
  (*on_progress_)(
      {lower_, upper_, nodes_,
       std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count()});
}

bool Solver::out_of_limits() {
  if (stop_.load(std::memory_order_relaxed)) return true;
  if (limits_.max_nodes && nodes_ >= limits_.max_nodes) return true;
  if (limits_.max_seconds > 0) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    if (elapsed >= limits_.max_seconds) return true;
  }
  return false;
}

template <GameKind K>
int Solver::search(const Position& p, int alpha, int beta, int ply) {
  ++nodes_;
  if ((nodes_ & 4095) == 0) {
    if (out_of_limits()) aborted_ = true;
    // A test can take minutes: the bounds so far are reported as it goes.
    if ((nodes_ & ((1u << 22) - 1)) == 0 && on_progress_) report_progress();
  }
  if (aborted_) return 0;
  const Side mover = p.side_to_move;
  const int lead = p.mover_lead();

  MoveList moves;
  generate_moves<K>(rules_, p, moves);
  if (moves.empty()) {
    const Outcome end = final_outcome(rules_, p);
    return mover == Side::South ? end.difference() : -end.difference();
  }
  // The seed bound: what is still on the board is all either side can gain.
  const int on_board = p.seeds_on_board();
  int lower = lead - on_board, upper = lead + on_board;
  if (lower >= beta) return lower;
  if (upper <= alpha) return upper;
  if (tables_) {
    ++probes_;
    if (const std::optional<int> v = tables_->value(p)) return lead + *v;
  }
  const uint64_t key = position_hash(p);
  if constexpr (K == GameKind::Oware) {
    if (const auto on_line = path_.find(key); on_line != path_.end()) {
      // A repetition: no further gain either way. The ply mark keeps what rests on it out of
      // the transposition table above the repeated position.
      repetition_ply_ = std::min(repetition_ply_, on_line->second);
      return lead;
    }
  }
  int tt_move = -1;
  if (const Entry* e = find(key)) {
    lower = std::max(lower, lead + e->lower);
    upper = std::min(upper, lead + e->upper);
    if (lower >= beta || lower == upper) return lower;
    if (upper <= alpha) return upper;
    tt_move = e->move;
  }

  struct Child {
    Position position;
    Move move;
    int order;
  };
  std::array<Child, kMaxHouses> children;
  std::array<uint64_t, kMaxHouses> child_keys;
  const int n = moves.size();
  for (int i = 0; i < n; ++i) {
    Child& c = children[static_cast<size_t>(i)];
    c.move = moves[i];
    c.position = apply_move<K>(rules_, p, c.move);
    child_keys[static_cast<size_t>(i)] = position_hash(c.position);
    // The children's buckets are fetched together, not one cache miss after another.
    __builtin_prefetch(entries_ + (child_keys[static_cast<size_t>(i)] & bucket_mask_) * kBucket);
  }
  for (int i = 0; i < n; ++i) {
    Child& c = children[static_cast<size_t>(i)];
    const bool same = c.position.side_to_move == mover;
    // Enhanced transposition cutoff: a child whose proven bound already refutes the window.
    if (const Entry* e = find(child_keys[static_cast<size_t>(i)])) {
      const int child_lead = c.position.mover_lead();
      const int bound = same ? child_lead + e->lower : -(child_lead + e->upper);
      if (bound >= beta) {
        Entry& mine = slot_for(key);
        mine.lower = static_cast<int16_t>(std::max(lower, bound) - lead);
        mine.upper = static_cast<int16_t>(std::min<int>(mine.upper, upper - lead));
        mine.move = c.move;
        mine.work = std::max<uint8_t>(mine.work, 1);
        return bound;
      }
    }
    // Order: the table's move; extra turns, the house nearest the store first (sowing a house
    // further back would drop a seed into the nearer ones and spoil their exact counts); then
    // by what the move gains; then the houses nearest the store first. Measured: 2 to 10 times
    // fewer nodes than ordering by gain alone (kalah:4:5, 4:6, 5:4, 6:3).
    const int gain = (c.position.store(mover) - p.store(mover)) -
                     (c.position.store(opponent(mover)) - p.store(opponent(mover)));
    c.order = (c.move == tt_move ? 1000 : 0) + (same ? 100 : 0) + c.move + 4 * gain;
  }
  // Insertion sort, best first (six children at most; ties keep the move order).
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && children[static_cast<size_t>(j)].order >
                                 children[static_cast<size_t>(j - 1)].order;
         --j)
      std::swap(children[static_cast<size_t>(j)], children[static_cast<size_t>(j - 1)]);

  const uint64_t nodes_before = nodes_;
  int saved_repetition = 0;
  if constexpr (K == GameKind::Oware) {
    saved_repetition = repetition_ply_;
    repetition_ply_ = INT_MAX;
    path_.emplace(key, ply);
  }
  const int alpha_in = alpha;
  int best = -kInfinity;
  Move best_move = children[0].move;
  for (int i = 0; i < n; ++i) {
    const Child& c = children[static_cast<size_t>(i)];
    const int v = c.position.side_to_move == mover ? search<K>(c.position, alpha, beta, ply + 1)
                                                   : -search<K>(c.position, -beta, -alpha, ply + 1);
    if (aborted_) break;
    if (v > best) {
      best = v;
      best_move = c.move;
    }
    if (best >= beta) break;
    if (best > alpha) alpha = best;
  }
  bool storable = true;
  if constexpr (K == GameKind::Oware) {
    path_.erase(key);
    storable = repetition_ply_ >= ply;  // it rests on no repetition of a position above
    repetition_ply_ = std::min(saved_repetition, repetition_ply_);
  }
  if (aborted_) return 0;
  best = std::clamp(best, lower, upper);
  if (best >= beta)
    lower = best;
  else if (best <= alpha_in)
    upper = best;
  else
    lower = upper = best;
  if (!storable) return best;
  Entry& entry = slot_for(key);
  entry.lower = static_cast<int16_t>(lower - lead);
  entry.upper = static_cast<int16_t>(upper - lead);
  entry.move = best_move;
  entry.work = static_cast<uint8_t>(
      std::min<int>(1 + static_cast<int>(std::bit_width(nodes_ - nodes_before)), 255));
  return best;
}

int Solver::dispatch(const Position& p, int alpha, int beta) {
  path_.clear();
  repetition_ply_ = INT_MAX;
  switch (rules_.kind) {
    case GameKind::Kalah:
      return search<GameKind::Kalah>(p, alpha, beta, 0);
    case GameKind::Oware:
      return search<GameKind::Oware>(p, alpha, beta, 0);
    case GameKind::Congkak:
      return search<GameKind::Congkak>(p, alpha, beta, 0);
  }
  return 0;
}

int Solver::test(const Position& p, int beta) {
  return dispatch(p, beta - 1, beta);
}

std::vector<Move> Solver::moves_keeping(const Position& p, int value, bool all) {
  std::vector<Move> keeping;
  MoveList moves = generate_moves(rules_, p);
  // The table's move first: it is usually the one.
  if (const Entry* e = find(position_hash(p)); e && moves.contains(e->move)) {
    MoveList ordered;
    ordered.push(e->move);
    for (Move m : moves)
      if (m != e->move) ordered.push(m);
    moves = ordered;
  }
  for (Move m : moves) {
    const Position c = apply_move(rules_, p, m);
    bool keeps;
    if (generate_moves(rules_, c).empty()) {
      const Outcome end = final_outcome(rules_, c);
      keeps = (p.side_to_move == Side::South ? end.difference() : -end.difference()) >= value;
    } else if (c.side_to_move == p.side_to_move) {
      keeps = test(c, value) >= value;
    } else {
      keeps = test(c, -value + 1) < -value + 1;  // the opponent's value is at most -value
    }
    if (aborted_) return {};
    if (keeps) {
      keeping.push_back(m);
      if (!all) break;
    }
  }
  return keeping;
}

std::vector<Move> Solver::principal_variation(const Position& root, int value) {
  std::vector<Move> pv;
  std::unordered_set<uint64_t> seen;  // an Oware line that comes round stops there
  Position p = root;
  // The line's final lead never changes along it; only its sign, with the side to move.
  for (int i = 0; i < 400 && !generate_moves(rules_, p).empty(); ++i) {
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

// Runs `work` on a thread with a large stack and waits for it. Oware lines without repetition
// can run thousands of sowings deep before they end, beyond the usual 8 MB stack; the pages
// are only committed where the recursion reaches.
void run_on_large_stack(const std::function<void()>& work) {
  constexpr size_t kStackBytes = size_t{1} << 30;
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_t thread;
  const bool sized = pthread_attr_setstacksize(&attributes, kStackBytes) == 0;
  auto body = [](void* argument) -> void* {
    (*static_cast<const std::function<void()>*>(argument))();
    return nullptr;
  };
  if (!sized ||
      pthread_create(&thread, &attributes, body, const_cast<std::function<void()>*>(&work)) != 0) {
    pthread_attr_destroy(&attributes);
    work();  // no thread to be had: the caller's stack will have to do
    return;
  }
  pthread_attr_destroy(&attributes);
  pthread_join(thread, nullptr);
}

}  // namespace

SolveResult Solver::solve(const Position& position, const SolveLimits& limits,
                          const std::function<void(const SolveProgress&)>& on_progress) {
  SolveResult result;
  run_on_large_stack([&] { result = solve_here(position, limits, on_progress); });
  return result;
}

SolveResult Solver::solve_here(const Position& position, const SolveLimits& limits,
                               const std::function<void(const SolveProgress&)>& on_progress) {
  started_ = std::chrono::steady_clock::now();
  limits_ = limits;
  nodes_ = 0;
  probes_ = 0;
  aborted_ = false;
  stop_.store(false);
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  };

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
  {
    Search quick(rules_, 8, tables_);
    SearchLimits quick_limits;
    quick_limits.max_nodes = 100000;
    guess = quick.run(position, quick_limits).score;
  }
  while (lower_ < upper_) {
    int g = std::clamp(guess, lower_, upper_);
    if (step == 2 && ((g - lower_) & 1)) g += g < upper_ ? 1 : -1;
    const int beta = g == lower_ ? g + step : g;
    const int r = test(position, beta);
    if (aborted_) break;
    if (r >= beta)
      prove_lower(r);
    else
      prove_upper(r);
    guess = r;
    if (on_progress_) report_progress();
  }
  result.lower = lower_;
  result.upper = upper_;
  result.value_seconds = elapsed();
  on_progress_ = nullptr;
  if (lower_ == upper_) {
    result.solved = true;
    result.value = lower_;
    // The best moves and the line are part of the answer: no limit stops them halfway.
    limits_ = {};
    result.best = moves_keeping(position, result.value, true);
    result.pv = principal_variation(position, result.value);
  }
  result.nodes = nodes_;
  result.table_probes = probes_;
  result.seconds = elapsed();
  return result;
}

}  // namespace mancala
