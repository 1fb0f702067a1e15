#include "solver/rules/moves.h"

namespace mancala {

MoveList generate_moves(const Rules& rules, const Position& position) {
  MoveList list;
  switch (rules.kind) {
    case GameKind::Kalah:
      generate_moves<GameKind::Kalah>(rules, position, list);
      break;
    case GameKind::Oware:
      generate_moves<GameKind::Oware>(rules, position, list);
      break;
    case GameKind::Congkak:
      generate_moves<GameKind::Congkak>(rules, position, list);
      break;
  }
  return list;
}

Position apply_move(const Rules& rules, const Position& position, Move move, MoveEffect* effect) {
  MoveEffect ignored;
  MoveEffect* out = effect ? effect : &ignored;
  *out = MoveEffect{};
  switch (rules.kind) {
    case GameKind::Kalah:
      return apply_move<GameKind::Kalah, true>(rules, position, move, out);
    case GameKind::Oware:
      return apply_move<GameKind::Oware, true>(rules, position, move, out);
    case GameKind::Congkak:
      return apply_move<GameKind::Congkak, true>(rules, position, move, out);
  }
  return position;
}

bool is_game_over(const Rules& rules, const Position& position) {
  switch (rules.kind) {
    case GameKind::Kalah:
      return detail::kalah_game_over(position);
    case GameKind::Oware:
      return detail::oware_game_over(rules, position);
    case GameKind::Congkak:
      return detail::congkak_game_over(position);
  }
  return true;
}

Outcome final_outcome(const Rules& rules, const Position& position) {
  Position settled = position;
  const bool majority =
      rules.kind == GameKind::Oware && detail::oware_majority_reached(rules, position);
  if (!majority && is_game_over(rules, position)) detail::sweep_houses_to_owners(settled);
  return Outcome::from_stores(settled.store(Side::South), settled.store(Side::North));
}

}  // namespace mancala
