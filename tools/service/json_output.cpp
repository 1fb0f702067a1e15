#include "tools/service/json_output.h"

#include "tools/service/move_text.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "solver/rules/moves.h"
#include "solver/rules/sowing_trace.h"

namespace mancala::json_output {

std::string dump(const Json& json) {
  return json.dump(-1, ' ', false, Json::error_handler_t::replace);
}

double rounded(double x, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(x * scale) / scale;
}

std::string category(int score) {
  return score > 0 ? "win" : score < 0 ? "loss" : "draw";
}

int field_of_slot(int houses, int slot) {
  if (slot < houses) return slot;           // South's houses
  if (slot == houses) return 2 * houses;    // South's store
  if (slot <= 2 * houses) return slot - 1;  // North's houses
  return 2 * houses + 1;                    // North's store
}

Json fields_of_slots(int houses, uint32_t slots) {
  std::vector<int> fields;
  for (; slots; slots &= slots - 1)
    fields.push_back(field_of_slot(houses, std::countr_zero(slots)));
  std::sort(fields.begin(), fields.end());
  return fields;
}

// The documents below are built key by key: nlohmann's initializer lists build every pair as a
// two-element array first, which made a table answer twice as slow.

Json board_json(const Position& p) {
  Json south = Json::array(), north = Json::array();
  for (int i = 0; i < p.houses; ++i) {
    south.push_back(p.house(Side::South, i));
    north.push_back(p.house(Side::North, i));
  }
  Json board;
  board["south"] = std::move(south);
  board["north"] = std::move(north);
  board["south_store"] = p.store(Side::South);
  board["north_store"] = p.store(Side::North);
  return board;
}

Json outcome_json(const Outcome& outcome, bool repetition) {
  Json result;
  result["winner"] = outcome.winner == Winner::South   ? "South"
                     : outcome.winner == Winner::North ? "North"
                                                       : "draw";
  result["south"] = outcome.south_store;
  result["north"] = outcome.north_store;
  result["repetition"] = repetition;
  return result;
}

Json move_letters_json(const Rules& rules, const Position& from, const std::vector<Move>& line) {
  return Json(service::line_letters(rules, from, line));
}

Json analysis_json(const Rules& rules, const Position& p, const service::Analysis& analysis) {
  Json moves = Json::array(), best = Json::array();
  const service::MoveAnalysis& top = analysis.best();
  for (const service::MoveAnalysis& m : analysis.moves) {
    const std::string letter(1, move_letter(p.side_to_move, m.move));
    Json entry{{"move", letter},
               {"score", m.score},
               {"exact", m.exact()},
               {"provenance", service::provenance_name(m.provenance)}};
    if (m.exact())
      entry["category"] = category(m.score);
    else
      entry["depth"] = m.depth;
    entry["line"] = move_letters_json(rules, p, m.line);
    entry["ends_game"] = m.ends_game;
    entry["final_score"] = m.ends_game ? Json(m.final_score) : Json(nullptr);
    moves.push_back(std::move(entry));
  }
  for (Move m : analysis.best_moves())
    best.push_back(std::string(1, move_letter(p.side_to_move, m)));
  Json out{{"game", rules.name()},
           {"position", to_string(p)},
           {"side_to_move", side_name(p.side_to_move)},
           {"source", analysis.from_tables ? "tables" : "search"},
           {"seconds", analysis.seconds},
           {"score", top.score},
           {"margin", service::margin_name(analysis.margin)},
           {"exact", top.exact()},
           {"provenance", service::provenance_name(top.provenance)},
           {"moves", std::move(moves)},
           {"best", std::move(best)},
           {"line", move_letters_json(rules, p, top.line)}};
  out["tables"] = analysis.tables_max_seeds >= 0 ? Json{{"max_seeds", analysis.tables_max_seeds},
                                                        {"failed_probes", analysis.failed_probes}}
                                                 : Json(nullptr);
  return out;
}

Json move_json(const Rules& rules, const Position& before, Move move, bool ended_by_repetition) {
  const MoveTrace trace = trace_move(rules, before, move);
  const int h = rules.houses;
  Json sowings = Json::array();
  for (const Sowing& s : trace.sowings) {
    Json slots = Json::array();
    for (int slot : s.slots) slots.push_back(field_of_slot(h, slot));
    Json sowing;
    sowing["from"] = field_of_slot(h, s.from);
    sowing["seeds"] = s.seeds;
    sowing["slots"] = std::move(slots);
    sowings.push_back(std::move(sowing));
  }
  Json m;
  m["move"] = std::string(1, move_letter(before.side_to_move, move));
  m["side"] = side_name(before.side_to_move);
  m["position"] = to_string(trace.after);
  m["extra_turn"] = trace.extra_turn && !ended_by_repetition;
  m["captured"] = trace.captured;
  m["captured_slots"] = fields_of_slots(h, trace.captured_slots);
  m["grand_slam"] = trace.grand_slam;
  m["game_over"] = trace.game_over || ended_by_repetition;
  m["last_slot"] = field_of_slot(h, trace.last_slot);
  m["sowing"] = std::move(sowings);
  return m;
}

Json game_state_json(const Game& game) {
  const Rules& rules = game.rules();
  const Position& p = game.position();
  Json moves = Json::array();
  for (Move m : game.legal_moves()) moves.push_back(move_json(rules, p, m));
  Json state;
  state["game"] = rules.name();
  state["houses"] = rules.houses;
  state["position"] = to_string(p);
  state["board"] = board_json(p);
  state["side_to_move"] = side_name(p.side_to_move);
  state["seeds_on_board"] = p.seeds_on_board();
  state["game_over"] = game.is_over();
  state["result"] =
      game.is_over() ? outcome_json(game.outcome(), game.ended_by_repetition()) : Json(nullptr);
  state["moves"] = std::move(moves);
  return state;
}

Json table_answer_json(const Rules& rules, const Position& p, const TableAnswer& answer,
                       bool game_over) {
  const int score = p.mover_lead() + answer.value;
  Json moves = Json::array(), best = Json::array();
  const std::vector<TableMoveValue> sorted = best_first(answer.moves);
  for (const TableMoveValue& m : sorted) {
    const std::string letter(1, move_letter(p.side_to_move, m.move));
    const int move_score = p.mover_lead() + m.value;
    Json entry;
    entry["move"] = letter;
    entry["value"] = m.value;
    entry["score"] = move_score;
    entry["category"] = category(move_score);
    entry["position"] = to_string(apply_move(rules, p, m.move));
    moves.push_back(std::move(entry));
    if (m.value == sorted.front().value) best.push_back(letter);
  }
  Json j;
  j["game"] = rules.name();
  j["position"] = to_string(p);
  j["side_to_move"] = side_name(p.side_to_move);
  j["seeds_on_board"] = p.seeds_on_board();
  j["game_over"] = game_over;
  j["value"] = answer.value;
  j["score"] = score;
  j["category"] = category(score);
  j["moves"] = std::move(moves);
  j["best"] = std::move(best);
  return j;
}

Json thinking_json(const Rules& rules, const Position& root, int level, const Thinking& thinking) {
  const bool searched = level >= 3;
  Json k;
  k["level"] = level;
  k["depth"] = thinking.depth;
  k["score"] = searched ? Json(thinking.score) : Json(nullptr);
  k["exact"] = searched && thinking.exact;
  k["from_tables"] = thinking.from_tables;
  // What a score from the tables counts: the real end of a move that ends the game, else the
  // tables' count (in Oware, play going on past a majority).
  k["margin"] =
      thinking.from_tables && !thinking.pv.empty()
          ? Json(service::margin_name(service::table_move_margin(rules, root, thinking.pv.front())))
          : Json(nullptr);
  k["pv"] = move_letters_json(rules, root, thinking.pv);
  k["nodes"] = thinking.nodes;
  k["seconds"] = thinking.seconds;
  return k;
}

}  // namespace mancala::json_output
