// The JSON API of `mancala serve`, version 1 (docs/http-api.md), apart from
// HTTP: each request's parameters or body in, a status and a JSON document out. Stateless: a
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
#include <vector>

#include "db/table_values.h"
#include "tools/service/catalogue.h"
#include "tools/service/json_output.h"

namespace mancala::http {

using Json = json_output::Json;

struct ApiLimits {
  double move_seconds = 2.0;     // the longest a computer move may think (levels 5 and 6)
  double analyse_seconds = 5.0;  // the longest an analysis may take
  int max_moves = 3000;          // moves one request may carry
  // How often the database directory is looked at again, so that layers a build writes beside
  // the running server are used as they land (0: before every request that uses tables).
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

class WebApi {
 public:
  // Opens the tables of every game found under `database_dir` (empty: the default directory).
  // `on_probe_failure` is called on the first failed probe of each game's tables (the reply
  // says so too, as a 500).
  WebApi(const std::string& database_dir, const ApiLimits& limits,
         const db::ProbeFailureHandler& on_probe_failure = {});
  ~WebApi();

  const ApiLimits& limits() const { return limits_; }
  // The tables found, as {"table", "max_seeds"} objects.
  Json tables_found() const;
  // What is wrong with the tables on disk: a directory that cannot be read, a layer missing
  // below the highest (the server goes on without them, or without the layers above the gap).
  std::vector<std::string> table_warnings() const { return shelf_.warnings(); }

  ApiReply games() const;                                // GET  /api/v1/games
  ApiPlan position(const Params& params) const;          // GET  /api/v1/position
  ApiReply tables(const Params& params) const;           // GET  /api/v1/tables
  ApiPlan move(const std::string& body) const;           // POST /api/v1/move
  ApiPlan analyse(const Params& params) const;           // GET  /api/v1/analyse
  ApiReply write_record(const std::string& body) const;  // POST /api/v1/record
  ApiReply read_record(const std::string& body) const;   // POST /api/v1/record/parse

  // {"error": message} with the bad field, when there is one.
  static ApiReply error(int status, const std::string& message, const std::string& field = "");

 private:
  // The game's tables, or null when none were found; held by the request that uses them.
  std::shared_ptr<const db::TableValues> tables_for(const Rules& rules) const;
  // Looks at the database directory again when tables_rescan_seconds have passed since the last
  // look, and rebuilds the catalogue when the tables changed.
  void rescan_tables_when_due() const;
  std::shared_ptr<const Json> catalogue() const;
  Json make_catalogue() const;

  ApiLimits limits_;
  mutable service::TableShelf shelf_;
  mutable std::mutex catalogue_mutex_;
  mutable std::shared_ptr<const Json> catalogue_;  // the games reply; replaced when tables change
  mutable std::atomic<int64_t> last_rescan_ns_;
  mutable std::atomic<uint64_t> seed_counter_;
};

}  // namespace mancala::http
