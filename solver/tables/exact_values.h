// Exact values from outside a search (the endgame tables), and the one function that values every
// move of a position from them, `probe_root`.
//
// Contract (for every caller: the search at its root and along its principal variation, the Pro
// level, `mancala db query`, the verifier, the HTTP service):
//   - probe_root is as thread-safe as the ExactValues it reads. The project's sources
//     (db::TableValues, db::DecodedTableValues) may be probed from any number of threads at once.
//   - It allocates nothing and keeps no state, so it may be called at any time, during a search
//     too. It costs one probe for every legal move whose position after it is not an ended game.
//   - It never guesses: a position outside the tables is NotCovered, a probe that fails (a missing
//     or corrupt layer: the source keeps the reason) is Failed; only Ok carries values.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "solver/rules/moves.h"
#include "solver/rules/position.h"
#include "solver/rules/rules.h"

namespace mancala {

// Exact values: what the side to move will still gain minus what the opponent will, with perfect
// play (solver/rules/README.md, "Values"); nullopt where not covered or where a probe failed.
class ExactValues {
 public:
  virtual ~ExactValues() = default;
  virtual std::optional<int> value(const Position& position) const = 0;
  // No position with more seeds on the board is covered (-1: none is), so a search need not ask.
  virtual int max_seeds() const = 0;
  // The probes that failed so far (a layer missing or corrupt: value() gave nullopt for a covered
  // position), over every caller; 0 for a source that cannot fail.
  virtual uint64_t failures() const { return 0; }
  // Why the first probe that failed did (empty when none has, or the source cannot fail).
  virtual std::string first_failure() const { return {}; }
};

// What a probe of the tables gave: the root probe here, db/'s probes of one position and of every
// move (db/table_set.h, db/table_answer.h) alike.
enum class ProbeStatus : uint8_t {
  Ok,
  NotCovered,  // more seeds on the board than the tables hold
  Failed,      // a probe the tables should have answered failed (a layer missing or corrupt)
};

// Every legal move of one position, valued from the tables.
struct RootProbe {
  ProbeStatus status = ProbeStatus::NotCovered;
  // With Ok: the position's value for the side to move (the best move's value; for an ended game,
  // what the end gives beyond the stores as they stand).
  int value = 0;
  int count = 0;  // legal moves, in house order
  std::array<Move, kMaxHouses> moves{};
  // For the mover: the move's store gain minus the opponent's, plus the value of the position
  // after it for the mover. The final store difference after the move, with perfect play, is the
  // present one (Position::mover_lead) plus this.
  std::array<int, kMaxHouses> move_values{};

  bool ok() const { return status == ProbeStatus::Ok; }
  bool is_best(int i) const { return move_values[static_cast<size_t>(i)] == value; }
  // The first best move in house order; nullopt when there is no move (an ended game).
  std::optional<Move> first_best_move() const {
    for (int i = 0; i < count; ++i)
      if (is_best(i)) return moves[static_cast<size_t>(i)];
    return std::nullopt;
  }
};

// Values every legal move of `position` under `rules`. Whether the position, or the position
// after a move, has ended is decided by `rules`, and an ended game is worth what its end gives:
// pass the game's rules to score a move that reaches the Oware majority by that rule (the
// players do), or the table rules (table_rules_for) to get the values the tables store, where
// play goes on until the board is empty (`mancala db query` and the verifier do).
RootProbe probe_root(const Rules& rules, const ExactValues& tables, const Position& position);

// Every legal move of a game's position valued on the one scale every answer and the Pro level
// rank moves by (solver/rules/README.md, "Oware values from the tables"): the tables' count, the
// final store difference if play went on until the board is empty. It is probe_root under the
// table rules (table_rules_for), which in Oware do not stop play at a majority, so that a move
// that reaches one is valued like every other move, not by a margin of another kind; a position
// already over by the game's rules is worth what its end gives. In Kalah it is probe_root itself.
// The sign of the count is the game's exact result: a store past half stays past it, so whoever
// is ahead when a majority stops the game is ahead at the empty board, and the other way round.
RootProbe probe_tables_count(const Rules& game_rules, const ExactValues& tables,
                             const Position& position);

// The value of one legal move of `position`, as probe_root gives it; nullopt when the position
// after it is not covered or its probe failed.
std::optional<int> exact_move_value(const Rules& rules, const ExactValues& tables,
                                    const Position& position, Move move);

}  // namespace mancala
