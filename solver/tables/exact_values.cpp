#include "solver/tables/exact_values.h"

#include "solver/tables/table_rules.h"

namespace mancala {

namespace {

// A move's value, or nullopt when the tables do not answer for the position after it.
template <GameKind K>
std::optional<int> move_value(const Rules& rules, const ExactValues& tables, const Position& p,
                              Move move) {
  const Position after = apply_move<K>(rules, p, move);
  if (ended_by_move<K>(rules, after, after.seeds_on_board()))
    return final_outcome(rules, after).lead(p.side_to_move) - p.mover_lead();
  const std::optional<int> v = tables.value(after);
  if (!v) return std::nullopt;
  return table_move_value(p, after, [&](const Position&) { return *v; });
}

template <GameKind K>
RootProbe probe_root_for(const Rules& rules, const ExactValues& tables, const Position& position) {
  RootProbe probe;
  if (position.seeds_on_board() > tables.max_seeds()) return probe;  // NotCovered
  MoveList moves;
  generate_moves<K>(rules, position, moves);
  probe.status = ProbeStatus::Ok;
  if (moves.empty()) {
    probe.value =
        final_outcome(rules, position).lead(position.side_to_move) - position.mover_lead();
    return probe;
  }
  for (Move m : moves) {
    const std::optional<int> v = move_value<K>(rules, tables, position, m);
    if (!v) {
      probe.status = ProbeStatus::Failed;
      probe.count = 0;
      return probe;
    }
    const size_t i = static_cast<size_t>(probe.count++);
    probe.moves[i] = m;
    probe.move_values[i] = *v;
    if (i == 0 || *v > probe.value) probe.value = *v;
  }
  return probe;
}

}  // namespace

RootProbe probe_root(const Rules& rules, const ExactValues& tables, const Position& position) {
  switch (rules.kind) {
    case GameKind::Kalah:
      return probe_root_for<GameKind::Kalah>(rules, tables, position);
    case GameKind::Oware:
      return probe_root_for<GameKind::Oware>(rules, tables, position);
    case GameKind::Congkak:
      return probe_root_for<GameKind::Congkak>(rules, tables, position);
  }
  return {};
}

RootProbe probe_tables_count(const Rules& game_rules, const ExactValues& tables,
                             const Position& position) {
  const Expected<Rules> table_rules = table_rules_for(game_rules);
  if (!table_rules || is_game_over(game_rules, position))
    return probe_root(game_rules, tables, position);
  return probe_root(*table_rules, tables, position);
}

std::optional<int> exact_move_value(const Rules& rules, const ExactValues& tables,
                                    const Position& position, Move move) {
  switch (rules.kind) {
    case GameKind::Kalah:
      return move_value<GameKind::Kalah>(rules, tables, position, move);
    case GameKind::Oware:
      return move_value<GameKind::Oware>(rules, tables, position, move);
    case GameKind::Congkak:
      return move_value<GameKind::Congkak>(rules, tables, position, move);
  }
  return std::nullopt;
}

}  // namespace mancala
