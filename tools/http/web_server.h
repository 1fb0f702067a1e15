// `mancala serve`: the web board and the JSON API over HTTP (libmicrohttpd).
//
// Event-driven: `http_threads` threads each wait (epoll) on many connections at once, so a
// client that sends its request slowly costs a socket and at most `kConnectionMemory` bytes of
// buffer, never a thread. The cheap requests (games, positions, table look-ups, records, levels
// 1 and 2) are answered on those threads, each in a few milliseconds at most (a request carries
// at most `max_moves` moves, counted as they are read). Computer moves of levels 3-6, analyses
// and positions describing more than a few hundred moves seed by seed go to a fixed compute pool
// (`threads`, at a lower priority) through a bounded queue (`queue`): their connection is
// suspended meanwhile, and when the queue is full the answer is 503 with Retry-After at once. A
// job whose client has gone by the time a worker takes it is not started. Beyond `max_connections`
// open connections a request is answered 503 too, and its connection closed; far beyond,
// connections wait in the kernel's backlog.
//
// Limits on what a client sends (docs/http-api.md, "What the server defends against"): the
// request line and headers of a request must fit in the connection's buffer (the library
// answers 414 or 431 and closes); a request target is at most 8 KiB (414), a request has at most
// `kMaxHeaders` headers (431); a whole request (line, headers, body) must arrive within
// `request_seconds` of the connection's opening or of the previous answer on it, or the
// connection is closed; an idle connection is closed after `keep_alive_seconds`; pipelined
// requests are answered in order.
//
// Requests are refused by their headers before any body is read: a Host that is not a name of
// this server (421), a body that is chunked or has no length (411) or is compressed (415), a
// Content-Length that is not exactly one plain number (400) or is over the limit (413), a POST
// that is not application/json (415). A refused request is answered "Connection: close" and its
// connection closed, since its unread body would otherwise be read as the next request. A Range
// of several parts is ignored (the whole file is sent); one range of a web app file is served,
// from the file's own bytes.
//
// The web app's files are sent as they are or precompressed (brotli, gzip: whichever the client's
// Accept-Encoding weighs highest, brotli first), each form with its own ETag, revalidated on every
// load (Cache-Control: no-cache, 304 when unchanged); docs/web-board.md, "Loading fast".
// The library never expands a compressed body nor builds a multi-part reply, so those two checks
// say why rather than prevent a cost. Left to a reverse proxy: TLS, and limits per client
// address (one address may hold every connection until each is cut off).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "solver/util/expected.h"
#include "tools/http/web_api.h"

namespace mancala::http {

// The buffer of one connection, which its request line and headers must fit in (the body is
// taken from it piece by piece, up to `max_body_bytes`).
constexpr size_t kConnectionMemory = 64 * 1024;
constexpr size_t kMaxTargetBytes = 8192;  // the request target (path and query)
constexpr size_t kMaxHeaders = 100;

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 8080;            // 0: any free port (bind() tells which)
  std::string database_dir;   // empty: the default database directory
  int threads = 0;            // compute workers; 0: all cores (solver/util/thread_count.h)
  int http_threads = 4;       // threads answering connections (each waits on many)
  int max_connections = 512;  // open connections answered; beyond, 503
  int queue = 0;              // compute jobs that may wait; 0: 8 per worker
  size_t max_body_bytes = 64 * 1024;
  int keep_alive_seconds = 5;  // an idle connection is closed after this long
  // A request must arrive whole within this long of its connection's opening or of the previous
  // answer on it: a client sending a byte at a time is cut off.
  int request_seconds = 10;
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
  // Connections wait in the listening socket's queue until run() takes them.
  Expected<int> bind();
  // Serves until stop() (from another thread or a signal thread); call after bind(). The calling
  // thread accepts the connections, deals them out to the connection threads in turn, and cuts
  // off those whose request is late (`request_seconds`).
  void run();
  // Stops accepting, ends every open connection (a computation under way is answered 503) and
  // returns once run() has returned.
  void stop();
  // The accept loop is running (run() was called and has not stopped).
  bool running() const;

  const WebApi& api() const;
  // Requests answered 503 so far (compute queue full, or too many connections open).
  uint64_t busy_replies() const;
  // Connections accepted so far.
  uint64_t connections_accepted() const;
  // Computations whose client had gone by the time they ended (an analysis ends early then).
  uint64_t abandoned_computations() const;
  // Connections cut off because their request took longer than `request_seconds`.
  uint64_t late_requests_cut() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mancala::http
