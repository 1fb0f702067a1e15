// The JSON API as `mancala serve` answers it: tools/api's JsonApi over the tables of a database
// directory, a missing game's 404 saying which command builds them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "db/table_values.h"
#include "tools/api/json_api.h"
#include "tools/service/catalogue.h"

namespace mancala::http {

using api::Abandoned;
using api::ApiLimits;
using api::ApiPlan;
using api::ApiReply;
using api::Json;
using api::Params;

class WebApi : public api::JsonApi {
 public:
  // Opens the tables of every game found under `database_dir` (empty: the default directory).
  // `on_probe_failure` is called on the first failed probe of each game's tables (the reply
  // says so too, as a 500).
  WebApi(const std::string& database_dir, const ApiLimits& limits,
         const db::ProbeFailureHandler& on_probe_failure = {});

  // What is wrong with the tables on disk: a directory that cannot be read, a layer missing
  // below the highest (the server goes on without them, or without the layers above the gap).
  std::vector<std::string> table_warnings() const { return shelf_->warnings(); }

 private:
  WebApi(std::shared_ptr<service::TableShelf> shelf, const ApiLimits& limits);

  std::shared_ptr<service::TableShelf> shelf_;
};

}  // namespace mancala::http
