#include "tools/http/web_server.h"

#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <future>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include <fmt/core.h>
#include <httplib.h>

#include "solver/rules/thread_count.h"
#include "tools/http/web_assets.h"
#include "tools/http/work_queue.h"

namespace mancala::web {

namespace {

constexpr const char* kJson = "application/json; charset=utf-8";
constexpr int kComputeNice = 10;

// Set on the thread that answers a connection which found every connection thread busy.
thread_local bool t_shedding = false;
// Set when a request of the connection being served was refused by its headers: its body was
// not read, so what follows on the connection is not a request, and is refused too.
thread_local bool t_refused = false;

// The connection threads of the HTTP server: a fixed number, with a bounded queue of accepted
// connections waiting for one. A connection beyond that queue is handed to a shedding thread
// that answers its request 503 and closes it, instead of letting connections pile up.
class ConnectionQueue : public httplib::TaskQueue {
 public:
  ConnectionQueue(size_t threads, size_t max_waiting, std::atomic<uint64_t>& accepted)
      : serving_(threads, max_waiting), shedding_(1, 4 * max_waiting), accepted_(accepted) {}

  void enqueue(std::function<void()> connection) override {
    ++accepted_;
    std::function<void()> serve = [connection] {
      t_refused = false;  // a new connection
      connection();
    };
    if (serving_.try_post(serve)) return;
    std::function<void()> shed = [connection = std::move(connection)] {
      t_refused = false;
      t_shedding = true;
      connection();
      t_shedding = false;
    };
    if (shedding_.try_post(shed)) return;
    shed();  // a flood beyond both queues: answered on the accepting thread, which slows it
  }

  void shutdown() override {
    serving_.shutdown();
    shedding_.shutdown();
  }

 private:
  WorkQueue serving_;
  WorkQueue shedding_;
  std::atomic<uint64_t>& accepted_;
};

// A strong validator for a compiled-in file: FNV-1a of its bytes.
std::string etag_of(std::string_view data) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (char c : data) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return fmt::format("\"{:016x}\"", h);
}

Params params_of(const httplib::Request& req) {
  Params params;
  for (const auto& [name, value] : req.params) params.emplace(name, value);  // first one wins
  return params;
}

// ---- Requests refused by their headers. The library calls the pre-routing handler after the
// headers and before the body, so a refusal reads no body at all.

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool all_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A header name as HTTP defines it (a token): anything else, such as "Content-Length " with a
// space before the colon, is a header that a proxy in front may read differently.
bool is_token(std::string_view name) {
  constexpr std::string_view kPunctuation = "!#$%&'*+-.^_`|~";
  return !name.empty() && std::all_of(name.begin(), name.end(), [&](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           kPunctuation.find(c) != std::string_view::npos;
  });
}

// An address as a Host header writes it: IPv6 in brackets.
std::string host_form(std::string_view address) {
  if (address.find(':') != std::string_view::npos && !address.starts_with("["))
    return "[" + std::string(address) + "]";
  return std::string(address);
}

// The media type of a Content-Type value, without its parameters, in lower case.
std::string media_type(std::string_view content_type) {
  std::string_view type = content_type.substr(0, content_type.find(';'));
  while (!type.empty() && (type.back() == ' ' || type.back() == '\t')) type.remove_suffix(1);
  while (!type.empty() && (type.front() == ' ' || type.front() == '\t')) type.remove_prefix(1);
  return lower(type);
}

std::string body_too_large(size_t max_body_bytes) {
  return "the request body is too large: at most " + std::to_string(max_body_bytes) + " bytes";
}

struct Refusal {
  int status = 0;  // 0: accepted
  std::string message;
  std::string field;
};

// The names a Host header may give (lower case, IPv6 in brackets): this server's own, with the
// port it serves, and the allowed ones (a proxy's), with any port.
struct HostNames {
  std::vector<std::string> own;
  std::vector<std::string> allowed;
};

Refusal check_host(const httplib::Request& req, const HostNames& names) {
  if (!req.has_header("Host")) {
    // HTTP/1.1 requires it; an HTTP/1.0 client may leave it out.
    if (req.version == "HTTP/1.0") return {};
    return {400, "the request has no Host header", "Host"};
  }
  if (req.get_header_value_count("Host") > 1)
    return {400, "the request has more than one Host header", "Host"};
  const std::string host = lower(req.get_header_value("Host"));
  // "name", "name:port", "[v6]" or "[v6]:port".
  const size_t name_end = host.starts_with("[") ? host.find(']') + 1 : host.find(':');
  const std::string name = host.substr(0, std::min(name_end, host.size()));
  const std::string_view rest = std::string_view(host).substr(name.size());
  const bool has_port = !rest.empty();
  const bool port_ok = !has_port || (rest[0] == ':' && all_digits(rest.substr(1)));
  const bool ours = std::find(names.own.begin(), names.own.end(), name) != names.own.end() ||
                    name == host_form(req.local_addr);
  const bool allowed =
      std::find(names.allowed.begin(), names.allowed.end(), name) != names.allowed.end();
  const bool our_port = !has_port || rest.substr(1) == std::to_string(req.local_port);
  if (port_ok && ((ours && our_port) || allowed)) return {};
  // A name this server does not know: a page of another site reaching it through DNS
  // rebinding, or a proxy the server was not told about.
  return {421, "this server does not answer to the host '" + req.get_header_value("Host") + "'",
          "Host"};
}

Refusal check_request_headers(const httplib::Request& req, const HostNames& hosts,
                              size_t max_body_bytes) {
  for (const auto& [name, value] : req.headers)
    if (!is_token(name)) return {400, "a header name that is not a token: '" + name + "'", ""};
  if (Refusal host = check_host(req, hosts); host.status != 0) return host;
  const size_t lengths = req.get_header_value_count("Content-Length");
  if (req.has_header("Transfer-Encoding")) {
    if (lengths > 0)
      return {400, "a request with both Content-Length and Transfer-Encoding", "Content-Length"};
    // A chunked body would be read whole before its size could be checked.
    return {411, "a request body must be sent with a Content-Length, not chunked",
            "Transfer-Encoding"};
  }
  if (lengths > 1) return {400, "more than one Content-Length header", "Content-Length"};
  // For these methods the library reads a body without a length until the connection closes,
  // into memory, with no limit.
  const bool takes_body = req.method == "POST" || req.method == "PUT" || req.method == "PATCH" ||
                          req.method == "DELETE" || req.method == "PRI";
  if (lengths == 0 && takes_body)
    return {411, "a " + req.method + " request must have a Content-Length", "Content-Length"};
  if (lengths == 1) {
    const std::string length = req.get_header_value("Content-Length");
    // Digits only: the library would read "16abc" as 16, and a proxy in front may not.
    if (!all_digits(length) || length.size() > 19)
      return {400, "Content-Length '" + length + "' is not a number of bytes", "Content-Length"};
    if (std::stoull(length) > max_body_bytes) return {413, body_too_large(max_body_bytes), "body"};
  }
  // A small compressed body can stand for a huge one: none is accepted, so none is expanded.
  if (req.has_header("Content-Encoding"))
    return {415, "compressed request bodies are not accepted (Content-Encoding)",
            "Content-Encoding"};
  // JSON only: a form or text/plain POST is what a page of another site can send without asking.
  if (req.method == "POST" &&
      media_type(req.get_header_value("Content-Type")) != "application/json")
    return {415, "a POST body must be application/json", "Content-Type"};
  return {};
}

// Ends every connection this process has accepted on `port`: a socket bound to that port with a
// peer. The library's connection threads wait for their client's next byte; a socket shut down
// makes that read return at once.
void shut_down_connections(int port) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd", ec)) {
    int fd = -1;
    try {
      fd = std::stoi(entry.path().filename().string());
    } catch (const std::exception&) {
      continue;
    }
    sockaddr_storage local{}, peer{};
    socklen_t local_size = sizeof local, peer_size = sizeof peer;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &local_size) != 0) continue;
    if (::getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &peer_size) != 0) continue;
    int local_port = -1;
    if (local.ss_family == AF_INET)
      local_port = ntohs(reinterpret_cast<const sockaddr_in&>(local).sin_port);
    else if (local.ss_family == AF_INET6)
      local_port = ntohs(reinterpret_cast<const sockaddr_in6&>(local).sin6_port);
    if (local_port == port) ::shutdown(fd, SHUT_RDWR);
  }
}

void send(httplib::Response& res, const ApiReply& reply, const char* cache_control) {
  res.status = reply.status;
  res.set_content(json_output::dump(reply.body), kJson);
  res.set_header("Cache-Control", reply.status == 200 ? cache_control : "no-store");
}

}  // namespace

struct WebServer::Impl {
  explicit Impl(const ServeOptions& o)
      : options(o),
        api(o.database_dir, o.limits, o.on_probe_failure),
        workers(static_cast<size_t>(threads_or_all_cores(o.threads))),
        // Thinking runs at a lower priority than the connection threads: a table look-up
        // waits for no computer move (measured: see docs/http-api.md, "Measured load").
        compute(workers, o.queue > 0 ? static_cast<size_t>(o.queue) : 8 * workers, kComputeNice) {
    // Busy: by then the moves thinking now are done.
    retry_after = std::to_string(std::max(1, static_cast<int>(std::ceil(o.limits.move_seconds))));
    for (const WebAsset& asset : web_assets()) etags.push_back(etag_of(asset.data));
    hosts.own = {"localhost", "127.0.0.1", "[::1]", lower(host_form(o.host))};
    for (const std::string& name : o.allowed_hosts) hosts.allowed.push_back(lower(host_form(name)));
    setup();
  }

  void busy(httplib::Response& res) {
    ++busy_replies;
    res.status = 503;
    res.set_header("Retry-After", retry_after);
    res.set_header("Cache-Control", "no-store");
    res.set_content(json_output::dump(Json{{"error", "server busy"}}), kJson);
  }

  // An answer now, or work for the compute pool; the connection thread waits for that work,
  // which the time limits bound.
  void run_plan(ApiPlan plan, httplib::Response& res) {
    if (!plan.work) return send(res, plan.reply, "no-store");
    auto promise = std::make_shared<std::promise<ApiReply>>();
    std::future<ApiReply> result = promise->get_future();
    std::function<void()> job = [promise, work = std::move(plan.work)] {
      try {
        promise->set_value(work());
      } catch (...) {
        promise->set_exception(std::current_exception());
      }
    };
    if (!compute.try_post(job)) return busy(res);
    send(res, result.get(), "no-store");
  }

  void method_not_allowed(const std::string& pattern, const char* allow) {
    auto handler = [allow](const httplib::Request& req, httplib::Response& res) {
      res.status = 405;
      res.set_header("Allow", allow);
      res.set_content(json_output::dump(Json{{"error", req.method + " is not allowed on " +
                                                           req.path + " (use " + allow + ")"}}),
                      kJson);
    };
    if (std::string(allow) == "POST")
      server.Get(pattern, handler);
    else
      server.Post(pattern, handler);
  }

  void setup() {
    using httplib::Request;
    using httplib::Response;
    // The queue is made by bind(), where a system that gives no more threads is an error to
    // report; the library takes it when it starts listening.
    server.new_task_queue = [this]() -> httplib::TaskQueue* {
      if (!connection_queue) connection_queue.reset(make_connection_queue());
      return connection_queue.release();
    };
    // SO_REUSEADDR, not the library's default SO_REUSEPORT, under which a second server on the
    // same port would start and silently share its connections.
    server.set_socket_options([this](socket_t sock) {
      int yes = 1;
      ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
      listening_socket = sock;
    });
    server.set_tcp_nodelay(true);
    server.set_keep_alive_max_count(100000);
    server.set_keep_alive_timeout(std::max(1, options.keep_alive_seconds));
    server.set_read_timeout(5, 0);
    server.set_write_timeout(5, 0);
    server.set_payload_max_length(options.max_body_bytes);
    server.set_default_headers({
        {"Content-Security-Policy",
         "default-src 'self'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'; "
         "object-src 'none'"},
        {"X-Content-Type-Options", "nosniff"},
        {"Referrer-Policy", "no-referrer"},
    });

    server.set_pre_routing_handler([this](const Request& req, Response& res) {
      // The library parsed a Range header into `ranges` before this handler and applies them to
      // whatever reply follows: the request is its own (non-const) object, handed here as const.
      auto& ranges = const_cast<Request&>(req).ranges;
      if (t_shedding) {
        ranges.clear();
        busy(res);
        res.set_header("Connection", "close");
        return httplib::Server::HandlerResponse::Handled;
      }
      Refusal refusal = t_refused
                            ? Refusal{400, "the connection is closing after a refused request", ""}
                            : check_request_headers(req, hosts, options.max_body_bytes);
      if (refusal.status != 0) {
        ranges.clear();
        t_refused = true;
        res.status = refusal.status;
        res.set_content(
            json_output::dump(WebApi::error(refusal.status, refusal.message, refusal.field).body),
            kJson);
        res.set_header("Cache-Control", "no-store");
        res.set_header("Connection", "close");
        return httplib::Server::HandlerResponse::Handled;
      }
      // A Range of many parts turns a small request into a reply many times the file's size:
      // only a single range is served; for more, the whole file.
      if (ranges.size() > 1) ranges.clear();
      return httplib::Server::HandlerResponse::Unhandled;
    });
    // Statuses the library answers itself (no route, body or request line too long, a request
    // it cannot parse) get a JSON body too; answers that have one keep it.
    server.set_error_handler(
        httplib::Server::HandlerWithResponse([this](const Request& req, Response& res) {
          if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
          std::string message, field;
          switch (res.status) {
            case 404:
              message = "no such page: " + req.path;
              break;
            case 413:
              message = body_too_large(options.max_body_bytes);
              field = "body";
              break;
            case 414:
              message = "the request line is longer than 8192 bytes";
              break;
            default:
              message = "bad request (HTTP status " + std::to_string(res.status) + ")";
          }
          res.set_content(json_output::dump(WebApi::error(res.status, message, field).body), kJson);
          res.set_header("Cache-Control", "no-store");
          return httplib::Server::HandlerResponse::Handled;
        }));
    server.set_exception_handler([](const Request&, Response& res, std::exception_ptr error) {
      std::string what = "unknown error";
      try {
        std::rethrow_exception(error);
      } catch (const std::exception& e) {
        what = e.what();
      } catch (...) {
      }
      res.status = 500;
      res.set_content(json_output::dump(Json{{"error", "internal error: " + what}}), kJson);
    });
    if (options.log)
      server.set_logger([](const Request& req, const Response& res) {
        std::fprintf(stderr, "%s %s %s %d\n", req.remote_addr.c_str(), req.method.c_str(),
                     req.target.c_str(), res.status);
      });

    // Cheap requests: answered on the connection thread. Answers that depend only on the
    // request may be cached; table values only for a while (tables can be extended).
    server.Get("/api/v1/games",
               [this](const Request&, Response& res) { send(res, api.games(), "no-cache"); });
    server.Get("/api/v1/position", [this](const Request& req, Response& res) {
      send(res, api.position(params_of(req)), "public, max-age=86400");
    });
    server.Get("/api/v1/tables", [this](const Request& req, Response& res) {
      send(res, api.tables(params_of(req)), "public, max-age=3600");
    });
    server.Post("/api/v1/record", [this](const Request& req, Response& res) {
      send(res, api.write_record(req.body), "no-store");
    });
    server.Post("/api/v1/record/parse", [this](const Request& req, Response& res) {
      send(res, api.read_record(req.body), "no-store");
    });
    // Thinking: on the compute pool.
    server.Post("/api/v1/move",
                [this](const Request& req, Response& res) { run_plan(api.move(req.body), res); });
    server.Get("/api/v1/analyse", [this](const Request& req, Response& res) {
      run_plan(api.analyse(params_of(req)), res);
    });
    for (const char* path :
         {"/api/v1/games", "/api/v1/position", "/api/v1/tables", "/api/v1/analyse"})
      method_not_allowed(path, "GET");
    for (const char* path : {"/api/v1/move", "/api/v1/record", "/api/v1/record/parse"})
      method_not_allowed(path, "POST");

    // The web app, from the compiled-in files.
    server.Get("/.*", [this](const Request& req, Response& res) {
      const std::string path = req.path == "/" ? "/index.html" : req.path;
      const std::span<const WebAsset> assets = web_assets();
      for (size_t i = 0; i < assets.size(); ++i) {
        if (assets[i].path != path) continue;
        res.set_header("ETag", etags[i]);
        // Revalidated on every load, so a new binary's app is used at once.
        res.set_header("Cache-Control", "no-cache");
        if (req.get_header_value("If-None-Match") == etags[i]) {
          res.status = 304;
          return;
        }
        res.set_content(std::string(assets[i].data), std::string(assets[i].mime).c_str());
        return;
      }
      res.status = 404;
      res.set_content(json_output::dump(Json{{"error", "no such page: " + req.path}}), kJson);
    });
    const auto not_allowed = [](const Request& req, Response& res) {
      res.status = 405;
      res.set_header("Allow", "GET, HEAD, POST");
      res.set_content(json_output::dump(Json{{"error", req.method + " is not allowed"}}), kJson);
    };
    server.Put("/.*", not_allowed);
    server.Patch("/.*", not_allowed);
    server.Delete("/.*", not_allowed);
    server.Options("/.*", not_allowed);
    server.Post("/.*", [](const Request& req, Response& res) {
      res.status = 404;
      res.set_content(json_output::dump(Json{{"error", "no such page: " + req.path}}), kJson);
    });
  }

  ConnectionQueue* make_connection_queue() {
    const size_t threads = static_cast<size_t>(std::max(1, options.http_threads));
    return new ConnectionQueue(threads, 4 * threads, connections_accepted);
  }

  ServeOptions options;
  HostNames hosts;
  WebApi api;
  size_t workers;
  WorkQueue compute;
  httplib::Server server;
  std::vector<std::string> etags;  // of web_assets(), in order
  std::string retry_after;
  std::atomic<uint64_t> busy_replies{0};
  std::atomic<uint64_t> connections_accepted{0};
  std::atomic<socket_t> listening_socket{INVALID_SOCKET};
  std::unique_ptr<httplib::TaskQueue> connection_queue;  // made by bind(), taken by the library
  int port = 0;
  std::atomic<bool> run_entered{false}, run_finished{false}, stop_requested{false};
};

WebServer::WebServer(const ServeOptions& options) : impl_(std::make_unique<Impl>(options)) {}

WebServer::~WebServer() {
  stop();
  impl_->compute.shutdown();
}

Expected<int> WebServer::bind() {
  const ServeOptions& o = impl_->options;
  int port = o.port;
  if (o.port == 0)
    port = impl_->server.bind_to_any_port(o.host);
  else if (!impl_->server.bind_to_port(o.host, o.port))
    port = -1;
  if (port <= 0)
    return Error{
        fmt::format("cannot listen on {} port {}: the port is in use, or {} is not an "
                    "address of this machine",
                    o.host, o.port, o.host)};
  // The library listens with a backlog of 5; a burst of connections (a browser, a load test)
  // would have SYNs dropped and retried a second later. Listening again raises it.
  if (impl_->listening_socket != INVALID_SOCKET) ::listen(impl_->listening_socket, SOMAXCONN);
  try {
    impl_->connection_queue.reset(impl_->make_connection_queue());
  } catch (const std::system_error& e) {
    return Error{fmt::format("cannot start {} connection threads: {}", o.http_threads, e.what())};
  }
  impl_->port = port;
  return port;
}

// The library ignores stop() until its accept loop runs, so a stop() that comes first is
// remembered: run() then returns at once, or stop() waits for the loop to start.
void WebServer::run() {
  impl_->run_entered = true;
  if (!impl_->stop_requested) impl_->server.listen_after_bind();
  impl_->run_finished = true;
}

void WebServer::stop() {
  impl_->stop_requested = true;
  while (impl_->run_entered && !impl_->run_finished && !impl_->server.is_running())
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  impl_->server.stop();
  // The library's connection threads only look at the stop between requests: a client in the
  // middle of one (or one sending a byte a second) keeps its thread, and run() waits for every
  // thread. Its connection is ended, again while run() waits, since a connection accepted just
  // before the stop may start only now.
  while (impl_->run_entered && !impl_->run_finished) {
    if (impl_->port > 0) shut_down_connections(impl_->port);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

bool WebServer::running() const {
  return impl_->server.is_running();
}

const WebApi& WebServer::api() const {
  return impl_->api;
}

uint64_t WebServer::busy_replies() const {
  return impl_->busy_replies.load();
}

uint64_t WebServer::connections_accepted() const {
  return impl_->connections_accepted.load();
}

}  // namespace mancala::web
