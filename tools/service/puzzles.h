// Puzzles made from the endgame tables: positions where the side to move has exactly one move
// that wins (or, where none wins, exactly one that saves the draw), extended to a line in which
// the computer answers with a best move and the player again has exactly one good move, with
// themes read from the moves' effects and a rating from how hard the answer is to see.
//
// A library of them is a JSON file (`mancala puzzles build`, docs/puzzles.md), which the web
// board's puzzle trainer ships; `verify_library` checks every step of every puzzle against the
// tables again. Prints nothing; every error is a value.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "solver/rules/position.h"
#include "solver/rules/rules.h"
#include "solver/tables/exact_values.h"
#include "solver/util/expected.h"

namespace mancala::service {

// The file's format and its version: a reader refuses any other.
inline constexpr std::string_view kPuzzleFormat = "mancala-puzzles";
inline constexpr int kPuzzleFormatVersion = 1;

// What the player is asked to do: win, or (where no move wins) hold the draw.
enum class PuzzleGoal : uint8_t { Win, Draw };
// "win", "draw".
const char* goal_name(PuzzleGoal goal);

struct Puzzle {
  std::string id;     // 8 hex digits, a hash of the game and the position: stable over rebuilds
  Position position;  // the start, the player (the side to move) to play
  PuzzleGoal goal = PuzzleGoal::Win;
  std::vector<Move> line;  // the player's moves and the computer's answers, one per sowing;
                           // ends with a move of the player's
  std::vector<std::string> themes;  // in the order of puzzle_themes()
  int rating = 0;                   // a Glicko rating: how strong a player solves it half the time
  int search_depth = 0;  // the shallowest search (plies, no tables) that finds every answer;
                         // kPuzzleDepthUnseen when none up to kPuzzleSearchDepth does
  int player_moves = 0;  // the player's moves in the line (Kalah's extra turns make runs of them)
};

// The themes a puzzle can carry, in the order they are listed: "capture" (a move of the player's
// captures), "extra-turn" (a move of the player's ends in its store: it moves again), "extra-turn-
// chain" (two or more in a row), "grand-slam" (Oware: a move of the player's would take every
// opposing seed), "feeding" (Oware: the opponent's row is empty, the move must give it seeds),
// "counting" (the game ends within the line: count the seeds to the end), "saving" (no move wins:
// find the one that draws).
const std::vector<std::string>& puzzle_themes();

// The deepest search the rating asks about, and the depth recorded when even it misses a move.
inline constexpr int kPuzzleSearchDepth = 8;
inline constexpr int kPuzzleDepthUnseen = kPuzzleSearchDepth + 1;

struct PuzzleBuildRequest {
  int count = 300;           // puzzles wanted
  uint64_t seed = 1;         // the generator's: the same seed and tables give the same library
  int min_seeds = 5;         // seeds on the board of a start position, at least
  int max_seeds = 12;        // and at most (no more than the tables hold)
  int max_player_moves = 3;  // a line holds at most this many moves of the player's
  // Candidate positions tried before giving up; 0: 4000 a puzzle wanted.
  uint64_t max_tries = 0;
};

struct PuzzleLibrary {
  Rules rules;
  uint64_t seed = 0;         // the generator's seed (0 for a library not made by build_library)
  int max_seeds = 0;         // seeds on the board of the largest start position allowed
  int max_player_moves = 3;  // the longest line allowed, in moves of the player's
  std::vector<Puzzle> puzzles;
  uint64_t tries = 0;  // candidate positions looked at (build_library's answer; not stored)
};

// Checks that `rules`'s game has tables and the request can be met (sizes, tables deep enough).
// The error says what is wrong, in words with no flag name.
Expected<bool> check_puzzle_request(const Rules& rules, const ExactValues& tables,
                                    const PuzzleBuildRequest& request);

// The puzzle that starts at `start` (the side to move is the player), or an error saying why the
// position is none: over, fewer than two moves, outside the tables, no unique winning or drawing
// move. The line goes on while the player has exactly one good move among two or more.
Expected<Puzzle> make_puzzle(const Rules& rules, const ExactValues& tables, const Position& start,
                             int max_player_moves);

// Samples start positions (South to move, `request.min_seeds..max_seeds` seeds spread over the
// houses, the stores close) from a generator seeded by `request.seed`, and keeps the first
// `request.count` distinct puzzles. Deterministic: the same tables and request give the same
// library. An error when the tries run out first.
Expected<PuzzleLibrary> build_library(const Rules& rules, const ExactValues& tables,
                                      const PuzzleBuildRequest& request);

// Checks every puzzle of `library` against the tables: at every step of the player's, exactly one
// move reaches the goal and it is the line's, among two or more legal moves; every answer of the
// computer's is a best move; the themes, the search depth and the rating are the ones
// make_puzzle gives. The first puzzle that fails, with its id and what is wrong.
Expected<bool> verify_library(const PuzzleLibrary& library, const ExactValues& tables);

// The library as its file: one JSON object, a puzzle a line (readable diffs), with the format,
// its version, the game and a checksum over the puzzles.
std::string library_json(const PuzzleLibrary& library);

// Reads a library file's text. Refuses a file of another format or version, one whose checksum
// does not hold (damaged), a position or a move the game's rules refuse, a duplicate id, an
// unknown theme; and, when `expected_rules` is given, a library of another game.
Expected<PuzzleLibrary> parse_library(std::string_view text, const Rules* expected_rules = nullptr);

// The checksum the file carries: FNV-1a (32 bits, as 8 hex digits) over each puzzle's fields as
// one line "id position goal line themes rating depth\n" (line and themes joined by ','), so that
// the web board can check it too (tools/http/web/puzzle-library.js).
std::string library_checksum(const std::vector<Puzzle>& puzzles, const Rules& rules);

}  // namespace mancala::service
