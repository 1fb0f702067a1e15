#include "tools/service/analysis.h"

#include <algorithm>

#include "solver/rules/moves.h"
#include "solver/search/search.h"
#include "solver/search/solve.h"
#include "solver/tables/exact_values.h"
#include "solver/tables/table_rules.h"
#include "solver/util/stopwatch.h"

namespace mancala::service {

namespace {

// Table lines stop here: Oware can cycle inside the tables.
constexpr int kTableLinePlies = 24;
// With a depth limit, each move's solve stops after this many nodes: a fixed amount of work, so
// that the answer does not depend on the machine.
constexpr uint64_t kSolveNodesPerMove = 20000;
// Of each move's time, the solver's share; the search takes the rest.
constexpr double kSolverShare = 0.25;
// Memory of the analysis's own search and solver.
constexpr size_t kSearchMegabytes = 32;
constexpr size_t kSolverMegabytes = 32;

// Every move of `p` valued from the tables on the scale the answers rank moves by (the tables'
// count, exact_values.h); not covered when the game has no tables.
RootProbe probe_every_move(const Rules& rules, const ExactValues& tables, const Position& p) {
  if (!table_rules_for(rules)) return RootProbe{};
  return probe_tables_count(rules, tables, p);
}

// A line of best moves from the tables, `first` first.
std::vector<Move> table_line(const Rules& rules, const ExactValues& tables, const Position& p,
                             Move first) {
  std::vector<Move> line{first};
  Position q = apply_move(rules, p, first);
  while (static_cast<int>(line.size()) < kTableLinePlies) {
    const RootProbe next = probe_every_move(rules, tables, q);
    const std::optional<Move> best = next.ok() ? next.first_best_move() : std::nullopt;
    if (!best) break;
    line.push_back(*best);
    q = apply_move(rules, q, *best);
  }
  return line;
}

// The mover's score of a value for `child`'s side to move.
int for_mover(const Position& p, const Position& child, int score) {
  return child.side_to_move == p.side_to_move ? score : -score;
}

}  // namespace

const char* provenance_name(Provenance provenance) {
  switch (provenance) {
    case Provenance::Tables:
      return "tables";
    case Provenance::Proven:
      return "proven";
    case Provenance::Estimate:
      return "estimate";
  }
  return "estimate";
}

const char* margin_name(Margin margin) {
  return margin == Margin::TablesCount ? "tables" : "game";
}

Margin table_margin(const Rules& rules) {
  return rules.kind == GameKind::Oware ? Margin::TablesCount : Margin::Game;
}

Margin table_move_margin(const Rules& rules, const Position& p, Move move) {
  return is_game_over(rules, apply_move(rules, p, move)) ? Margin::Game : table_margin(rules);
}

std::vector<Move> Analysis::best_moves() const {
  std::vector<Move> out;
  for (const MoveAnalysis& m : moves)
    if (m.score == best().score) out.push_back(m.move);
  return out;
}

Analysis analyse(const Rules& rules, const Position& p, const AnalysisLimits& limits,
                 const ExactValues* tables) {
  Analysis out;
  if (tables) out.tables_max_seeds = tables->max_seeds();
  // Oware's tables play on past a majority: their count is not the game's own margin.
  const Expected<Rules> table_rules = table_rules_for(rules);
  const bool counted_by_tables =
      table_margin(rules) == Margin::TablesCount && table_rules && out.tables_max_seeds >= 0;
  if (counted_by_tables) out.margin = Margin::TablesCount;
  const RootProbe answer = tables ? probe_every_move(rules, *tables, p) : RootProbe{};
  if (answer.status == ProbeStatus::Failed) ++out.failed_probes;
  if (answer.ok()) {
    out.from_tables = true;
    for (int i = 0; i < answer.count; ++i) {
      const Move m = answer.moves[static_cast<size_t>(i)];
      out.moves.push_back({m, p.mover_lead() + answer.move_values[static_cast<size_t>(i)],
                           Provenance::Tables, 0, table_line(rules, *tables, p, m)});
    }
  } else {
    const MoveList legal = generate_moves(rules, p);
    const double budget = limits.depth > 0 ? limits.max_seconds : limits.seconds;
    const auto started = std::chrono::steady_clock::now();
    out.seconds = limits.depth > 0 ? 0 : limits.seconds;
    // The tables may be shared (a server's): their count of failures runs over every call.
    const uint64_t failures_before = tables ? tables->failures() : 0;
    Search search(rules, kSearchMegabytes, tables);
    Solver solver(rules, kSolverMegabytes, tables);
    const int count = legal.size();
    for (int i = 0; i < count; ++i) {
      const Move m = legal[i];
      if (limits.abandoned && limits.abandoned()) {
        out.abandoned = true;
        break;
      }
      const Position child = apply_move(rules, p, m);
      MoveAnalysis move{m, 0, Provenance::Proven, 0, {m}};
      if (generate_moves(rules, child).empty()) {
        // On the scale of the other moves: an Oware majority's end by the tables' count where
        // they hold the seeds left (its real end is final_score, set below).
        const std::optional<int> tables_count =
            counted_by_tables ? exact_move_value(*table_rules, *tables, p, m) : std::nullopt;
        move.score = tables_count ? p.mover_lead() + *tables_count
                                  : final_outcome(rules, child).lead(p.side_to_move);
        out.moves.push_back(std::move(move));
        continue;
      }
      // Each move's share of what the moves before it left (0: no limit): a move proven early
      // leaves its time to the later ones, and the moves after the time ran out get a moment.
      const double share =
          budget > 0 ? std::max((budget - seconds_since(started)) / (count - i), 1e-6) : 0;
      SolveLimits solve_limits;
      if (limits.depth > 0) solve_limits.max_nodes = kSolveNodesPerMove;
      solve_limits.max_seconds = share * kSolverShare;
      SolveOptions value_only;
      value_only.value_only = true;
      const SolveResult solved = solver.solve(child, solve_limits, {}, value_only);
      out.nodes += solved.nodes;
      if (solved.solved) {
        // A proven move's line is the solver's: every move of it keeps the value (a search's
        // line need not). Walked with the rest of the move's share, from the value just proven
        // (its tests are in the solver's table), and cut short where that runs out.
        move.score = for_mover(p, child, solved.value);
        SolveLimits line_limits;
        if (limits.depth > 0) line_limits.max_nodes = kSolveNodesPerMove;
        if (budget > 0) line_limits.max_seconds = std::max(share - solved.seconds, 1e-6);
        SolveOptions line_options;
        line_options.guess = solved.value;
        line_options.line_within_limits = true;
        line_options.line_plies = kTableLinePlies - 1;
        const SolveResult walked = solver.solve(child, line_limits, {}, line_options);
        out.nodes += walked.nodes;
        if (walked.solved && walked.value == solved.value)
          move.line.insert(move.line.end(), walked.pv.begin(), walked.pv.end());
        out.moves.push_back(std::move(move));
        continue;
      }
      SearchLimits search_limits;
      if (limits.depth > 0) search_limits.max_depth = limits.depth;
      if (share > 0)
        search_limits.max_seconds = std::max(share - solved.seconds, share * (1 - kSolverShare));
      const SearchResult searched = search.run(child, search_limits);
      out.nodes += searched.nodes;
      move.line.insert(move.line.end(), searched.pv.begin(), searched.pv.end());
      move.score = for_mover(p, child, searched.score);
      move.provenance = searched.proven ? Provenance::Proven : Provenance::Estimate;
      move.depth = searched.proven ? 0 : searched.depth;
      out.moves.push_back(std::move(move));
    }
    if (tables) out.failed_probes += tables->failures() - failures_before;
  }
  for (MoveAnalysis& move : out.moves) {
    const Position child = apply_move(rules, p, move.move);
    move.ends_game = is_game_over(rules, child);
    if (move.ends_game) move.final_score = final_outcome(rules, child).lead(p.side_to_move);
  }
  std::stable_sort(out.moves.begin(), out.moves.end(),
                   [](const MoveAnalysis& a, const MoveAnalysis& b) { return a.score > b.score; });
  return out;
}

}  // namespace mancala::service
