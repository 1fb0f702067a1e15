// The JSON API, version 1 (docs/http-api.md), apart from HTTP: each request's parameters or body
// in, a status and a JSON document out. The same code answers `mancala serve`'s requests
// (tools/http, over the files of a database directory) and the browser's engine (tools/wasm, over
// tables built in memory): the two read their tables through service::TableSource. Stateless: a
// request carries its game and position or moves, so any number of servers can answer over the
// same read-only tables. Requests that cost little are answered at once; a computer move or an
// analysis comes back as work for the server's compute pool, already checked and bounded by the
// time limits here.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "tools/service/json_output.h"
#include "tools/service/table_source.h"

namespace mancala::api {

using Json = json_output::Json;

struct ApiLimits {
  double move_seconds = 2.0;     // the longest a computer move may think (levels 5 and 6)
  double analyse_seconds = 5.0;  // the longest an analysis may take
  int max_moves = 3000;          // moves one request may carry
  // How often the tables are looked for again, so that layers a build writes beside the running
  // server are used as they land (0: before every request that uses tables).
  double tables_rescan_seconds = 2.0;
};

struct ApiReply {
  int status = 200;
  Json body;
};

// Whether the client that asked has gone (its connection closed): work may end early then.
using Abandoned = std::function<bool()>;

// What a request comes to: a reply now, or `work` that makes the reply, for a compute worker.
struct ApiPlan {
  ApiReply reply;
  std::function<ApiReply(const Abandoned& abandoned)> work;
};

// Query parameters (the first value of each name).
using Params = std::map<std::string, std::string>;

// What a 404 for a game with no tables adds, after "no kalah:6 tables in DIR": how to get them
// (the server: the command that builds them); empty for nothing.
using TablesAdvice = std::function<std::string(const Rules& rules)>;

class JsonApi {
 public:
  JsonApi(std::shared_ptr<service::TableSource> tables, const ApiLimits& limits,
          TablesAdvice advice = {});
  virtual ~JsonApi();

  const ApiLimits& limits() const { return limits_; }
  // The tables found, as {"table", "max_seeds"} objects.
  Json tables_found() const;

  ApiReply games() const;                                // GET  /api/v1/games
  ApiPlan position(const Params& params) const;          // GET  /api/v1/position
  ApiReply tables(const Params& params) const;           // GET  /api/v1/tables
  ApiPlan move(const std::string& body) const;           // POST /api/v1/move
  ApiPlan analyse(const Params& params) const;           // GET  /api/v1/analyse
  ApiReply write_record(const std::string& body) const;  // POST /api/v1/record
  ApiReply read_record(const std::string& body) const;   // POST /api/v1/record/parse

  // The request `name` names (what follows /api/v1/ in its path: "games", "record/parse" ...),
  // with its query parameters and body (each request reads the one it takes); a 404 for a name
  // that is none of the above.
  ApiPlan request(std::string_view name, const Params& params, const std::string& body) const;

  // {"error": message} with the bad field, when there is one.
  static ApiReply error(int status, const std::string& message, const std::string& field = "");

 private:
  // The game's tables, or null when none were found; held by the request that uses them.
  std::shared_ptr<const ExactValues> tables_for(const Rules& rules) const;
  // Looks for tables again when tables_rescan_seconds have passed since the last look, and
  // rebuilds the catalogue when the tables changed.
  void rescan_tables_when_due() const;
  std::shared_ptr<const Json> catalogue() const;
  Json make_catalogue() const;

  ApiLimits limits_;
  std::shared_ptr<service::TableSource> tables_;
  TablesAdvice advice_;
  mutable std::mutex catalogue_mutex_;
  mutable std::shared_ptr<const Json> catalogue_;  // the games reply; replaced when tables change
  mutable std::atomic<int64_t> last_rescan_ns_;
  mutable std::atomic<uint64_t> seed_counter_;
};

}  // namespace mancala::api
