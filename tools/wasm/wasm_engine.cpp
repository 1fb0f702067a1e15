// The browser's engine: the JSON API (tools/api) over tables built in memory, compiled to
// WebAssembly and run in a Web Worker (tools/http/web/engine-worker.js). The worker calls these
// functions with text and reads text back; each returned string is valid until the next call.
//
// Requests are answered as the server answers them, by the same code (api::JsonApi), one at a
// time: the worker has one thread, and a request's work (a move, an analysis) runs to its end
// within the API's time limits. There is no abandoning: an answer the page no longer wants is
// dropped when it comes (engine.js).
#include <emscripten/emscripten.h>

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "solver/rules/rules.h"
#include "solver/util/stopwatch.h"
#include "tools/api/json_api.h"
#include "tools/wasm/browser_tables.h"

namespace {

using mancala::api::Json;

struct Engine {
  std::shared_ptr<mancala::wasm::BrowserTables> tables =
      std::make_shared<mancala::wasm::BrowserTables>();
  // The server's limits but for the rescan: the tables change only by the worker's own calls,
  // so they are looked at before every request that uses them.
  mancala::api::JsonApi api{tables, mancala::api::ApiLimits{.tables_rescan_seconds = 0}};
  std::string reply;  // the last answer, read by the worker
};

Engine& engine() {
  static Engine the_engine;
  return the_engine;
}

const char* answer(Json reply) {
  engine().reply = mancala::json_output::dump(reply);
  return engine().reply.c_str();
}

const char* fail(const std::string& message) {
  return answer(Json{{"error", message}});
}

// The game's tables, or the reason there are none.
mancala::wasm::GrowingTables* tables_named(const char* game, std::string* why_not) {
  const mancala::Expected<mancala::Rules> rules = mancala::parse_rules(game ? game : "");
  if (!rules) {
    *why_not = rules.error();
    return nullptr;
  }
  mancala::wasm::GrowingTables* tables = engine().tables->tables_of(*rules);
  if (!tables) *why_not = rules->name() + " has no endgame tables";
  return tables;
}

Json reach_json(const mancala::wasm::GrowingTables& tables) {
  return Json{{"table", tables.builder().rules().table_name()},
              {"max_seeds", tables.max_seeds()},
              {"ceiling", tables.ceiling()}};
}

}  // namespace

extern "C" {

// A request of the API: `name` as in /api/v1/NAME, `params` a JSON object of the query's
// parameters (text values), `body` the body of a POST. Answers {"status": N, "body": {...}}.
EMSCRIPTEN_KEEPALIVE const char* mancala_request(const char* name, const char* params,
                                                 const char* body) {
  mancala::api::Params query;
  const nlohmann::json parsed = nlohmann::json::parse(params ? params : "{}", nullptr, false);
  if (!parsed.is_object()) return fail("the parameters are not a JSON object");
  for (const auto& [key, value] : parsed.items())
    query[key] = value.is_string() ? value.get<std::string>() : value.dump();
  mancala::api::ApiPlan plan = engine().api.request(name ? name : "", query, body ? body : "");
  const mancala::api::ApiReply reply = plan.work ? plan.work({}) : std::move(plan.reply);
  return answer(Json{{"status", reply.status}, {"body", reply.body}});
}

// Builds the layer above the game's tables' reach: {"table", "max_seeds", "ceiling", "seconds",
// "bytes"} (bytes: the new layer's), or {"error"}.
EMSCRIPTEN_KEEPALIVE const char* mancala_build_layer(const char* game) {
  std::string why_not;
  mancala::wasm::GrowingTables* tables = tables_named(game, &why_not);
  if (!tables) return fail(why_not);
  if (tables->max_seeds() >= tables->ceiling())
    return fail("the browser's tables stop at " + std::to_string(tables->ceiling()) + " seeds");
  const auto start = std::chrono::steady_clock::now();
  tables->build_next();
  Json out = reach_json(*tables);
  out["seconds"] = mancala::seconds_since(start);
  out["bytes"] = tables->builder().layer(tables->max_seeds()).size();
  return answer(std::move(out));
}

// Where the game's tables reach: {"table", "max_seeds", "ceiling"} or {"error"}.
EMSCRIPTEN_KEEPALIVE const char* mancala_tables_reach(const char* game) {
  std::string why_not;
  mancala::wasm::GrowingTables* tables = tables_named(game, &why_not);
  if (!tables) return fail(why_not);
  return answer(reach_json(*tables));
}

// The bytes of layer `seeds` of the game's tables (null when it is not built), and their number,
// for the worker to keep.
EMSCRIPTEN_KEEPALIVE const int8_t* mancala_layer_data(const char* game, int seeds) {
  std::string why_not;
  mancala::wasm::GrowingTables* tables = tables_named(game, &why_not);
  if (!tables || seeds < 0 || seeds > tables->max_seeds()) return nullptr;
  return tables->builder().layer(seeds).data();
}
EMSCRIPTEN_KEEPALIVE double mancala_layer_size(const char* game, int seeds) {
  std::string why_not;
  mancala::wasm::GrowingTables* tables = tables_named(game, &why_not);
  if (!tables || seeds < 0 || seeds > tables->max_seeds()) return -1;
  return static_cast<double>(tables->builder().layer(seeds).size());
}

// Installs `size` bytes at `data` (the worker's copy of a layer kept earlier) as the layer above
// the game's tables' reach: {"table", "max_seeds", "ceiling"} or {"error"}.
EMSCRIPTEN_KEEPALIVE const char* mancala_add_layer(const char* game, const int8_t* data,
                                                   double size) {
  std::string why_not;
  mancala::wasm::GrowingTables* tables = tables_named(game, &why_not);
  if (!tables) return fail(why_not);
  const mancala::Expected<bool> added =
      tables->add_kept(std::span<const int8_t>(data, static_cast<size_t>(size)));
  if (!added) return fail(added.error());
  return answer(reach_json(*tables));
}

}  // extern "C"
