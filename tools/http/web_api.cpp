#include "tools/http/web_api.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>

#include "db/table_answer.h"
#include "solver/rules/record.h"
#include "solver/search/players.h"
#include "solver/search/search.h"
#include "solver/tables/table_rules.h"

namespace mancala::web {

using json_output::category;
using json_output::move_json;
using json_output::move_letters_json;

namespace {

// Bad input: a 400 naming the field (or another status), answered as {"error", "field"}.
struct RequestError {
  int status;
  std::string message;
  std::string field;
};

[[noreturn]] void bad(const std::string& field, const std::string& message) {
  throw RequestError{400, message, field};
}

std::string param(const Params& params, const std::string& name) {
  const auto it = params.find(name);
  return it == params.end() ? std::string() : it->second;
}

Rules parse_game(const std::string& text) {
  if (text.empty()) bad("game", "missing game: a GAME string such as kalah, oware or congkak");
  Expected<Rules> rules = parse_rules(text);
  if (!rules) bad("game", rules.error());
  return *rules;
}

Position parse_start(const Rules& rules, const std::string& text) {
  if (text.empty()) return start_position(rules);
  Expected<Position> position = parse_position(rules, text);
  if (!position) bad("position", position.error());
  return *position;
}

std::string legal_letters(const Game& game) {
  std::string out;
  for (Move m : game.legal_moves()) {
    if (!out.empty()) out += ' ';
    out += move_letter(game.position().side_to_move, m);
  }
  return out.empty() ? "none: the game is over" : out;
}

// A game replayed from its start through `moves` (letters, optionally separated by spaces or
// commas), keeping the position before each move. Errors are the texts of `mancala apply`.
struct Replay {
  Game game;
  std::vector<Position> before;  // the position before each move played
};

Replay replay(const Rules& rules, const Position& start, const std::string& moves, int max_moves) {
  Replay r{Game(rules, start), {}};
  int number = 0;
  for (char c : moves) {
    if (c == ' ' || c == ',') continue;
    const std::string letter(1, c);
    if (!std::isalpha(static_cast<unsigned char>(c)))
      bad("moves",
          "'" + letter + "' is not a move letter (moves are letters such as CFbe or C,F,b,e)");
    if (++number > max_moves) bad("moves", "more than " + std::to_string(max_moves) + " moves");
    const Position now = r.game.position();
    if (r.game.is_over())
      bad("moves", "move " + std::to_string(number) + " '" + letter +
                       "': the game is already over in " + to_string(now));
    Expected<Move> move = parse_move_letter(now, letter);
    if (!move || !r.game.play(*move))
      bad("moves", "move " + std::to_string(number) + " '" + letter + "' is illegal in " +
                       to_string(now) + (move ? "" : " (" + move.error() + ")") +
                       "; legal moves: " + legal_letters(r.game));
    r.before.push_back(now);
  }
  return r;
}

std::string letters_of(const Game& game) {
  std::string out;
  for (size_t i = 0; i < game.moves().size(); ++i)
    out += move_letter(game.mover_of(i), game.moves()[i]);
  return out;
}

// The MOVE object of move `i` of a replay.
Json played_json(const Replay& r, size_t i) {
  const bool last = i + 1 == r.before.size();
  return move_json(r.game.rules(), r.before[i], r.game.moves()[i],
                   last && r.game.ended_by_repetition());
}

// A request body: a JSON object.
nlohmann::json parse_body(const std::string& body) {
  nlohmann::json json = nlohmann::json::parse(body, nullptr, false);
  if (json.is_discarded()) bad("body", "the body is not valid JSON");
  if (!json.is_object()) bad("body", "the body must be a JSON object");
  return json;
}

std::string body_string(const nlohmann::json& body, const std::string& name) {
  const auto it = body.find(name);
  if (it == body.end() || it->is_null()) return "";
  if (!it->is_string()) bad(name, name + " must be a string");
  return it->get<std::string>();
}

// "moves" in a body: a string of letters, or an array of letter strings.
std::string body_moves(const nlohmann::json& body) {
  const auto it = body.find("moves");
  if (it == body.end() || it->is_null()) return "";
  if (it->is_string()) return it->get<std::string>();
  if (!it->is_array()) bad("moves", "moves must be a string of move letters or an array of them");
  std::string out;
  for (const nlohmann::json& m : *it) {
    if (!m.is_string()) bad("moves", "moves must be a string of move letters or an array of them");
    out += m.get<std::string>();
    out += ' ';
  }
  return out;
}

// The game a request describes: game, position (default: the start) and moves from there.
Replay request_game(const std::string& game, const std::string& position, const std::string& moves,
                    int max_moves) {
  const Rules rules = parse_game(game);
  return replay(rules, parse_start(rules, position), moves, max_moves);
}

Replay request_game(const Params& params, int max_moves) {
  return request_game(param(params, "game"), param(params, "position"), param(params, "moves"),
                      max_moves);
}

void require_not_over(const Replay& r, bool moves_given) {
  if (r.game.is_over())
    bad(moves_given ? "moves" : "position", to_string(r.game.position()) + ": the game is over");
}

// The mover's final store difference that a table value predicts.
int score_of(const Position& p, int value) {
  return p.mover_lead() + value;
}

// A line of best moves from the tables after `first` (at most `plies` sowings; Oware can cycle).
std::vector<Move> table_line(const Rules& rules, const db::TableValues& tables, const Position& p,
                             Move first, int plies) {
  std::vector<Move> line{first};
  Position q = apply_move(rules, p, first);
  while (static_cast<int>(line.size()) < plies) {
    const db::TableAnswer next = db::value_every_move(rules, tables, q);
    if (!next.ok() || next.moves.empty()) break;
    const Move best = db::best_first(next.moves).front().move;
    line.push_back(best);
    q = apply_move(rules, q, best);
  }
  return line;
}

Json kind_json(const char* kind, const char* name, const Rules& default_rules, int min_houses,
               int max_houses, int max_seeds,
               std::vector<std::pair<const char*, const char*>> variants,
               const Json& tables_found) {
  Json variant_list = Json::array();
  for (const auto& [variant, option] : variants)
    variant_list.push_back(Json{{"name", variant}, {"option", option}});
  Json tables = Json::array();
  for (const Json& t : tables_found)
    if (t["table"].get<std::string>().rfind(kind, 0) == 0) tables.push_back(t);
  return Json{
      {"kind", kind},
      {"name", name},
      {"default", default_rules.name()},
      {"houses", {{"min", min_houses}, {"max", max_houses}, {"default", default_rules.houses}}},
      {"seeds", {{"min", 1}, {"max", max_seeds}, {"default", default_rules.seeds}}},
      {"variants", std::move(variant_list)},
      {"tables", std::move(tables)}};
}

}  // namespace

WebApi::WebApi(const std::string& database_dir, const ApiLimits& limits,
               const db::ProbeFailureHandler& on_probe_failure)
    : limits_(limits),
      database_dir_(database_dir.empty() ? db::default_database_directory() : database_dir),
      tables_found_(Json::array()),
      seed_counter_(
          static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count())) {
  std::vector<Rules> table_games;
  for (int h = 1; h <= 6; ++h)
    for (bool empty_capture : {false, true})
      table_games.push_back(Rules::kalah(h, 4, empty_capture));
  for (OwareRuleSet set :
       {OwareRuleSet::Abapa, OwareRuleSet::GrandSlamCaptures, OwareRuleSet::Awari})
    table_games.push_back(Rules::oware(4, set));
  for (const Rules& rules : table_games) {
    Expected<std::shared_ptr<const db::TableSet>> set = db::TableSet::open(database_dir_, rules);
    // Each problem once (an unreadable database directory fails every game alike).
    const std::string problem = !set ? set.error() : (*set)->gap_warning();
    if (!problem.empty() &&
        std::find(table_warnings_.begin(), table_warnings_.end(), problem) == table_warnings_.end())
      table_warnings_.push_back(problem);
    if (!set) continue;
    if ((*set)->max_seeds() < 0) continue;
    tables_found_.push_back(
        Json{{"table", rules.table_name()}, {"max_seeds", (*set)->max_seeds()}});
    tables_[rules.table_name()] = std::make_unique<db::TableValues>(*set, on_probe_failure);
  }
  Json levels = Json::array();
  const char* level_names[] = {"random",         "greedy",       "search 2 plies",
                               "search 8 plies", "timed search", "Pro"};
  for (int level = kMinLevel; level <= kMaxLevel; ++level) {
    Json entry{{"level", level}, {"name", level_names[level - 1]}};
    if (level == kMaxLevel) entry["strongest"] = true;
    levels.push_back(std::move(entry));
  }
  games_ = Json{{"version", 1},
                {"games",
                 {kind_json("kalah", "Kalah", Rules::kalah(), 1, kMaxHouses, 12,
                            {{"standard", ""}, {"empty-capture", "empty-capture"}}, tables_found_),
                  kind_json("oware", "Oware", Rules::oware(), 6, 6, 6,
                            {{"abapa", "abapa"},
                             {"grand-slam-captures", "grand-slam-captures"},
                             {"awari", "awari"}},
                            tables_found_),
                  kind_json("congkak", "Congkak", Rules::congkak(), 3, 9, 10,
                            {{"standard", ""}, {"no-capture-first-lap", "no-capture-first-lap"}},
                            tables_found_)}},
                {"levels", std::move(levels)},
                {"limits",
                 {{"move_seconds", limits_.move_seconds},
                  {"analyse_seconds", limits_.analyse_seconds},
                  {"max_moves", limits_.max_moves}}}};
}

WebApi::~WebApi() = default;

ApiReply WebApi::error(int status, const std::string& message, const std::string& field) {
  Json body{{"error", message}};
  if (!field.empty()) body["field"] = field;
  return ApiReply{status, std::move(body)};
}

const db::TableValues* WebApi::tables_for(const Rules& rules) const {
  if (!table_rules_for(rules)) return nullptr;
  const auto it = tables_.find(rules.table_name());
  return it == tables_.end() ? nullptr : it->second.get();
}

namespace {

// Runs a request, turning bad input into its error reply.
template <class F>
auto answer(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const RequestError& e) {
    using Result = decltype(f());
    if constexpr (std::is_same_v<Result, ApiPlan>)
      return ApiPlan{WebApi::error(e.status, e.message, e.field), {}};
    else
      return WebApi::error(e.status, e.message, e.field);
  }
}

}  // namespace

ApiReply WebApi::games() const {
  return ApiReply{200, games_};
}

ApiReply WebApi::position(const Params& params) const {
  return answer([&] {
    const std::string played = param(params, "played");
    if (!played.empty() && played != "all" && played != "last" && played != "none")
      bad("played", "played must be all, last or none");
    const Replay r = request_game(params, limits_.max_moves);
    Json state = json_output::game_state_json(r.game);
    Json moves = std::move(state["moves"]);
    state.erase("moves");
    Json played_list = Json::array();
    const size_t n = r.before.size();
    for (size_t i = played == "last" && n ? n - 1 : played == "none" ? n : 0; i < n; ++i)
      played_list.push_back(played_json(r, i));
    state["played"] = std::move(played_list);
    state["moves"] = std::move(moves);
    return ApiReply{200, std::move(state)};
  });
}

ApiReply WebApi::tables(const Params& params) const {
  return answer([&] {
    const Replay r = request_game(params, limits_.max_moves);
    const Rules& rules = r.game.rules();
    const Position& p = r.game.position();
    const db::TableValues* tables = tables_for(rules);
    if (!tables) {
      const Expected<Rules> table_rules = table_rules_for(rules);
      return error(404, table_rules ? "no " + rules.table_name() + " tables in " + database_dir_ +
                                          " (build them with: mancala db build " + rules.name() +
                                          " --max-seeds 16)"
                                    : table_rules.error());
    }
    db::TableAnswer a = db::value_every_move(rules, *tables, p);
    if (a.status == db::ProbeStatus::NotCovered) return error(404, a.message);
    if (!a.ok()) return error(500, a.message);
    if (r.game.ended_by_repetition()) {
      const Outcome end = r.game.outcome();
      a.value =
          (p.side_to_move == Side::South ? end.difference() : -end.difference()) - p.mover_lead();
      a.moves.clear();
    }
    Json answer = json_output::table_answer_json(rules, p, a, r.game.is_over());
    Json table;
    table["table"] = rules.table_name();
    table["max_seeds"] = tables->max_seeds();
    answer["tables"] = std::move(table);
    return ApiReply{200, std::move(answer)};
  });
}

ApiPlan WebApi::move(const std::string& body_text) const {
  return answer([&] {
    const nlohmann::json body = parse_body(body_text);
    int level = kMaxLevel;
    if (const auto it = body.find("level"); it != body.end()) {
      if (!it->is_number_integer() || it->get<int64_t>() < kMinLevel ||
          it->get<int64_t>() > kMaxLevel)
        bad("level",
            "level must be from " + std::to_string(kMinLevel) + " to " + std::to_string(kMaxLevel));
      level = static_cast<int>(it->get<int64_t>());
    }
    uint64_t seed = seed_counter_.fetch_add(0x9E3779B97F4A7C15ull);
    if (const auto it = body.find("seed"); it != body.end()) {
      if (!it->is_number_unsigned()) bad("seed", "seed must be a whole number from 0");
      seed = it->get<uint64_t>();
    }
    const std::string moves = body_moves(body);
    auto r = std::make_shared<Replay>(request_game(
        body_string(body, "game"), body_string(body, "position"), moves, limits_.max_moves));
    require_not_over(*r, !moves.empty());
    PlayerOptions options;
    options.level = level;
    options.seed = seed;
    options.transposition_megabytes = 16;
    // Levels 3 and 4 stop at their depth or the cap; level 5 thinks a second (as in `play`) or
    // the cap; Pro's search takes four budgets and its solver two more: six in all within it.
    options.max_seconds = limits_.move_seconds;
    options.seconds_per_move =
        level >= 6 ? limits_.move_seconds / 6 : std::min(1.0, limits_.move_seconds);
    options.endgame = level >= 6 ? tables_for(r->game.rules()) : nullptr;
    auto work = [r, options]() {
      Player player(r->game.rules(), options);
      Thinking thinking;
      const Position root = r->game.position();
      const Move move = player.choose(r->game, &thinking);
      Game after = r->game;
      after.play(move);
      return ApiReply{
          200, Json{{"game", after.rules().name()},
                    {"move", std::string(1, move_letter(root.side_to_move, move))},
                    {"position", to_string(after.position())},
                    {"game_over", after.is_over()},
                    {"played", move_json(after.rules(), root, move, after.ended_by_repetition())},
                    {"thinking",
                     json_output::thinking_json(after.rules(), root, options.level, thinking)}}};
    };
    // Random and greedy moves cost microseconds: answered at once.
    if (level <= 2) return ApiPlan{work(), {}};
    return ApiPlan{{}, work};
  });
}

ApiPlan WebApi::analyse(const Params& params) const {
  return answer([&] {
    double seconds = std::min(2.0, limits_.analyse_seconds);
    if (const std::string text = param(params, "time"); !text.empty()) {
      char* end = nullptr;
      errno = 0;
      const double t = std::strtod(text.c_str(), &end);
      if (end == text.c_str() || *end != '\0' || errno != 0 || !std::isfinite(t) || t <= 0)
        bad("time", "time must be a positive number of seconds");
      seconds = std::min(t, limits_.analyse_seconds);
    }
    auto r = std::make_shared<Replay>(request_game(params, limits_.max_moves));
    require_not_over(*r, !param(params, "moves").empty());
    const db::TableValues* tables = tables_for(r->game.rules());
    auto work = [r, tables, seconds]() {
      const Rules& rules = r->game.rules();
      const Position p = r->game.position();
      const MoveList legal = r->game.legal_moves();
      struct Scored {
        Move move;
        int score;
        bool exact;
        std::vector<Move> line;
      };
      std::vector<Scored> scored;
      std::string source = "search";
      const db::TableAnswer a =
          tables ? db::value_every_move(rules, *tables, p) : db::TableAnswer{};
      if (a.ok()) {
        source = "tables";
        for (const db::TableMoveValue& m : a.moves)
          scored.push_back(
              {m.move, score_of(p, m.value), true, table_line(rules, *tables, p, m.move, 24)});
      } else {
        // Each move is searched for its share of the time; a proven score is exact.
        Search search(rules, 32, tables);
        SearchLimits limits;
        limits.max_seconds = seconds / legal.size();
        for (Move m : legal) {
          const Position child = apply_move(rules, p, m);
          Scored s{m, 0, true, {m}};
          if (generate_moves(rules, child).empty()) {
            const Outcome end = final_outcome(rules, child);
            s.score = p.side_to_move == Side::South ? end.difference() : -end.difference();
          } else {
            const SearchResult result = search.run(child, limits);
            s.score = child.side_to_move == p.side_to_move ? result.score : -result.score;
            s.exact = result.proven;
            s.line.insert(s.line.end(), result.pv.begin(), result.pv.end());
          }
          scored.push_back(std::move(s));
        }
      }
      std::stable_sort(scored.begin(), scored.end(),
                       [](const Scored& x, const Scored& y) { return x.score > y.score; });
      Json moves = Json::array(), best = Json::array();
      for (const Scored& s : scored) {
        const std::string letter(1, move_letter(p.side_to_move, s.move));
        Json entry{{"move", letter}, {"score", s.score}, {"exact", s.exact}};
        if (s.exact) entry["category"] = category(s.score);
        entry["line"] = move_letters_json(rules, p, s.line);
        moves.push_back(std::move(entry));
        if (s.score == scored.front().score) best.push_back(letter);
      }
      return ApiReply{200, Json{{"game", rules.name()},
                                {"position", to_string(p)},
                                {"side_to_move", side_name(p.side_to_move)},
                                {"source", source},
                                {"seconds", source == "tables" ? 0.0 : seconds},
                                {"moves", std::move(moves)},
                                {"best", std::move(best)}}};
    };
    return ApiPlan{{}, work};
  });
}

namespace {

// Tag names are words; values one line each, so that a record cannot be broken by its tags.
RecordTags parse_tags(const nlohmann::json& body) {
  RecordTags tags;
  const auto it = body.find("tags");
  if (it == body.end() || it->is_null()) return tags;
  if (!it->is_object()) bad("tags", "tags must be an object of names and text values");
  for (const auto& [name, value] : it->items()) {
    if (name.empty() || name.size() > 64 || !std::all_of(name.begin(), name.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
        }))
      bad("tags", "tag name '" + name + "' must be letters, digits or _");
    if (!value.is_string()) bad("tags", "tag " + name + " must be a text value");
    const std::string text = value.get<std::string>();
    if (std::any_of(text.begin(), text.end(),
                    [](char c) { return static_cast<unsigned char>(c) < 0x20; }))
      bad("tags", "tag " + name + " must be one line of text");
    tags.emplace_back(name, text);
  }
  return tags;
}

}  // namespace

ApiReply WebApi::write_record(const std::string& body_text) const {
  return answer([&] {
    const nlohmann::json body = parse_body(body_text);
    const RecordTags tags = parse_tags(body);
    const Replay r = request_game(body_string(body, "game"), body_string(body, "position"),
                                  body_moves(body), limits_.max_moves);
    return ApiReply{200, Json{{"game", r.game.rules().name()},
                              {"record", mancala::write_record(r.game, tags)}}};
  });
}

ApiReply WebApi::read_record(const std::string& body_text) const {
  return answer([&] {
    const nlohmann::json body = parse_body(body_text);
    const std::string text = body_string(body, "record");
    if (text.empty()) bad("record", "missing record: the text of a game record");
    Expected<GameRecord> record = mancala::read_record(text);
    if (!record) bad("record", record.error());
    const Game& game = record->game;
    if (static_cast<int>(game.moves().size()) > limits_.max_moves)
      bad("record", "more than " + std::to_string(limits_.max_moves) + " moves");
    Json tags = Json::object();
    for (const auto& [name, value] : record->tags) tags[name] = value;
    return ApiReply{
        200, Json{{"game", game.rules().name()},
                  {"start", to_string(game.start())},
                  {"moves", letters_of(game)},
                  {"position", to_string(game.position())},
                  {"game_over", game.is_over()},
                  {"result", game.is_over() ? json_output::outcome_json(game.outcome(),
                                                                        game.ended_by_repetition())
                                            : Json(nullptr)},
                  {"tags", std::move(tags)}}};
  });
}

}  // namespace mancala::web
