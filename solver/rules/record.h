// Game records. The native format is PGN-like:
//
//   [Game "kalah:6:4"]
//   [South "Ann"]
//   [North "mancala level 2"]
//   [Date "2026.11.29"]
//   [Result "1-0"]
//   [Position "..."]            only when the game did not start from the start position
//
//   1. CF d 2. A bc 3. E 1-0
//
// A number starts each South turn ("1..." when North opens); a turn's sowings, extra turns
// included, are one token of letters. Result is 1-0 (South won), 0-1, 1/2-1/2 or *. Comments
// in braces are skipped when reading. The reader also takes the .ogn records of the Aualé
// Oware program: tags Variant and FEN (the position string), move letters, "+K" capture counts,
// {comments}, (variations, skipped) and a "S-N" score as result.
#pragma once

#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "solver/rules/game.h"
#include "solver/util/expected.h"

namespace mancala {

using RecordTags = std::vector<std::pair<std::string, std::string>>;

struct GameRecord {
  RecordTags tags;  // in file order
  Game game;        // replayed: start, moves, final position

  // The value of a tag, or "" when absent.
  std::string tag(std::string_view name) const;
};

// The PGN result token of a game: 1-0, 0-1, 1/2-1/2, or * while it goes on.
std::string result_token(const Game& game);

// Whether a tag can be written so that read_record gives it back the same: a name of 1 to 64
// letters, digits or _ (as PGN has them), a value of one line without control bytes. The
// problem, naming the tag, when not.
Expected<bool> check_record_tag(std::string_view name, std::string_view value);

// How a record is written.
struct RecordStyle {
  // Aualé's .ogn (Oware abapa with 4 seeds only): [Variant "Oware Abapa"] instead of [Game], the
  // start as [FEN] instead of [Position]; the moves are the same (an Oware turn is one sowing).
  bool ogn = false;
  // The result when the game ended outside the rules (a match's adjudication: an illegal move, a
  // crash, a lost clock): 1-0, 0-1 or 1/2-1/2; empty: the game's own (result_token).
  std::string result;
};

// Writes a record. `tags` supplies South, North, Date and any others; Game (or Variant), Result and
// Position (or FEN) are always written from the game itself. Tags that check_record_tag refuses, or
// a name given twice, are refused: every record written reads back with the same tags.
Expected<std::string> write_record(const Game& game, const RecordTags& tags,
                                   const RecordStyle& style = {});

// Reads a native record or an Aualé .ogn record (an .ogn file is Oware abapa with 4 seeds),
// replaying its moves; an illegal move is an error naming its number and letter, a tag given
// twice (two [Game] tags: which one is the game?) an error naming it. A record of more than
// `max_moves` moves is refused when its move max_moves + 1 is read, before it is played: a
// server reading records from anyone bounds the work of each.
Expected<GameRecord> read_record(std::string_view text,
                                 int max_moves = std::numeric_limits<int>::max());

}  // namespace mancala
