#include "tools/http/web_api.h"

#include "tools/command_line/endgame_tables.h"

namespace mancala::http {

WebApi::WebApi(const std::string& database_dir, const ApiLimits& limits,
               const db::ProbeFailureHandler& on_probe_failure)
    : WebApi(std::make_shared<service::TableShelf>(database_dir, on_probe_failure), limits) {}

WebApi::WebApi(std::shared_ptr<service::TableShelf> shelf, const ApiLimits& limits)
    : JsonApi(shelf, limits, command_line::build_advice), shelf_(std::move(shelf)) {}

}  // namespace mancala::http
