// A game in progress: the rules, the positions so far and the moves between them. The Oware
// repetition rule lives here, apart from the position, because it depends on the history.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "solver/rules/moves.h"
#include "solver/rules/position.h"
#include "solver/rules/rules.h"

namespace mancala {

class Game {
 public:
  explicit Game(const Rules& rules);
  Game(const Rules& rules, const Position& start);

  const Rules& rules() const { return rules_; }
  const Position& start() const { return positions_.front(); }
  const Position& position() const { return positions_.back(); }
  const std::vector<Move>& moves() const { return moves_; }
  // Every position so far, the start first: positions()[i] is the one before moves()[i].
  const std::vector<Position>& positions() const { return positions_; }
  // Who made each move (a move's letter depends on the side that made it).
  Side mover_of(size_t ply) const { return positions_[ply].side_to_move; }

  // Legal moves now; none once the game is over (by the rules or by repetition).
  MoveList legal_moves() const;
  bool is_over() const;
  bool ended_by_repetition() const { return repetition_end_; }

  // Plays a move; returns false (and changes nothing) if it is not legal now.
  bool play(Move move, MoveEffect* effect = nullptr);
  // Takes back the last move; false when there is none.
  bool undo();

  // Final stores and winner of an ended game. Oware repetition (solver/rules/README.md, Oware 7):
  // the seeds left on the board are shared evenly, an odd seed going to nobody.
  Outcome outcome() const;

 private:
  struct PositionHash {
    size_t operator()(const Position& p) const;
  };
  // Counts `position()` among the positions since the last capture; true at its third time.
  bool count_and_check_third_occurrence();
  // Counts the positions since the last capture afresh (after an undo took back a capture).
  void recount_since_capture();

  Rules rules_;
  std::vector<Position> positions_;
  std::vector<Move> moves_;
  bool repetition_end_ = false;
  // Oware only. A repeated position has the same stores, and a capture is the only move that
  // changes them, so only the positions since the last capture can repeat: each of those is
  // counted here (positions_[since_capture_from_ ..]), which makes the rule cost one hash look-up
  // a move instead of a scan back to the capture (a long game without captures was quadratic).
  std::unordered_map<Position, uint32_t, PositionHash> since_capture_;
  size_t since_capture_from_ = 0;
};

}  // namespace mancala
