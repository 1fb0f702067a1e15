// The JSON the project writes, built with nlohmann::ordered_json (keys stay in the order they are
// written): positions, moves, results, table values and a computer's thinking. The web API
// (tools/web_api.h) writes every answer with these; the `--json` output of the commands is meant
// to move onto them too, so that both speak the same field names.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "solver/rules/game.h"
#include "solver/rules/position.h"
#include "solver/rules/rules.h"
#include "solver/search/players.h"
#include "solver/tables/table_answer.h"
#include "tools/service/analysis.h"

namespace mancala::json_output {

using Json = nlohmann::ordered_json;

// One line of JSON. Text that is not valid UTF-8 (a record's tag, say) is written with U+FFFD in
// place of the bad bytes instead of failing.
std::string dump(const Json& json);

// `x` rounded to `decimals` decimal places: measured times and rates, without noise digits.
double rounded(double x, int decimals);
// "win", "draw" or "loss" for a predicted final store difference.
std::string category(int score);

// A slot as the web API numbers it: as the fields of the position string (South's houses
// 0..h-1, North's houses h..2h-1, South's store 2h, North's store 2h+1). `slot` is a
// Position::slots index (South's store sits between the rows there).
int field_of_slot(int houses, int slot);
// The slots of a bit set of Position::slots indices, as field numbers, in increasing order.
Json fields_of_slots(int houses, uint32_t slots);

// {"south": [...], "north": [...], "south_store": n, "north_store": n}
Json board_json(const Position& position);
// {"winner": "South"|"North"|"draw", "south": n, "north": n, "repetition": bool}
Json outcome_json(const Outcome& outcome, bool repetition);
// The letters of a line of moves from `from`, one per sowing: ["C", "F", "b"].
Json move_letters_json(const Rules& rules, const Position& from, const std::vector<Move>& line);

// An analysis (tools/service/analysis.h), as `mancala analyse --json` and the HTTP API's
// /api/v1/analyse answer it: the verdict (score, what it counts, exact, provenance, line) and
// every move best first with its score, provenance, category (exact values) or depth (estimates),
// line, and whether it ends the game with its real final score.
Json analysis_json(const Rules& rules, const Position& p, const service::Analysis& analysis);

// A move from `before`, seed by seed (solver/sowing_trace.h): its letter and side, the position
// after it, extra turn, captures (amount and slots), grand slam, whether it ended the game
// (`ended_by_repetition`: the Oware repetition rule, which only the history knows) and every
// sowing as {"from", "seeds", "slots"} in field numbers.
Json move_json(const Rules& rules, const Position& before, Move move,
               bool ended_by_repetition = false);

// A game as it stands: game, houses, position, board, side to move, seeds on the board, whether
// it is over and its result (null while it goes on), and every legal move as a move_json.
Json game_state_json(const Game& game);

// What the endgame tables say of `p` (an Ok TableAnswer): the fields of `mancala db query
// --json` (game, position, side_to_move, seeds_on_board, value, score, moves with each "move"
// and "value", best) and, for the web API, game_over, the category of the score, and each
// move's score, category and the position after it. Moves best first, ties in house order.
Json table_answer_json(const Rules& rules, const Position& p, const TableAnswer& answer,
                       bool game_over);

// A computer's thinking for a move from `root`: level, depth, score (for the mover), exact,
// from_tables, margin (from the tables: "game" or "tables", what the score counts, as in an
// analysis; null otherwise), principal variation as letters, nodes, seconds. Levels 1 and 2 do not
// search: their depth is 0 and their score null.
Json thinking_json(const Rules& rules, const Position& root, int level, const Thinking& thinking);

}  // namespace mancala::json_output
