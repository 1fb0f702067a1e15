// Moves as letters, for every door: the legal moves of a position, a line of moves, and a game
// replayed from letters (solver/rules/README.md, "Notation").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "solver/rules/game.h"
#include "solver/rules/position.h"
#include "solver/rules/rules.h"
#include "solver/util/expected.h"

namespace mancala::service {

// The letters of the legal moves in house order ("A", "C", ...); none once the game is over.
std::vector<std::string> legal_move_letters(const Rules& rules, const Position& p);
// The same for a game, whose history can end it (Oware's repetition).
std::vector<std::string> legal_move_letters(const Game& game);
// The same, space-separated, or "none: the game is over": for a message about an illegal move.
std::string legal_moves_text(const Rules& rules, const Position& p);
// The same for a game, whose history can end it (Oware's repetition).
std::string legal_moves_text(const Game& game);

// The letters of a line of moves from `from`, one per sowing (stops at the first illegal move).
std::vector<std::string> line_letters(const Rules& rules, const Position& from,
                                      const std::vector<Move>& line);
// A line as one word of letters ("CFbe"), as the engine protocol writes a pv.
std::string line_word(const Rules& rules, const Position& from, const std::vector<Move>& line);
// A line with a turn's sowings together and turns apart ("CF be A").
std::string line_by_turns(const Rules& rules, const Position& from, const std::vector<Move>& line);

// Why a replay stopped.
enum class ReplayProblem : uint8_t { None, NotALetter, TooManyMoves, GameOver, Illegal };

// A game replayed from its start through move letters, keeping the position before each move.
struct Replay {
  Game game;
  std::vector<Position> before;  // the position before each move played
  ReplayProblem problem = ReplayProblem::None;
  std::string message;  // why the replay stopped, naming the move ("move 3 'x' is illegal in ...")
  bool ok() const { return problem == ReplayProblem::None; }
};

// Plays `letters` from `start`: move letters, optionally separated by spaces or commas. Stops at
// the first problem (the game then stands before that move). At most `max_moves` moves.
Replay replay_moves(const Rules& rules, const Position& start, std::string_view letters,
                    int max_moves);

}  // namespace mancala::service
