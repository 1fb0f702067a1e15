// `mancala serve`: the web board and the JSON API over HTTP (cpp-httplib).
//
// Threads: connection threads (`http_threads`), each serving one connection at a time for as
// long as it stays open (keep-alive); the cheap requests (games, positions, table look-ups,
// records, levels 1 and 2) are answered there. Computer moves of levels 3-6 and analyses go to
// a fixed compute pool (`threads`, at a lower priority) through a bounded queue (`queue`): when
// it is full the answer is 503 with Retry-After at once. Connections that find every connection
// thread busy wait in a bounded queue too, beyond which they get the same 503. Bodies are
// bounded (`max_body_bytes`, 413), request lines by the library (8 KiB, 414), thinking time by
// ApiLimits. The web app's files are compiled in (tools/web_assets.h): no request reads a file.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "solver/rules/expected.h"
#include "tools/http/web_api.h"

namespace mancala::web {

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 8080;           // 0: any free port (bind() tells which)
  std::string database_dir;  // empty: the default database directory
  int threads = 0;           // compute workers; 0: all cores (solver/rules/thread_count.h)
  int http_threads = 128;    // connection threads
  int queue = 0;             // compute jobs that may wait; 0: 8 per worker
  size_t max_body_bytes = 64 * 1024;
  int keep_alive_seconds = 5;  // an idle connection is closed after this long
  ApiLimits limits;
  bool log = false;  // one line per request on standard error
  // Called on the first failed probe of each game's tables (mancala serve warns on stderr).
  db::ProbeFailureHandler on_probe_failure;
};

class WebServer {
 public:
  explicit WebServer(const ServeOptions& options);
  ~WebServer();

  // Opens the listening socket: the port it listens on, or why not.
  Expected<int> bind();
  // Serves until stop() (from another thread or a signal thread); call after bind().
  void run();
  void stop();
  // The accept loop is running (run() was called and has not stopped).
  bool running() const;

  const WebApi& api() const;
  // Requests answered 503 so far (compute queue or connection queue full).
  uint64_t busy_replies() const;
  // Connections accepted so far (each handed to a connection thread, its queue, or shed).
  uint64_t connections_accepted() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mancala::web
