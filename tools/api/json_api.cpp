#include "tools/api/json_api.h"

#include <algorithm>
#include <cctype>
#include <chrono>

#include "mancala_version.h"
#include "solver/rules/record.h"
#include "solver/search/players.h"
#include "solver/search/search.h"
#include "solver/tables/table_answer.h"
#include "solver/tables/table_rules.h"
#include "tools/service/analysis.h"
#include "tools/service/move_text.h"
#include "tools/service/validation.h"

namespace mancala::api {

using json_output::move_json;

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

// A game replayed from its start through `moves` (tools/service/move_text.h); a problem is a 400
// naming the moves.
using service::Replay;

Replay replay(const Rules& rules, const Position& start, const std::string& moves, int max_moves) {
  Replay r = service::replay_moves(rules, start, moves, max_moves);
  if (!r.ok()) bad("moves", r.message);
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

// A kind of game in the catalogue: sizes and variants from the rule book's one table
// (solver/rules/rules.h, game_forms), and the tables found for it.
Json kind_json(const GameForm& form, const std::vector<service::TablesFound>& found) {
  const Rules default_rules = rules_of_form(form.kind, form.default_houses, form.default_seeds, 0);
  Json variant_list = Json::array();
  for (int v = 0; v < form.variant_count; ++v)
    variant_list.push_back(
        Json{{"name", form.variants[v].name}, {"option", form.variants[v].option}});
  Json tables = Json::array();
  for (const service::TablesFound& t : found)
    if (t.table.rfind(kind_name(form.kind), 0) == 0)
      tables.push_back(Json{{"table", t.table}, {"max_seeds", t.max_seeds}});
  return Json{
      {"kind", kind_name(form.kind)},
      {"name", form.title},
      {"default", default_rules.name()},
      {"houses",
       {{"min", form.min_houses}, {"max", form.max_houses}, {"default", form.default_houses}}},
      {"seeds",
       {{"min", form.min_seeds}, {"max", form.max_seeds}, {"default", form.default_seeds}}},
      {"variants", std::move(variant_list)},
      {"tables", std::move(tables)}};
}

// The largest node budget a move request may give: about a minute of Pro's search on a desktop,
// so that the time cap, not the count, bounds a request.
constexpr uint64_t kMaxNodes = 1'000'000'000;

int64_t steady_nanoseconds() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

JsonApi::JsonApi(std::shared_ptr<service::TableSource> tables, const ApiLimits& limits,
                 TablesAdvice advice)
    : limits_(limits),
      tables_(std::move(tables)),
      advice_(std::move(advice)),
      last_rescan_ns_(steady_nanoseconds()),
      seed_counter_(static_cast<uint64_t>(steady_nanoseconds())) {
  catalogue_ = std::make_shared<const Json>(make_catalogue());
}

Json JsonApi::make_catalogue() const {
  const std::vector<service::TablesFound> found = tables_->found();
  Json kinds = Json::array();
  for (const GameForm& form : game_forms()) kinds.push_back(kind_json(form, found));
  Json levels = Json::array();
  const char* level_names[] = {"random",         "greedy",       "search 2 plies",
                               "search 8 plies", "timed search", "Pro"};
  for (int level = kMinLevel; level <= kMaxLevel; ++level) {
    Json entry{{"level", level}, {"name", level_names[level - 1]}};
    if (level == kMaxLevel) entry["strongest"] = true;
    levels.push_back(std::move(entry));
  }
  // "version" is the API's (the 1 of /api/v1); "server" names the program and its release.
  return Json{{"version", 1},
              {"server", {{"name", "mancala"}, {"version", std::string(kVersion)}}},
              {"games", std::move(kinds)},
              {"levels", std::move(levels)},
              {"limits",
               {{"move_seconds", limits_.move_seconds},
                {"analyse_seconds", limits_.analyse_seconds},
                {"max_moves", limits_.max_moves}}}};
}

void JsonApi::rescan_tables_when_due() const {
  const int64_t now = steady_nanoseconds();
  int64_t last = last_rescan_ns_.load(std::memory_order_relaxed);
  if (now - last < static_cast<int64_t>(limits_.tables_rescan_seconds * 1e9)) return;
  // One request looks; the others go on with the tables they have.
  if (!last_rescan_ns_.compare_exchange_strong(last, now, std::memory_order_relaxed)) return;
  if (!tables_->rescan()) return;
  auto fresh = std::make_shared<const Json>(make_catalogue());
  std::lock_guard lock(catalogue_mutex_);
  catalogue_ = std::move(fresh);
}

std::shared_ptr<const Json> JsonApi::catalogue() const {
  std::lock_guard lock(catalogue_mutex_);
  return catalogue_;
}

Json JsonApi::tables_found() const {
  Json out = Json::array();
  for (const service::TablesFound& t : tables_->found())
    out.push_back(Json{{"table", t.table}, {"max_seeds", t.max_seeds}});
  return out;
}

JsonApi::~JsonApi() = default;

ApiReply JsonApi::error(int status, const std::string& message, const std::string& field) {
  Json body{{"error", message}};
  if (!field.empty()) body["field"] = field;
  return ApiReply{status, std::move(body)};
}

std::shared_ptr<const ExactValues> JsonApi::tables_for(const Rules& rules) const {
  rescan_tables_when_due();
  return tables_->values_for(rules);
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
      return ApiPlan{JsonApi::error(e.status, e.message, e.field), {}};
    else
      return JsonApi::error(e.status, e.message, e.field);
  }
}

}  // namespace

ApiReply JsonApi::games() const {
  rescan_tables_when_due();
  return ApiReply{200, *catalogue()};
}

// Moves a position request describes seed by seed on a connection thread, at once; more (played=all
// over a long game: 3000 moves are a 685 KB answer and tens of milliseconds) are described on the
// compute pool, so that no request answered at once costs more than a few milliseconds.
constexpr size_t kMovesDescribedAtOnce = 200;

ApiPlan JsonApi::position(const Params& params) const {
  return answer([&] {
    const std::string played = param(params, "played");
    if (!played.empty() && played != "all" && played != "last" && played != "none")
      bad("played", "played must be all, last or none");
    auto r = std::make_shared<const Replay>(request_game(params, limits_.max_moves));
    const size_t n = r->before.size();
    const size_t first = played == "last" && n ? n - 1 : played == "none" ? n : 0;
    auto work = [r, first](const Abandoned&) {
      Json state = json_output::game_state_json(r->game);
      Json moves = std::move(state["moves"]);
      state.erase("moves");
      Json played_list = Json::array();
      for (size_t i = first; i < r->before.size(); ++i) played_list.push_back(played_json(*r, i));
      state["played"] = std::move(played_list);
      state["moves"] = std::move(moves);
      return ApiReply{200, std::move(state)};
    };
    if (n - first <= kMovesDescribedAtOnce) return ApiPlan{work({}), {}};
    return ApiPlan{{}, work};
  });
}

ApiReply JsonApi::tables(const Params& params) const {
  return answer([&] {
    const Replay r = request_game(params, limits_.max_moves);
    const Rules& rules = r.game.rules();
    const Position& p = r.game.position();
    const std::shared_ptr<const ExactValues> tables = tables_for(rules);
    if (!tables) {
      const Expected<Rules> table_rules = table_rules_for(rules);
      return error(404, table_rules ? "no " + rules.table_name() + " tables " + tables_->place() +
                                          (advice_ ? advice_(rules) : "")
                                    : table_rules.error());
    }
    TableAnswer a = value_every_move(rules, *tables, p, tables_->place());
    if (a.status == ProbeStatus::NotCovered) return error(404, a.message);
    if (!a.ok()) return error(500, a.message);
    if (r.game.ended_by_repetition()) {
      const Outcome end = r.game.outcome();
      a.value =
          (p.side_to_move == Side::South ? end.difference() : -end.difference()) - p.mover_lead();
      a.moves.clear();
    }
    Json answer = json_output::table_answer_json(rules, p, a, r.game.is_over());
    answer["margin"] = service::margin_name(service::table_margin(rules));
    Json table;
    table["table"] = rules.table_name();
    table["max_seeds"] = tables->max_seeds();
    answer["tables"] = std::move(table);
    return ApiReply{200, std::move(answer)};
  });
}

ApiPlan JsonApi::move(const std::string& body_text) const {
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
    // A node budget in place of time for levels 5 and 6: the same move on every machine, as long
    // as move_seconds is not reached first (the browser's engine is compared with the server's
    // that way).
    uint64_t nodes = 0;
    if (const auto it = body.find("nodes"); it != body.end()) {
      if (!it->is_number_unsigned() || it->get<uint64_t>() < 1 || it->get<uint64_t>() > kMaxNodes)
        bad("nodes", "nodes must be a whole number from 1 to " + std::to_string(kMaxNodes));
      nodes = it->get<uint64_t>();
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
    // The budget is the whole move's: Pro's player takes six times its per-move nodes.
    options.nodes_per_move = level >= 6 && nodes > 0 ? std::max<uint64_t>(1, nodes / 6) : nodes;
    // The work holds the tables it plays from (a rescan may replace them meanwhile).
    std::shared_ptr<const ExactValues> tables = level >= 6 ? tables_for(r->game.rules()) : nullptr;
    options.endgame = tables.get();
    // A move thinks for move_seconds at most; for a client gone, it stops after the search depth
    // under way (Pro's solver is then not asked), and nobody is answered.
    auto work = [r, options, tables](const Abandoned& abandoned) {
      Player player(r->game.rules(), options);
      Thinking thinking;
      const Position root = r->game.position();
      const Move move =
          player.choose(r->game, player.level_limits(), &thinking, [&](const SearchResult&) {
            if (abandoned && abandoned()) player.stop();
          });
      if (abandoned && abandoned())
        return error(503, "the move was stopped: the client closed its connection");
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
    if (level <= 2) return ApiPlan{work({}), {}};
    return ApiPlan{{}, work};
  });
}

ApiPlan JsonApi::analyse(const Params& params) const {
  return answer([&] {
    service::AnalysisLimits limits;
    limits.seconds = std::min(2.0, limits_.analyse_seconds);
    if (const std::string text = param(params, "time"); !text.empty()) {
      const Expected<double> t = service::read_number(text, 0, service::kMaxSeconds, true);
      if (!t) bad("time", "time must be a positive number of seconds");
      limits.seconds = std::min(*t, limits_.analyse_seconds);
    }
    if (const std::string text = param(params, "depth"); !text.empty()) {
      const Expected<int64_t> depth = service::read_integer(text, 1, service::kMaxAnalysisDepth);
      if (!depth) bad("depth", "depth " + depth.error());
      limits.depth = static_cast<int>(*depth);
      limits.max_seconds =
          limits_.analyse_seconds;  // a depth is reached within the cap or not at all
    }
    auto r = std::make_shared<Replay>(request_game(params, limits_.max_moves));
    require_not_over(*r, !param(params, "moves").empty());
    const std::shared_ptr<const ExactValues> tables = tables_for(r->game.rules());
    auto work = [r, tables, limits](const Abandoned& abandoned) mutable {
      limits.abandoned = abandoned;
      const Rules& rules = r->game.rules();
      const Position p = r->game.position();
      const service::Analysis analysis = service::analyse(rules, p, limits, tables.get());
      // Some moves are missing: not an answer (only a client that closed its half of the
      // connection could still read it).
      if (analysis.abandoned)
        return error(503, "the analysis was stopped: the client closed its connection");
      return ApiReply{200, json_output::analysis_json(rules, p, analysis)};
    };
    return ApiPlan{{}, work};
  });
}

ApiPlan JsonApi::request(std::string_view name, const Params& params,
                         const std::string& body) const {
  if (name == "games") return ApiPlan{games(), {}};
  if (name == "position") return position(params);
  if (name == "tables") return ApiPlan{tables(params), {}};
  if (name == "analyse") return analyse(params);
  if (name == "move") return move(body);
  if (name == "record") return ApiPlan{write_record(body), {}};
  if (name == "record/parse") return ApiPlan{read_record(body), {}};
  return ApiPlan{error(404, "no such page: /api/v1/" + std::string(name)), {}};
}

namespace {

// The tags' names and values are checked by the record writer (check_record_tag).
RecordTags parse_tags(const nlohmann::json& body) {
  RecordTags tags;
  const auto it = body.find("tags");
  if (it == body.end() || it->is_null()) return tags;
  if (!it->is_object()) bad("tags", "tags must be an object of names and text values");
  for (const auto& [name, value] : it->items()) {
    if (!value.is_string()) bad("tags", "tag " + name + " must be a text value");
    tags.emplace_back(name, value.get<std::string>());
  }
  return tags;
}

}  // namespace

ApiReply JsonApi::write_record(const std::string& body_text) const {
  return answer([&] {
    const nlohmann::json body = parse_body(body_text);
    const RecordTags tags = parse_tags(body);
    const Replay r = request_game(body_string(body, "game"), body_string(body, "position"),
                                  body_moves(body), limits_.max_moves);
    const Expected<std::string> record = mancala::write_record(r.game, tags);
    if (!record) bad("tags", record.error());
    return ApiReply{200, Json{{"game", r.game.rules().name()}, {"record", *record}}};
  });
}

ApiReply JsonApi::read_record(const std::string& body_text) const {
  return answer([&] {
    const nlohmann::json body = parse_body(body_text);
    const std::string text = body_string(body, "record");
    if (text.empty()) bad("record", "missing record: the text of a game record");
    // The limit is checked as the moves are read, before any is played beyond it.
    Expected<GameRecord> record = mancala::read_record(text, limits_.max_moves);
    if (!record) bad("record", record.error());
    const Game& game = record->game;
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

}  // namespace mancala::api
