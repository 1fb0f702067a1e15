// mancala.Search (iterative deepening within limits), mancala.solve (a position's exact value) and
// mancala.Player (the computer levels 1-6). Each releases the GIL while it thinks.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "solver/rules/game.h"
#include "solver/search/evaluation.h"
#include "solver/search/players.h"
#include "solver/search/search.h"
#include "solver/search/solve.h"
#include "solver/tables/built_tables.h"
#include "solver/tables/table_index.h"
#include "tools/python/bindings.h"
#include "tools/python/tables.h"
#include "tools/service/analysis.h"
#include "tools/service/solving.h"
#include "tools/service/validation.h"

namespace mancala::python {

namespace {

const ExactValues* exact_values(const std::shared_ptr<TablesObject>& tables, const Rules& rules) {
  if (!tables) return nullptr;
  if (tables->rules.table_name() != rules.table_name() || tables->rules.houses != rules.houses)
    throw py::value_error("the tables are " + tables->rules.table_name() + "'s, not " +
                          rules.name() + "'s");
  return tables->values.get();
}

void require_moves(const Rules& rules, const Position& p) {
  if (generate_moves(rules, p).empty())
    throw py::value_error("the game is over in " + to_string(p) + ": there is nothing to search");
}

// One object must not think in two threads at once (its tables of what it learnt are not shared).
std::unique_lock<std::mutex> claim(std::mutex& busy, const char* what) {
  std::unique_lock<std::mutex> lock(busy, std::try_to_lock);
  if (!lock.owns_lock())
    throw std::runtime_error(std::string("this ") + what +
                             " is already thinking in another thread; make one per thread");
  return lock;
}

// A time limit from Python: finite, above 0, at most a year (NaN and infinities refused).
double seconds_argument(double seconds, const char* name = "seconds") {
  const Expected<double> checked = service::check_seconds(seconds);
  if (!checked) throw py::value_error(std::string(name) + " " + checked.error());
  return *checked;
}

// Megabytes of a transposition table: at least 1, at most the machine's memory (its bytes
// computed without overflow).
size_t megabytes_argument(uint64_t megabytes) {
  const Expected<uint64_t> bytes = service::megabytes_to_bytes(megabytes);
  if (!bytes) throw py::value_error("hash_mb " + bytes.error());
  return static_cast<size_t>(megabytes);
}

struct SearchResultObject {
  std::string best;
  int score = 0;
  bool proven = false;
  int depth = 0;
  uint64_t nodes = 0;
  double seconds = 0;
  std::vector<std::string> pv;
};

class SearchObject {
 public:
  SearchObject(const Rules& rules, size_t megabytes, std::shared_ptr<TablesObject> tables,
               bool evaluation)
      : tables_(std::move(tables)),
        search_(std::make_unique<Search>(rules, megabytes_argument(megabytes),
                                         exact_values(tables_, rules))) {
    search_->set_evaluation(evaluation);
  }

  SearchResultObject run(py::handle position, std::optional<int> depth,
                         std::optional<uint64_t> nodes, std::optional<double> seconds) {
    const Rules& rules = search_->rules();
    const Position p = position_argument(rules, position);
    require_moves(rules, p);
    if (!depth && !nodes && !seconds)
      throw py::value_error("give the search a limit: depth, nodes or seconds");
    SearchLimits limits;
    if (depth) {
      if (*depth < 1) throw py::value_error("depth must be at least 1");
      limits.max_depth = *depth;
    }
    if (nodes) {
      if (*nodes < 1) throw py::value_error("nodes must be at least 1");
      limits.max_nodes = *nodes;
    }
    if (seconds) {
      limits.max_seconds = seconds_argument(*seconds);
    }
    // A stop() from the moment this call is made is this run's. The search forgets earlier stops
    // when it starts, and it starts a little after the claim below (the thread gives up the
    // interpreter lock first), while another thread already finds it thinking: a stop() in that
    // gap is counted here and passed on after the first depth (a few nodes) instead of being lost.
    const uint64_t stops_before = stops_.load();
    const std::unique_lock<std::mutex> lock = claim(busy_, "Search");
    SearchResult r;
    {
      py::gil_scoped_release release;
      r = search_->run(p, limits, [&](const SearchResult&) {
        if (stops_.load() != stops_before) search_->stop();
      });
    }
    return {letter(p.side_to_move, r.best), r.score, r.proven, r.depth, r.nodes, r.seconds,
            move_letters(rules, p, r.pv)};
  }

  void stop() {
    ++stops_;
    search_->stop();
  }
  void clear() {
    const std::unique_lock<std::mutex> lock = claim(busy_, "Search");
    search_->clear();
  }
  const Rules& rules() const { return search_->rules(); }

 private:
  std::shared_ptr<TablesObject> tables_;  // kept alive while the search may probe them
  std::unique_ptr<Search> search_;
  std::mutex busy_;
  std::atomic<uint64_t> stops_{0};  // stop() calls so far (run() compares its start's count)
};

// The layers a solve built in memory before searching (docs/solving.md, "Solving from nothing").
struct TablesBuiltObject {
  int max_seeds = 0;
  double seconds = 0;
  uint64_t bytes = 0;
};

struct SolveResultObject {
  bool solved = false;
  int value = 0;
  int lower = 0, upper = 0;
  std::vector<std::string> best;
  std::vector<std::string> pv;
  uint64_t nodes = 0;
  double seconds = 0;
  double value_seconds = 0;
  std::optional<TablesBuiltObject> tables_built;
};

// What solve and solve_each_move are asked, checked: the position, its limits and its tables.
struct SolveRequest {
  Rules rules;
  Position position;
  SolveLimits limits;
  const ExactValues* given = nullptr;  // the tables passed in, if any
  int to_build = -1;                   // the layers to build first (-1: none)
  size_t hash_megabytes = 0;
  int threads = 1;
};

SolveRequest solve_request(py::handle game, py::handle position, std::optional<double> seconds,
                           std::optional<uint64_t> nodes,
                           const std::shared_ptr<TablesObject>& tables, size_t hash_megabytes,
                           int threads, std::optional<int> build_tables) {
  SolveRequest r;
  r.rules = rules_argument(game);
  r.position = position.is_none() ? start_position(r.rules) : position_argument(r.rules, position);
  require_moves(r.rules, r.position);
  r.hash_megabytes = megabytes_argument(hash_megabytes);
  if (threads < 1) throw py::value_error("threads must be at least 1");
  r.threads = threads;
  if (build_tables && (*build_tables < -1 || *build_tables > kMaxTableSeeds))
    throw py::value_error("build_tables must be from -1 to " + std::to_string(kMaxTableSeeds) +
                          ", not " + std::to_string(*build_tables));
  if (seconds) r.limits.max_seconds = seconds_argument(*seconds);
  if (nodes) {
    if (*nodes < 1) throw py::value_error("nodes must be at least 1");
    r.limits.max_nodes = *nodes;
  }
  r.given = exact_values(tables, r.rules);
  r.to_build = service::seeds_to_build_before_solving(
      r.rules, r.position, r.given ? r.given->max_seeds() : -1, build_tables);
  return r;
}

// Builds the layers the request asks for first (with the GIL released), then runs `work` with a
// solver over the tables: the built ones, else those given.
template <class Work>
std::optional<TablesBuiltObject> with_solver(const SolveRequest& request, Work&& work) {
  py::gil_scoped_release release;
  std::unique_ptr<BuiltTables> built;
  std::optional<TablesBuiltObject> report;
  if (request.to_build >= 0) {
    built = std::make_unique<BuiltTables>(request.rules, request.to_build, request.threads);
    report = TablesBuiltObject{built->max_seeds(), built->build_seconds(), built->bytes()};
  }
  Solver solver(request.rules, request.hash_megabytes,
                built ? static_cast<const ExactValues*>(built.get()) : request.given,
                request.threads);
  work(solver);
  return report;
}

SolveResultObject solve(py::handle game, py::handle position, std::optional<double> seconds,
                        std::optional<uint64_t> nodes, const std::shared_ptr<TablesObject>& tables,
                        size_t hash_megabytes, int threads, std::optional<int> build_tables) {
  const SolveRequest request =
      solve_request(game, position, seconds, nodes, tables, hash_megabytes, threads, build_tables);
  const Position& p = request.position;
  SolveResult r;
  const std::optional<TablesBuiltObject> built =
      with_solver(request, [&](Solver& solver) { r = solver.solve(p, request.limits); });
  SolveResultObject out{r.solved, r.value, r.lower,   r.upper,         {},
                        {},       r.nodes, r.seconds, r.value_seconds, built};
  for (Move m : r.best) out.best.push_back(letter(p.side_to_move, m));
  out.pv = move_letters(request.rules, p, r.pv);
  return out;
}

struct MoveBoundsObject {
  std::string move;
  bool solved = false;
  int lower = 0, upper = 0;
  uint64_t nodes = 0;
  double seconds = 0;
};

struct EachMoveResultObject {
  std::vector<MoveBoundsObject> moves;
  bool solved = false;
  int lower = 0, upper = 0;
  uint64_t nodes = 0;
  double seconds = 0;
  std::optional<TablesBuiltObject> tables_built;
};

EachMoveResultObject solve_each_move(py::handle game, py::handle position,
                                     std::optional<double> seconds, std::optional<uint64_t> nodes,
                                     const std::shared_ptr<TablesObject>& tables,
                                     size_t hash_megabytes, int threads,
                                     std::optional<int> build_tables) {
  const SolveRequest request =
      solve_request(game, position, seconds, nodes, tables, hash_megabytes, threads, build_tables);
  EachMoveResult r;
  const std::optional<TablesBuiltObject> built = with_solver(request, [&](Solver& solver) {
    r = solver.solve_each_move(request.position, request.limits);
  });
  EachMoveResultObject out{{}, r.solved, r.lower, r.upper, r.nodes, r.seconds, built};
  for (const MoveBounds& m : r.moves)
    out.moves.push_back({letter(request.position.side_to_move, m.move), m.solved, m.lower, m.upper,
                         m.nodes, m.seconds});
  return out;
}

struct MoveAnalysisObject {
  std::string move;
  int score = 0;
  bool exact = false;
  std::string provenance;
  int depth = 0;
  std::vector<std::string> line;
  bool ends_game = false;
  std::optional<int> final_score;
};

struct AnalysisObject {
  std::vector<MoveAnalysisObject> moves;
  std::vector<std::string> best;
  bool from_tables = false;
  std::string margin;
  uint64_t nodes = 0;
};

AnalysisObject analyse(py::handle game, py::handle position,
                       const std::shared_ptr<TablesObject>& tables, std::optional<double> seconds,
                       std::optional<int> depth) {
  const Rules rules = rules_argument(game);
  const Position p =
      position.is_none() ? start_position(rules) : position_argument(rules, position);
  require_moves(rules, p);
  service::AnalysisLimits limits;
  if (seconds) limits.seconds = seconds_argument(*seconds);
  if (depth) {
    if (*depth < 1 || *depth > service::kMaxAnalysisDepth)
      throw py::value_error("depth must be from 1 to " +
                            std::to_string(service::kMaxAnalysisDepth));
    limits.depth = *depth;
  }
  const ExactValues* endgame = exact_values(tables, rules);
  service::Analysis a;
  {
    py::gil_scoped_release release;
    a = service::analyse(rules, p, limits, endgame ? tables->values.get() : nullptr);
  }
  AnalysisObject out;
  out.from_tables = a.from_tables;
  out.margin = service::margin_name(a.margin);
  out.nodes = a.nodes;
  for (const service::MoveAnalysis& m : a.moves) {
    out.moves.push_back({letter(p.side_to_move, m.move), m.score, m.exact(),
                         service::provenance_name(m.provenance), m.depth,
                         move_letters(rules, p, m.line), m.ends_game,
                         m.ends_game ? std::optional<int>(m.final_score) : std::nullopt});
  }
  for (Move m : a.best_moves()) out.best.push_back(letter(p.side_to_move, m));
  return out;
}

struct ThinkingObject {
  std::string move;
  int depth = 0;
  int score = 0;
  bool exact = false;
  bool from_tables = false;
  std::vector<std::string> pv;
  uint64_t nodes = 0;
  double seconds = 0;
};

class PlayerObject {
 public:
  PlayerObject(const Rules& rules, const PlayerOptions& options,
               std::shared_ptr<TablesObject> tables)
      : rules_(rules), tables_(std::move(tables)) {
    PlayerOptions o = options;
    o.endgame = exact_values(tables_, rules);
    player_ = std::make_unique<Player>(rules, o);
  }

  ThinkingObject think(const Game& match) {
    if (!(match.rules() == rules_))
      throw py::value_error("the match is " + match.rules().name() + ", the player plays " +
                            rules_.name());
    if (match.is_over())
      throw py::value_error("the game is over in " + to_string(match.position()));
    const std::unique_lock<std::mutex> lock = claim(busy_, "Player");
    Thinking t;
    Move move;
    {
      py::gil_scoped_release release;
      move = player_->choose(match, &t);
    }
    const Position& p = match.position();
    return {letter(p.side_to_move, move),  t.depth, t.score,  t.exact, t.from_tables,
            move_letters(rules_, p, t.pv), t.nodes, t.seconds};
  }

  int level() const { return player_->level(); }
  std::string name() const { return level_name(player_->level(), rules_); }

 private:
  Rules rules_;
  std::shared_ptr<TablesObject> tables_;
  std::unique_ptr<Player> player_;
  std::mutex busy_;
};

}  // namespace

void add_searches(py::module_& m) {
  py::class_<SearchResultObject>(m, "SearchResult", "What a search found (Search.run).")
      .def_readonly("best", &SearchResultObject::best, "The best move found, a letter.")
      .def_readonly("score", &SearchResultObject::score,
                    "The predicted final store difference for the side to move.")
      .def_readonly("proven", &SearchResultObject::proven,
                    "The score is the exact game-theoretic value.")
      .def_readonly("depth", &SearchResultObject::depth, "The last completed depth, in plies.")
      .def_readonly("nodes", &SearchResultObject::nodes)
      .def_readonly("seconds", &SearchResultObject::seconds)
      .def_readonly("pv", &SearchResultObject::pv, "The principal variation, as letters.")
      .def("__repr__", [](const SearchResultObject& r) {
        return "SearchResult(best='" + r.best + "', score=" + std::to_string(r.score) +
               ", proven=" + (r.proven ? "True" : "False") + ", depth=" + std::to_string(r.depth) +
               ")";
      });

  py::class_<SearchObject>(m, "Search", R"doc(
The heuristic search: PVS alpha-beta with iterative deepening and a transposition table, scoring
the horizon by the store difference (in Oware, with `evaluation`, also by how the seeds lie:
oware_features); with `tables`, positions inside the endgame tables are scored exactly. A Search
keeps its transposition table between runs (clear() empties it). One thread at a time may run it;
stop() may be called from any thread.)doc")
      .def(py::init([](py::handle game, size_t hash_mb, std::shared_ptr<TablesObject> tables,
                       bool evaluation) {
             return std::make_unique<SearchObject>(rules_argument(game), hash_mb, std::move(tables),
                                                   evaluation);
           }),
           py::arg("game"), py::arg("hash_mb") = 16, py::arg("tables") = nullptr,
           py::arg("evaluation") = true,
           "A search of `game` with a transposition table of `hash_mb` megabytes and, optionally, "
           "a Tables object; evaluation=False scores the Oware horizon by the stores alone.")
      .def_property_readonly("game", &SearchObject::rules)
      .def("run", &SearchObject::run, py::arg("position"), py::arg("depth") = py::none(),
           py::arg("nodes") = py::none(), py::arg("seconds") = py::none(),
           "Searches `position` (not over) deeper and deeper until one of the limits (at least "
           "one is needed: depth in plies, nodes, seconds), a proven score or stop(). Returns a "
           "SearchResult of the last completed depth. Releases the GIL.")
      .def("stop", &SearchObject::stop,
           "Asks a running search (in another thread) to stop; it returns what it has.")
      .def("clear", &SearchObject::clear, "Empties the transposition table.");

  m.def(
      "oware_features",
      [](py::handle game, py::handle position) {
        const Rules rules = rules_argument(game);
        if (rules.kind != GameKind::Oware)
          throw py::value_error("oware_features takes an Oware game");
        const Position p = position_argument(rules, position);
        const OwareFeatures mine = oware_features(p, p.side_to_move);
        const OwareFeatures theirs = oware_features(p, opponent(p.side_to_move));
        std::vector<int> difference;
        for (size_t i = 0; i < mine.size(); ++i) difference.push_back(mine[i] - theirs[i]);
        return difference;
      },
      py::arg("game"), py::arg("position"),
      "The features of Oware's evaluation (empty houses, houses of 1-2 seeds, houses of 12 or "
      "more, seeds on the row), the side to move's count minus the opponent's.");

  py::class_<TablesBuiltObject>(m, "TablesBuilt",
                                "The endgame tables a solve built in memory before it searched.")
      .def_readonly("max_seeds", &TablesBuiltObject::max_seeds, "Layers 0..max_seeds were built.")
      .def_readonly("seconds", &TablesBuiltObject::seconds, "The build's wall time.")
      .def_readonly("bytes", &TablesBuiltObject::bytes, "Their memory: one byte a position.")
      .def("__repr__", [](const TablesBuiltObject& t) {
        return "TablesBuilt(max_seeds=" + std::to_string(t.max_seeds) +
               ", bytes=" + std::to_string(t.bytes) + ")";
      });

  py::class_<SolveResultObject>(m, "SolveResult", "A position's exact value (solve).")
      .def_readonly("solved", &SolveResultObject::solved,
                    "False when a limit stopped it: lower and upper hold what was proven.")
      .def_readonly("value", &SolveResultObject::value,
                    "The final store difference for the side to move with perfect play.")
      .def_readonly("lower", &SolveResultObject::lower, "Proven lower bound on the value.")
      .def_readonly("upper", &SolveResultObject::upper, "Proven upper bound on the value.")
      .def_readonly("best", &SolveResultObject::best, "Every move that keeps the value.")
      .def_readonly("pv", &SolveResultObject::pv,
                    "A principal variation, to the end of the game or into the tables.")
      .def_readonly("nodes", &SolveResultObject::nodes)
      .def_readonly("seconds", &SolveResultObject::seconds)
      .def_readonly("value_seconds", &SolveResultObject::value_seconds)
      .def_readonly("tables_built", &SolveResultObject::tables_built,
                    "The tables built in memory before the search (a TablesBuilt), or None.")
      .def("__repr__", [](const SolveResultObject& r) {
        return "SolveResult(solved=" + std::string(r.solved ? "True" : "False") +
               ", value=" + std::to_string(r.value) + ", lower=" + std::to_string(r.lower) +
               ", upper=" + std::to_string(r.upper) + ")";
      });

  m.def("solve", &solve, py::arg("game"), py::arg("position") = py::none(),
        py::arg("seconds") = py::none(), py::arg("nodes") = py::none(), py::arg("tables") = nullptr,
        py::arg("hash_mb") = 64, py::arg("threads") = 1, py::arg("build_tables") = py::none(),
        R"doc(
The exact value of `position` (default: the start) of `game` with perfect play, as `mancala solve`
finds it (MTD(f) with proven bounds, no horizon): a SolveResult with the value, every best first
move and a line. `seconds` or `nodes` stop the search early with the bounds proven so far
(solved=False); `tables` (a Tables) ends lines where the endgame tables know the value. When the
tables given stop below the layers worth building (as `mancala solve` decides: none for small games
and Oware), those layers are built in memory first, for this call (`tables_built` says so; they
are not limited by `seconds` or `nodes`); `build_tables` asks for another depth (-1: none).
`hash_mb` sizes the transposition table, `threads` the threads that build and search together.
Releases the GIL.)doc");

  py::class_<MoveBoundsObject>(m, "MoveBounds", "Proven bounds on one move's value.")
      .def_readonly("move", &MoveBoundsObject::move, "The move, a letter.")
      .def_readonly("solved", &MoveBoundsObject::solved, "lower == upper: the exact value.")
      .def_readonly("lower", &MoveBoundsObject::lower,
                    "Proven lower bound on the final store difference for the mover after it.")
      .def_readonly("upper", &MoveBoundsObject::upper, "Proven upper bound on the same.")
      .def_readonly("nodes", &MoveBoundsObject::nodes)
      .def_readonly("seconds", &MoveBoundsObject::seconds)
      .def("__repr__", [](const MoveBoundsObject& b) {
        return "MoveBounds(move='" + b.move + "', lower=" + std::to_string(b.lower) +
               ", upper=" + std::to_string(b.upper) + ")";
      });

  py::class_<EachMoveResultObject>(m, "EachMoveResult",
                                   "Bounds on every move's value (solve_each_move).")
      .def_readonly("moves", &EachMoveResultObject::moves, "A MoveBounds for each legal move.")
      .def_readonly("solved", &EachMoveResultObject::solved,
                    "The position's value is proven: lower == upper.")
      .def_readonly("lower", &EachMoveResultObject::lower,
                    "The position's value is at least this (its moves' greatest lower bound).")
      .def_readonly("upper", &EachMoveResultObject::upper,
                    "The position's value is at most this (its moves' greatest upper bound).")
      .def_readonly("nodes", &EachMoveResultObject::nodes)
      .def_readonly("seconds", &EachMoveResultObject::seconds)
      .def_readonly("tables_built", &EachMoveResultObject::tables_built,
                    "The tables built in memory before the search (a TablesBuilt), or None.")
      .def("__repr__", [](const EachMoveResultObject& r) {
        return "EachMoveResult(solved=" + std::string(r.solved ? "True" : "False") +
               ", lower=" + std::to_string(r.lower) + ", upper=" + std::to_string(r.upper) +
               ", moves=" + std::to_string(r.moves.size()) + ")";
      });

  m.def("solve_each_move", &solve_each_move, py::arg("game"), py::arg("position") = py::none(),
        py::arg("seconds") = py::none(), py::arg("nodes") = py::none(), py::arg("tables") = nullptr,
        py::arg("hash_mb") = 64, py::arg("threads") = 1, py::arg("build_tables") = py::none(),
        R"doc(
Proven bounds on the value of every legal move of `position` (default: the start), as `mancala
solve --each-move` finds them: an EachMoveResult whose `moves` hold each move's `lower` and `upper`
for the side that plays it (equal when solved), and the position's own bounds. The moves share
`seconds` and `nodes`, each an equal part of what the moves before it left, and each is solved
outside in under a limit (the bounds closing on the first guess from both sides); without limits
every move is solved. Tables as for solve (given, or built in memory first: `tables_built`).
Releases the GIL.)doc");

  py::class_<MoveAnalysisObject>(m, "MoveAnalysis", "One move of an analysis.")
      .def_readonly("move", &MoveAnalysisObject::move, "The move, a letter.")
      .def_readonly("score", &MoveAnalysisObject::score,
                    "The predicted final store difference for the mover after this move.")
      .def_readonly("exact", &MoveAnalysisObject::exact, "The score is the exact value.")
      .def_readonly("provenance", &MoveAnalysisObject::provenance,
                    "'tables' (exact, from the endgame tables), 'proven' (exact, proven by the "
                    "solver or a search to the end) or 'estimate' (a search's, at `depth`).")
      .def_readonly("depth", &MoveAnalysisObject::depth, "Plies behind an estimate; 0 if exact.")
      .def_readonly("line", &MoveAnalysisObject::line, "This move, then the expected play.")
      .def_readonly("ends_game", &MoveAnalysisObject::ends_game, "The move ends the game.")
      .def_readonly("final_score", &MoveAnalysisObject::final_score,
                    "With ends_game: the game's own final store difference for the mover (in "
                    "Oware it differs from score when a majority leaves seeds on the board); "
                    "else None.")
      .def("__repr__", [](const MoveAnalysisObject& a) {
        return "MoveAnalysis(move='" + a.move + "', score=" + std::to_string(a.score) +
               ", provenance='" + a.provenance + "')";
      });
  py::class_<AnalysisObject>(m, "Analysis", "Every legal move of a position valued (analyse).")
      .def_readonly("moves", &AnalysisObject::moves, "Every legal move, best first.")
      .def_readonly("best", &AnalysisObject::best, "The moves of the best score, as letters.")
      .def_readonly("from_tables", &AnalysisObject::from_tables)
      .def_readonly("margin", &AnalysisObject::margin,
                    "What the scores count: 'game' (the game's own final store difference) or "
                    "'tables' (Oware with tables: the tables' count, play going on past a "
                    "majority until the board is empty; its sign, the result, is exact).")
      .def_readonly("nodes", &AnalysisObject::nodes)
      .def("__repr__", [](const AnalysisObject& a) {
        return "Analysis(best=" + (a.moves.empty() ? std::string("?") : a.moves.front().move) +
               ", score=" +
               (a.moves.empty() ? std::string("?") : std::to_string(a.moves.front().score)) +
               ", moves=" + std::to_string(a.moves.size()) + ")";
      });
  m.def("analyse", &analyse, py::arg("game"), py::arg("position") = py::none(),
        py::arg("tables") = nullptr, py::arg("seconds") = py::none(), py::arg("depth") = py::none(),
        R"doc(
Every legal move of `position` (default: the start) of `game` with its score and where the score
comes from, best first: the same analysis as `mancala analyse` and the HTTP API's /analyse. From
`tables` (a Tables) when they hold the position; otherwise each move is solved within a share of the
time and searched with the rest (`seconds` for the whole analysis, default 2), or searched to
`depth` plies (the same answer on every machine). Releases the GIL.)doc");

  py::class_<ThinkingObject>(m, "Thinking", "A computer player's move and what it thought.")
      .def_readonly("move", &ThinkingObject::move, "The chosen move, a letter.")
      .def_readonly("depth", &ThinkingObject::depth)
      .def_readonly("score", &ThinkingObject::score,
                    "The predicted final store difference for the mover.")
      .def_readonly("exact", &ThinkingObject::exact, "The score is a game-theoretic value.")
      .def_readonly("from_tables", &ThinkingObject::from_tables)
      .def_readonly("pv", &ThinkingObject::pv, "The line it expects, as letters.")
      .def_readonly("nodes", &ThinkingObject::nodes)
      .def_readonly("seconds", &ThinkingObject::seconds)
      .def("__repr__", [](const ThinkingObject& t) {
        return "Thinking(move='" + t.move + "', score=" + std::to_string(t.score) +
               ", exact=" + (t.exact ? "True" : "False") + ")";
      });

  py::class_<PlayerObject>(m, "Player", R"doc(
A computer player of level 1-6: 1 random, 2 greedy, 3 and 4 fixed-depth search, 5 timed search,
6 Pro (level 5 with four times the budget, the endgame tables and the whole-game solver). Keep one
Player for a whole game: the Pro level keeps what it proved.)doc")
      .def(py::init([](py::handle game, int level, uint64_t seed, double seconds, uint64_t nodes,
                       std::shared_ptr<TablesObject> tables, size_t hash_mb) {
             if (level < kMinLevel || level > kMaxLevel)
               throw py::value_error("level must be from 1 to 6, not " + std::to_string(level));
             seconds_argument(seconds);
             megabytes_argument(hash_mb);
             PlayerOptions options;
             options.level = level;
             options.seed = seed;
             options.seconds_per_move = seconds;
             options.nodes_per_move = nodes;
             options.transposition_megabytes = hash_mb;
             return std::make_unique<PlayerObject>(rules_argument(game), options,
                                                   std::move(tables));
           }),
           py::arg("game"), py::arg("level"), py::arg("seed") = 1, py::arg("seconds") = 1.0,
           py::arg("nodes") = 0, py::arg("tables") = nullptr, py::arg("hash_mb") = 32,
           "A player of `game` at `level`. `seed` drives levels 1 and 2 (and ties); `seconds` "
           "(or `nodes`, if not 0) is level 5's budget a move, which level 6 multiplies; "
           "`tables` (a Tables) is for level 6.")
      .def_property_readonly("level", &PlayerObject::level)
      .def_property_readonly("name", &PlayerObject::name, "E.g. \"level 6 (Pro)\".")
      .def(
          "choose", [](PlayerObject& p, const Game& match) { return p.think(match).move; },
          py::arg("match"),
          "The move (a letter) the player makes now in `match` (a Match, not over). Releases the "
          "GIL.")
      .def("think", &PlayerObject::think, py::arg("match"),
           "Like choose, with what the player thought: a Thinking (move, score, exact, pv, ...).");
}

}  // namespace mancala::python
