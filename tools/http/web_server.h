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
//
// Requests are refused by their headers before any body is read (docs/http-api.md, "What the
// server defends against"): a Host that is not a name of this server (421), a body that is
// chunked or has no length (411) or is compressed (415), a Content-Length that is not exactly one
// plain number (400) or is over the limit (413), a POST that is not application/json (415). A refused request's
// connection is answered "Connection: close" and every later request on it is refused too, since
// its unread body would otherwise be read as the next request. A Range of several parts is
// ignored (the whole file is sent).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

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
  // Host names (without a port) accepted in the Host header besides this server's own addresses
  // and localhost: the names a reverse proxy or the user's browser reaches it by.
  std::vector<std::string> allowed_hosts;
  ApiLimits limits;
  bool log = false;  // one line per request on standard error
  // Called on the first failed probe of each game's tables (mancala serve warns on stderr).
  db::ProbeFailureHandler on_probe_failure;
};

class WebServer {
 public:
  explicit WebServer(const ServeOptions& options);
  ~WebServer();

  // Opens the listening socket and starts the connection threads: the port it listens on, or why
  // not (the port is taken, the address is not this machine's, the system gives no more threads).
  Expected<int> bind();
  // Serves until stop() (from another thread or a signal thread); call after bind().
  void run();
  // Stops accepting, ends every open connection (a client that sends a byte at a time would
  // otherwise keep its thread until it is done) and returns once run() has returned.
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
