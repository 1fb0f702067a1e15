#include "tools/http/web_server.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/core.h>
#include <microhttpd.h>

#include "solver/util/thread_count.h"
#include "tools/http/web_assets.h"
#include "tools/http/work_queue.h"

namespace mancala::http {

namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kJson = "application/json; charset=utf-8";
constexpr int kComputeNice = 10;
// Connections beyond `max_connections` that are still taken, to be answered 503; beyond these
// the library stops accepting, and connections wait in the kernel's backlog.
constexpr unsigned kSheddingConnections = 64;

// A strong validator for a compiled-in file: FNV-1a of its bytes.
std::string etag_of(std::string_view data) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (char c : data) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return fmt::format("\"{:016x}\"", h);
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// The items of a comma-separated header, trimmed, the empty ones left out.
std::vector<std::string_view> list_items(std::string_view header) {
  std::vector<std::string_view> items;
  while (!header.empty()) {
    const size_t comma = header.find(',');
    const std::string_view item = trim(header.substr(0, comma));
    if (!item.empty()) items.push_back(item);
    if (comma == std::string_view::npos) break;
    header.remove_prefix(comma + 1);
  }
  return items;
}

// The forms a web app file is sent in (Content-Encoding), in the server's order of preference
// when the client's weights tie.
enum class Coding { identity, gzip, brotli };

// The weight of a coding in Accept-Encoding, "br;q=0.5": 1 without q; none when the weight is not
// a number from 0 to 1 (the item is then ignored).
std::optional<double> weight_of(std::string_view parameters) {
  double q = 1;
  while (!parameters.empty()) {
    const size_t semicolon = parameters.find(';');
    const std::string parameter = lower(trim(parameters.substr(0, semicolon)));
    if (parameter.starts_with("q=")) {
      const std::string number = parameter.substr(2);
      if (number.empty() || number.size() > 5 ||
          number.find_first_not_of("0123456789.") != std::string::npos)
        return std::nullopt;
      q = std::strtod(number.c_str(), nullptr);
      if (q < 0 || q > 1) return std::nullopt;
    }
    if (semicolon == std::string_view::npos) break;
    parameters.remove_prefix(semicolon + 1);
  }
  return q;
}

// The form to send a file in, from the client's Accept-Encoding (RFC 9110, 12.5.3) and the forms
// the file has: the acceptable one (weight above 0) of highest weight, brotli before gzip before
// identity when they tie. No header: identity. Identity is acceptable unless refused
// ("identity;q=0", or "*;q=0" without naming it), and loses to any coding the client names; a
// client that refuses every form the file has is sent identity all the same, as the RFC allows.
Coding coding_for(const char* accept_encoding, bool has_gzip, bool has_brotli) {
  if (accept_encoding == nullptr) return Coding::identity;
  std::optional<double> brotli, gzip, identity, any;
  for (const std::string_view item : list_items(accept_encoding)) {
    const size_t semicolon = item.find(';');
    const std::string name = lower(trim(item.substr(0, semicolon)));
    const std::optional<double> q =
        weight_of(semicolon == std::string_view::npos ? "" : item.substr(semicolon + 1));
    if (!q) continue;
    if (name == "br") brotli = q;
    if (name == "gzip" || name == "x-gzip") gzip = q;
    if (name == "identity") identity = q;
    if (name == "*") any = q;
  }
  // Identity not named: below any coding named, unless "*" gives it a weight.
  constexpr double kUnnamedIdentity = 1e-6;
  Coding chosen = Coding::identity;
  double best = identity ? *identity : any.value_or(kUnnamedIdentity);
  const double gzip_weight = gzip ? *gzip : any.value_or(0);
  const double brotli_weight = brotli ? *brotli : any.value_or(0);
  if (has_gzip && gzip_weight > 0 && gzip_weight >= best) {
    chosen = Coding::gzip;
    best = gzip_weight;
  }
  if (has_brotli && brotli_weight > 0 && brotli_weight >= best) chosen = Coding::brotli;
  return chosen;
}

// Whether an If-None-Match header names `etag` (weak comparison: "W/" is not looked at) or is
// "*".
bool none_match_names(std::string_view header, std::string_view etag) {
  for (std::string_view tag : list_items(header)) {
    if (tag == "*") return true;
    if (tag.starts_with("W/")) tag.remove_prefix(2);
    if (tag == etag) return true;
  }
  return false;
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

// The numeric address and port of a socket address.
std::pair<std::string, int> address_of(const sockaddr* address) {
  char text[INET6_ADDRSTRLEN] = "";
  if (address == nullptr) return {"", 0};
  if (address->sa_family == AF_INET) {
    const auto* v4 = reinterpret_cast<const sockaddr_in*>(address);
    ::inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
    return {text, ntohs(v4->sin_port)};
  }
  if (address->sa_family == AF_INET6) {
    const auto* v6 = reinterpret_cast<const sockaddr_in6*>(address);
    ::inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
    return {text, ntohs(v6->sin6_port)};
  }
  return {"", 0};
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

// What the checks made before the body read need of a request: its method, version, headers
// (names in lower case, every one, repeated ones too) and the address it came in on.
struct RequestHead {
  std::string method;
  std::string path;  // decoded, as the library gives it
  std::string version;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string local_address;
  int local_port = 0;

  size_t count(std::string_view name) const {
    return static_cast<size_t>(std::count_if(headers.begin(), headers.end(),
                                             [&](const auto& h) { return h.first == name; }));
  }
  bool has(std::string_view name) const { return count(name) > 0; }
  // The first value of the header; empty when there is none.
  std::string value(std::string_view name) const {
    for (const auto& [key, value] : headers)
      if (key == name) return value;
    return "";
  }
};

struct Refusal {
  Refusal() = default;
  Refusal(int status_, std::string message_, std::string field_, std::string allow_ = "")
      : status(status_),
        message(std::move(message_)),
        field(std::move(field_)),
        allow(std::move(allow_)) {}

  int status = 0;  // 0: accepted
  std::string message;
  std::string field;
  std::string allow;  // a 405's Allow header
};

// The names a Host header may give (lower case, IPv6 in brackets): this server's own, with the
// port it serves, and the allowed ones (a proxy's), with any port.
struct HostNames {
  std::vector<std::string> own;
  std::vector<std::string> allowed;
};

Refusal check_host(const RequestHead& req, const HostNames& names) {
  if (!req.has("host")) {
    // HTTP/1.1 requires it; an HTTP/1.0 client may leave it out.
    if (req.version == "HTTP/1.0") return {};
    return {400, "the request has no Host header", "Host"};
  }
  if (req.count("host") > 1) return {400, "the request has more than one Host header", "Host"};
  const std::string host = lower(req.value("host"));
  // "name", "name:port", "[v6]" or "[v6]:port".
  const size_t name_end = host.starts_with("[") ? host.find(']') + 1 : host.find(':');
  const std::string name = host.substr(0, std::min(name_end, host.size()));
  const std::string_view rest = std::string_view(host).substr(name.size());
  const bool has_port = !rest.empty();
  const bool port_ok = !has_port || (rest[0] == ':' && all_digits(rest.substr(1)));
  const bool ours = std::find(names.own.begin(), names.own.end(), name) != names.own.end() ||
                    name == host_form(req.local_address);
  const bool allowed =
      std::find(names.allowed.begin(), names.allowed.end(), name) != names.allowed.end();
  const bool our_port = !has_port || rest.substr(1) == std::to_string(req.local_port);
  if (port_ok && ((ours && our_port) || allowed)) return {};
  // A name this server does not know: a page of another site reaching it through DNS
  // rebinding, or a proxy the server was not told about.
  return {421, "this server does not answer to the host '" + req.value("host") + "'", "Host"};
}

// The methods a path takes, as an Allow header lists them; none for a path of the API that does
// not exist. Every other path is a page, read with GET or HEAD.
std::optional<std::string> methods_of(std::string_view path) {
  if (!path.starts_with("/api/")) return "GET, HEAD";
  if (path == "/api/v1/games" || path == "/api/v1/position" || path == "/api/v1/tables" ||
      path == "/api/v1/analyse")
    return "GET, HEAD";
  if (path == "/api/v1/move" || path == "/api/v1/record" || path == "/api/v1/record/parse")
    return "POST";
  return std::nullopt;
}

bool takes_method(std::string_view allow, std::string_view method) {
  for (size_t at = 0; at < allow.size();) {
    const size_t end = std::min(allow.find(", ", at), allow.size());
    if (allow.substr(at, end - at) == method) return true;
    at = end + 2;
  }
  return false;
}

// A request to the API that a page of another site made the browser send (issue 40: a page
// looping no-cors fetches of /api/v1/analyse spent the server's compute, unread). Browsers say
// where a request comes from: Sec-Fetch-Site (every current browser; a page cannot set it), and
// Origin (with every POST, and with cross-origin requests; what an older browser without
// Sec-Fetch-Site sends). A request with neither is not a browser's on behalf of a page (curl,
// Python, a program), or an old browser's own navigation: answered.
Refusal check_request_site(const RequestHead& req, const HostNames& hosts) {
  if (!req.path.starts_with("/api/")) return {};
  if (req.has("sec-fetch-site")) {
    // "none": the user's own navigation (typed, a bookmark). "same-site" is another origin (a
    // port or a subdomain of the same site), refused like any other.
    const std::string site = lower(req.value("sec-fetch-site"));
    if (site == "same-origin" || site == "none") return {};
    return {403,
            "the API does not answer requests made by another site's page (Sec-Fetch-Site: " +
                req.value("sec-fetch-site") + ")",
            "Sec-Fetch-Site"};
  }
  if (!req.has("origin")) return {};
  // The server's own origin: the Host the request names, or an allowed name (a reverse proxy
  // that passes its own Host on, or sets the server's), on any port.
  const std::string origin = lower(req.value("origin"));
  const std::string host = lower(req.value("host"));
  const size_t scheme_end = origin.find("://");
  const std::string scheme = origin.substr(0, scheme_end);
  const std::string authority =
      scheme_end == std::string::npos ? "" : origin.substr(scheme_end + 3);
  const size_t name_end =
      authority.starts_with("[") ? authority.find(']') + 1 : authority.find(':');
  const std::string name = authority.substr(0, std::min(name_end, authority.size()));
  const bool ours =
      (scheme == "http" || scheme == "https") && !authority.empty() &&
      ((!host.empty() && authority == host) ||
       std::find(hosts.allowed.begin(), hosts.allowed.end(), name) != hosts.allowed.end());
  if (ours) return {};
  return {403,
          "the API does not answer requests made by another site's page (Origin: " +
              req.value("origin") + ")",
          "Origin"};
}

Refusal check_request_headers(const RequestHead& req, const HostNames& hosts,
                              size_t max_body_bytes) {
  if (req.headers.size() > kMaxHeaders)
    return {431, "more than " + std::to_string(kMaxHeaders) + " headers", ""};
  for (const auto& [name, value] : req.headers)
    if (!is_token(name)) return {400, "a header name that is not a token: '" + name + "'", ""};
  if (Refusal host = check_host(req, hosts); host.status != 0) return host;
  if (Refusal site = check_request_site(req, hosts); site.status != 0) return site;
  // The route's methods before the body's length: a method the path does not take is a 405
  // whatever length it gives (its body is not read).
  // (A path of the API that does not exist is answered 404 once the request is in.)
  const std::optional<std::string> allow = methods_of(req.path);
  if (allow && !takes_method(*allow, req.method))
    return {405, req.method + " is not allowed on " + req.path + " (use " + *allow + ")", "",
            *allow};
  const size_t lengths = req.count("content-length");
  if (req.has("transfer-encoding")) {
    if (lengths > 0)
      return {400, "a request with both Content-Length and Transfer-Encoding", "Content-Length"};
    // A chunked body's size is known only once it is read.
    return {411, "a request body must be sent with a Content-Length, not chunked",
            "Transfer-Encoding"};
  }
  if (lengths > 1) return {400, "more than one Content-Length header", "Content-Length"};
  // A body without a length would end only when the connection does.
  const bool takes_body = req.method == "POST" || req.method == "PUT" || req.method == "PATCH" ||
                          req.method == "DELETE" || req.method == "PRI";
  if (lengths == 0 && takes_body)
    return {411, "a " + req.method + " request must have a Content-Length", "Content-Length"};
  if (lengths == 1) {
    const std::string length = req.value("content-length");
    // Digits only: "16abc" read as 16 here may be read otherwise by a proxy in front.
    if (!all_digits(length) || length.size() > 19)
      return {400, "Content-Length '" + length + "' is not a number of bytes", "Content-Length"};
    if (std::stoull(length) > max_body_bytes) return {413, body_too_large(max_body_bytes), "body"};
  }
  // A small compressed body can stand for a huge one: none is accepted, so none is expanded.
  if (req.has("content-encoding"))
    return {415, "compressed request bodies are not accepted (Content-Encoding)",
            "Content-Encoding"};
  // JSON only: a form or text/plain POST is what a page of another site can send without asking.
  if (req.method == "POST" && media_type(req.value("content-type")) != "application/json")
    return {415, "a POST body must be application/json", "Content-Type"};
  return {};
}

// The one range of a "bytes=first-last" Range header (either end may be left out), within a
// file of `size` bytes; nothing for several ranges, or one that is not in the file (the whole
// file is sent then, which a server may always do).
std::optional<std::pair<size_t, size_t>> single_range(std::string_view header, size_t size) {
  if (!header.starts_with("bytes=") || size == 0) return std::nullopt;
  header.remove_prefix(6);
  const size_t dash = header.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  const std::string_view first = header.substr(0, dash), last = header.substr(dash + 1);
  if ((!first.empty() && !all_digits(first)) || (!last.empty() && !all_digits(last)) ||
      (first.empty() && last.empty()) || first.size() > 18 || last.size() > 18)
    return std::nullopt;
  if (first.empty()) {  // the last N bytes
    const size_t n = std::min<size_t>(std::stoull(std::string(last)), size);
    if (n == 0) return std::nullopt;
    return std::pair{size - n, size - 1};
  }
  const size_t from = std::stoull(std::string(first));
  const size_t to =
      last.empty() ? size - 1 : std::min<size_t>(std::stoull(std::string(last)), size - 1);
  if (from > to) return std::nullopt;
  return std::pair{from, to};
}

// A computation on the compute pool for a suspended connection. Whoever resumes the connection
// first (the computation when done, or stop()) sets `reply`; the other one leaves it alone.
struct Computation {
  std::mutex mutex;
  MHD_Connection* connection = nullptr;
  std::optional<ApiReply> reply;  // none: turned away (the queue was full, or the server stops)
  bool resumed = false;
};

// One request, from its request line to its answer (the library's per-request pointer).
struct Request {
  std::string target;  // as sent: path and query (up to a NUL byte)
  // Where the library keeps the target, in the connection's buffer (read while the headers are
  // checked, never after): see nul_in_target.
  const char* target_start = nullptr;
  std::string method;
  bool headers_checked = false;
  std::string body;
  int status = 0;  // of the answer, for the log
  std::shared_ptr<Computation> computation;
  const char* cache_control = "no-store";  // of a computation's answer
};

// Whether the request line held a NUL byte as itself in its target: the library hands the target
// over as a C string, so "GET /index.html<NUL>.js HTTP/1.1" arrives as "/index.html". It parses
// the line in place, the version after the target in the same buffer: a version that begins
// further on than one byte past the target's end (its space) means a NUL cut the target. (A
// library that copied the strings would put them elsewhere: the check then finds nothing.)
bool nul_in_target(const Request& request, const char* version) {
  if (request.target_start == nullptr || version == nullptr) return false;
  const auto after_target =
      reinterpret_cast<uintptr_t>(request.target_start) + request.target.size() + 1;
  const auto version_at = reinterpret_cast<uintptr_t>(version);
  return version_at > after_target && version_at - after_target < kConnectionMemory;
}

// What is known of an open connection (the library's per-connection pointer): its socket, the
// address it came in on, when the request now arriving began to count, and whether it has
// arrived whole (it is being answered). The connection's own thread writes `since` and
// `answering` without a lock, so that no request waits for another thread (run() reads them).
struct OpenConnection {
  int fd = -1;
  std::string local_address;
  int local_port = 0;
  std::atomic<Clock::rep> since{0};
  std::atomic<bool> answering{false};
  bool cut = false;  // by run(), under the list's lock
};

OpenConnection* open_connection_of(MHD_Connection* connection) {
  const MHD_ConnectionInfo* info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info != nullptr ? static_cast<OpenConnection*>(info->socket_context) : nullptr;
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
    // Scripts: the app's own files, and index.html's inline scripts by their hashes (they run
    // before the first paint: web_assets.h).
    content_security_policy = fmt::format(
        "default-src 'self'; script-src 'self' {}; base-uri 'self'; form-action 'self'; "
        "frame-ancestors 'self'; object-src 'none'",
        web_script_hashes());
    // One validator per form sent: a cache holding the gzip form must not take the brotli one
    // for it.
    for (const WebAsset& asset : web_assets()) {
      const std::string tag = etag_of(asset.data);
      const std::string_view bare = std::string_view(tag).substr(0, tag.size() - 1);
      etags.push_back({tag, fmt::format("{}-gzip\"", bare), fmt::format("{}-br\"", bare)});
    }
    hosts.own = {"localhost", "127.0.0.1", "[::1]", lower(host_form(o.host))};
    for (const std::string& name : o.allowed_hosts) hosts.allowed.push_back(lower(host_form(name)));
  }

  // ---- answers

  // Queues an answer with the headers every answer has; `data` is copied unless `persistent`.
  MHD_Result answer(MHD_Connection* connection, Request& request, int status, std::string_view data,
                    const std::string& content_type,
                    const std::vector<std::pair<std::string, std::string>>& headers,
                    bool persistent = false) {
    MHD_Response* response = MHD_create_response_from_buffer(
        data.size(), const_cast<char*>(data.data()),
        persistent ? MHD_RESPMEM_PERSISTENT : MHD_RESPMEM_MUST_COPY);
    if (response == nullptr) return MHD_NO;
    if (!content_type.empty())
      MHD_add_response_header(response, "Content-Type", content_type.c_str());
    MHD_add_response_header(response, "Content-Security-Policy",
                            content_security_policy.c_str());
    MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(response, "Referrer-Policy", "no-referrer");
    for (const auto& [name, value] : headers)
      MHD_add_response_header(response, name.c_str(), value.c_str());
    request.status = status;
    const MHD_Result queued =
        MHD_queue_response(connection, static_cast<unsigned>(status), response);
    MHD_destroy_response(response);
    return queued;
  }

  // 304 Not Modified: the validator and what a cache needs to keep its copy, nothing else (the
  // cache keeps the other headers of the answer it holds).
  MHD_Result not_modified(MHD_Connection* connection, Request& request,
                          const std::vector<std::pair<std::string, std::string>>& headers) {
    MHD_Response* response = MHD_create_response_from_buffer(0, nullptr, MHD_RESPMEM_PERSISTENT);
    if (response == nullptr) return MHD_NO;
    for (const auto& [name, value] : headers)
      MHD_add_response_header(response, name.c_str(), value.c_str());
    request.status = 304;
    const MHD_Result queued = MHD_queue_response(connection, 304, response);
    MHD_destroy_response(response);
    return queued;
  }

  // An answer that may be cached but is revalidated each time ("no-cache") carries a validator, so
  // that an unchanged answer costs a 304.
  MHD_Result send(MHD_Connection* connection, Request& request, const ApiReply& reply,
                  const char* cache_control) {
    const std::string body = json_output::dump(reply.body);
    if (reply.status != 200)
      return answer(connection, request, reply.status, body, kJson,
                    {{"Cache-Control", "no-store"}});
    std::vector<std::pair<std::string, std::string>> headers = {{"Cache-Control", cache_control}};
    if (std::string_view(cache_control) == "no-cache") {
      headers.emplace_back("ETag", etag_of(body));
      if (none_match_names(header(connection, "If-None-Match"), headers.back().second))
        return not_modified(connection, request, headers);
    }
    return answer(connection, request, 200, body, kJson, headers);
  }

  MHD_Result error(MHD_Connection* connection, Request& request, int status,
                   const std::string& message, const std::string& field = "",
                   std::vector<std::pair<std::string, std::string>> headers = {}) {
    headers.emplace_back("Cache-Control", "no-store");
    return answer(connection, request, status,
                  json_output::dump(WebApi::error(status, message, field).body), kJson, headers);
  }

  MHD_Result busy(MHD_Connection* connection, Request& request, bool close) {
    ++busy_replies;
    std::vector<std::pair<std::string, std::string>> headers = {{"Retry-After", retry_after},
                                                                {"Cache-Control", "no-store"}};
    if (close) headers.emplace_back("Connection", "close");
    return answer(connection, request, 503, json_output::dump(Json{{"error", "server busy"}}),
                  kJson, headers);
  }

  // ---- the request's parts

  RequestHead head_of(MHD_Connection* connection, const char* method, const char* url,
                      const char* version) {
    RequestHead head{method, url, version, {}, "", 0};
    MHD_get_connection_values_n(
        connection, MHD_HEADER_KIND,
        [](void* cls, MHD_ValueKind, const char* key, size_t key_size, const char* value,
           size_t value_size) {
          static_cast<RequestHead*>(cls)->headers.emplace_back(
              lower(std::string_view(key, key_size)),
              value == nullptr ? std::string() : std::string(value, value_size));
          return MHD_YES;
        },
        &head);
    if (const OpenConnection* open = open_connection_of(connection)) {
      head.local_address = open->local_address;
      head.local_port = open->local_port;
    }
    return head;
  }

  static Params params_of(MHD_Connection* connection) {
    Params params;
    MHD_get_connection_values_n(
        connection, MHD_GET_ARGUMENT_KIND,
        [](void* cls, MHD_ValueKind, const char* key, size_t key_size, const char* value,
           size_t value_size) {
          // The first one wins.
          static_cast<Params*>(cls)->emplace(
              std::string(key, key_size),
              value == nullptr ? std::string() : std::string(value, value_size));
          return MHD_YES;
        },
        &params);
    return params;
  }

  static std::string header(MHD_Connection* connection, const char* name) {
    const char* value = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
    return value == nullptr ? std::string() : value;
  }

  // ---- connections and their deadlines

  OpenConnection* connection_opened(MHD_Connection* connection) {
    ++connections_accepted;
    ++open_connections;
    auto open = std::make_unique<OpenConnection>();
    const MHD_ConnectionInfo* info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (info != nullptr) {
      open->fd = info->connect_fd;
      sockaddr_storage local{};
      socklen_t size = sizeof local;
      if (::getsockname(open->fd, reinterpret_cast<sockaddr*>(&local), &size) == 0)
        std::tie(open->local_address, open->local_port) =
            address_of(reinterpret_cast<const sockaddr*>(&local));
    }
    open->since = Clock::now().time_since_epoch().count();
    OpenConnection* pointer = open.get();
    std::lock_guard<std::mutex> lock(connections_mutex);
    connections.emplace(pointer, std::move(open));
    return pointer;
  }

  // Called before the library closes the socket, so run() never shuts down a socket number
  // that another connection has taken since.
  void connection_closed(OpenConnection* open) {
    --open_connections;
    std::lock_guard<std::mutex> lock(connections_mutex);
    connections.erase(open);
  }

  static void set_answering(MHD_Connection* connection, bool answering) {
    OpenConnection* open = open_connection_of(connection);
    if (open == nullptr) return;
    // The next request's time starts with the end of this one's answer.
    if (!answering) open->since = Clock::now().time_since_epoch().count();
    open->answering = answering;
  }

  // Shuts down the socket of each connection whose request is late: the library sees the
  // connection end, and closes it, on its own thread.
  void cut_late_requests() {
    const auto limit = std::chrono::seconds(std::max(1, options.request_seconds));
    const Clock::time_point now = Clock::now();
    std::lock_guard<std::mutex> lock(connections_mutex);
    for (const auto& [pointer, open] : connections) {
      if (open->answering || open->cut || open->fd < 0 ||
          now - Clock::time_point(Clock::duration(open->since.load())) < limit)
        continue;
      ::shutdown(open->fd, SHUT_RDWR);
      open->cut = true;
      ++late_requests_cut;
    }
  }

  // ---- requests

  MHD_Result handle(MHD_Connection* connection, const char* url, const char* method,
                    const char* version, const char* upload_data, size_t* upload_data_size,
                    Request& request) {
    if (!request.headers_checked) {
      request.headers_checked = true;
      request.method = method;
      // More connections than the server answers: this one is turned away, the sooner to free
      // its socket for the others.
      if (open_connections.load() > static_cast<uint64_t>(std::max(1, options.max_connections)))
        return busy(connection, request, true);
      if (request.target.size() > kMaxTargetBytes)
        return error(connection, request, 414,
                     fmt::format("the request target is longer than {} bytes", kMaxTargetBytes), "",
                     {{"Connection", "close"}});
      // The library hands over the path decoded, as a C string: "/index.html%00.js" would be
      // "/index.html". A NUL byte is in no path this server has.
      const std::string_view target_path =
          std::string_view(request.target).substr(0, request.target.find('?'));
      if (target_path.find("%00") != std::string_view::npos || nul_in_target(request, version))
        return error(connection, request, 400, "a request target with a NUL byte (%00)", "",
                     {{"Connection", "close"}});
      const Refusal refusal = check_request_headers(head_of(connection, method, url, version),
                                                    hosts, options.max_body_bytes);
      // The body is not read: the library closes the connection after this answer.
      if (refusal.status != 0) {
        std::vector<std::pair<std::string, std::string>> headers = {{"Connection", "close"}};
        if (!refusal.allow.empty()) headers.emplace_back("Allow", refusal.allow);
        return error(connection, request, refusal.status, refusal.message, refusal.field, headers);
      }
      return MHD_YES;
    }
    if (*upload_data_size > 0) {
      // Checked above: the Content-Length is at most max_body_bytes and the only length.
      const size_t room =
          options.max_body_bytes - std::min(options.max_body_bytes, request.body.size());
      request.body.append(upload_data, std::min(room, *upload_data_size));
      *upload_data_size = 0;
      return MHD_YES;
    }
    if (request.computation) {  // resumed: its reply is there
      std::optional<ApiReply> reply;
      {
        std::lock_guard<std::mutex> lock(request.computation->mutex);
        reply = std::move(request.computation->reply);
      }
      if (!reply) return busy(connection, request, false);
      return send(connection, request, *reply, request.cache_control);
    }
    set_answering(connection, true);
    return route(connection, std::string_view(url), request);
  }

  // An answer now, or work for the compute pool while the connection is suspended.
  MHD_Result run_plan(MHD_Connection* connection, Request& request, ApiPlan plan,
                      const char* cache_control = "no-store") {
    if (!plan.work) return send(connection, request, plan.reply, cache_control);
    request.cache_control = cache_control;
    auto computation = std::make_shared<Computation>();
    computation->connection = connection;
    request.computation = computation;
    {
      std::lock_guard<std::mutex> lock(computations_mutex);
      if (stopping) return busy(connection, request, true);
      computations.push_back(computation);
    }
    // The client may go while its work runs (the web board drops the analyses of positions it
    // has left). A suspended connection is not watched by the library, and its socket stays open
    // until it is resumed, so the work asks the socket itself: an orderly end of the stream, or
    // an error, means nobody will read the answer.
    const MHD_ConnectionInfo* info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    const int fd = info ? info->connect_fd : -1;
    Abandoned abandoned = [fd] {
      if (fd < 0) return false;
      char byte;
      const ssize_t n = ::recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
      return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
    };
    // Suspended before the work is queued, so that the work's resume cannot come first.
    MHD_suspend_connection(connection);
    std::function<void()> job = [this, computation, abandoned, work = std::move(plan.work)] {
      // A client gone while its job waited is not worked for: a burst of requests sent and
      // closed at once would otherwise keep the pool from the requests behind them.
      if (abandoned()) {
        ++abandoned_computations;
        finish(*computation, WebApi::error(503, "the client closed its connection"));
        return;
      }
      ApiReply reply;
      try {
        reply = work(abandoned);
      } catch (const std::exception& e) {
        reply = {500, Json{{"error", std::string("internal error: ") + e.what()}}};
      }
      if (abandoned()) ++abandoned_computations;
      finish(*computation, std::move(reply));
    };
    if (!compute.try_post(job)) finish(*computation, std::nullopt);
    return MHD_YES;
  }

  void finish(Computation& computation, std::optional<ApiReply> reply) {
    {
      std::lock_guard<std::mutex> lock(computation.mutex);
      if (computation.resumed) return;
      computation.resumed = true;
      computation.reply = std::move(reply);
      MHD_resume_connection(computation.connection);
    }
    std::lock_guard<std::mutex> lock(computations_mutex);
    std::erase_if(computations, [&](const auto& c) { return c.get() == &computation; });
  }

  // A request whose path and method passed check_request_headers (methods_of).
  MHD_Result route(MHD_Connection* connection, std::string_view path, Request& request) {
    if (path.starts_with("/api/v1/")) {
      // Cheap requests are answered on the connection thread, thinking (a move, an analysis) on
      // the compute pool (run_plan). Answers that depend only on the request may be cached;
      // table values only for a while (tables can be extended).
      const std::string_view name = path.substr(8);
      const char* cache_control = name == "games"      ? "no-cache"
                                  : name == "position" ? "public, max-age=86400"
                                  : name == "tables"   ? "public, max-age=3600"
                                                       : "no-store";
      return run_plan(connection, request, api.request(name, params_of(connection), request.body),
                      cache_control);
    }
    if (path.starts_with("/api/"))
      return error(connection, request, 404, "no such page: " + std::string(path));
    return web_app_file(connection, path, request);
  }

  // The web app, from the compiled-in files, in the form the client takes best (coding_for).
  // Revalidated on every load ("no-cache", a validator per form: 304 when unchanged), so that a
  // new binary's app is used at once while the page's modules keep their plain names. A range is
  // of the file's own bytes: asked for one, the client is sent that part of the identity form.
  MHD_Result web_app_file(MHD_Connection* connection, std::string_view url, Request& request) {
    const std::string_view path = url == "/" ? "/index.html" : url;
    const std::span<const WebAsset> assets = web_assets();
    for (size_t i = 0; i < assets.size(); ++i) {
      const WebAsset& asset = assets[i];
      if (asset.path != path) continue;
      Coding coding =
          coding_for(MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Accept-Encoding"),
                     !asset.gzip.empty(), !asset.brotli.empty());
      std::optional<std::pair<size_t, size_t>> range;
      const std::string range_header = header(connection, "Range");
      const std::string if_range = header(connection, "If-Range");
      // If-Range: the range only of the file the client holds part of (else the whole file).
      if (!range_header.empty() && (if_range.empty() || if_range == etags[i].identity))
        range = single_range(range_header, asset.data.size());
      if (range) coding = Coding::identity;
      const std::string& etag = coding == Coding::brotli ? etags[i].brotli
                                : coding == Coding::gzip ? etags[i].gzip
                                                         : etags[i].identity;
      std::vector<std::pair<std::string, std::string>> headers = {
          {"ETag", etag}, {"Cache-Control", "no-cache"}, {"Vary", "Accept-Encoding"}};
      if (none_match_names(header(connection, "If-None-Match"), etag))
        return not_modified(connection, request, headers);
      headers.emplace_back("Accept-Ranges", "bytes");
      const std::string mime(asset.mime);
      if (range) {
        headers.emplace_back("Content-Range", fmt::format("bytes {}-{}/{}", range->first,
                                                          range->second, asset.data.size()));
        return answer(connection, request, 206,
                      asset.data.substr(range->first, range->second - range->first + 1), mime,
                      headers, true);
      }
      if (coding == Coding::identity)
        return answer(connection, request, 200, asset.data, mime, headers, true);
      headers.emplace_back("Content-Encoding", coding == Coding::brotli ? "br" : "gzip");
      return answer(connection, request, 200, coding == Coding::brotli ? asset.brotli : asset.gzip,
                    mime, headers, true);
    }
    return error(connection, request, 404, "no such page: " + std::string(url));
  }

  void request_done(MHD_Connection* connection, Request* request) {
    if (request == nullptr) return;
    if (options.log && request->status != 0) {
      const MHD_ConnectionInfo* info =
          MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
      std::fprintf(stderr, "%s %s %s %d\n",
                   address_of(info != nullptr ? info->client_addr : nullptr).first.c_str(),
                   request->method.c_str(), request->target.c_str(), request->status);
    }
    set_answering(connection, false);
    delete request;
  }

  ServeOptions options;
  HostNames hosts;
  WebApi api;
  size_t workers;
  WorkQueue compute;
  // The validators of web_assets(), in order: one per form.
  struct FormTags {
    std::string identity, gzip, brotli;
  };
  std::vector<FormTags> etags;
  std::string content_security_policy;
  std::string retry_after;
  // One daemon per connection thread, each with its own epoll: run() accepts the connections
  // and deals them out in turn, so that each thread has its share (the library's own thread
  // pool lets whichever thread wakes first take a burst of them).
  std::vector<MHD_Daemon*> daemons;
  int listening = -1;
  int port = 0;

  std::atomic<uint64_t> busy_replies{0};
  std::atomic<uint64_t> connections_accepted{0};
  std::atomic<uint64_t> abandoned_computations{0};
  std::atomic<uint64_t> open_connections{0};
  std::atomic<uint64_t> late_requests_cut{0};

  std::mutex connections_mutex;
  std::unordered_map<OpenConnection*, std::unique_ptr<OpenConnection>> connections;

  std::mutex computations_mutex;
  std::vector<std::shared_ptr<Computation>> computations;  // under way, their connection suspended
  bool stopping = false;

  std::mutex run_mutex;
  std::condition_variable run_changed;
  bool run_entered = false, run_finished = false, stop_requested = false;
  std::atomic<bool> stopping_run{false};
};

namespace {

// The library's callbacks, each with the server as its first argument.

void* request_started(void* cls, const char* uri, MHD_Connection*) {
  (void)cls;
  auto* request = new Request;
  request->target = uri == nullptr ? "" : uri;
  request->target_start = uri;
  return request;
}

}  // namespace

WebServer::WebServer(const ServeOptions& options) : impl_(std::make_unique<Impl>(options)) {}

WebServer::~WebServer() {
  stop();
  impl_->compute.shutdown();
}

Expected<int> WebServer::bind() {
  const ServeOptions& o = impl_->options;
  const std::string cannot_listen = fmt::format(
      "cannot listen on {} port {}: the port is in use, or {} is not an address of this machine",
      o.host, o.port, o.host);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  if (::getaddrinfo(o.host.c_str(), std::to_string(o.port).c_str(), &hints, &found) != 0 ||
      found == nullptr)
    return Error{cannot_listen};
  int fd = -1;
  int family = AF_INET;
  for (addrinfo* a = found; a != nullptr && fd < 0; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
    if (fd < 0) continue;
    // SO_REUSEADDR, not SO_REUSEPORT, under which a second server on the same port would start
    // and silently share its connections.
    int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (::bind(fd, a->ai_addr, a->ai_addrlen) != 0 || ::listen(fd, SOMAXCONN) != 0) {
      ::close(fd);
      fd = -1;
      continue;
    }
    family = a->ai_family;
  }
  ::freeaddrinfo(found);
  if (fd < 0) return Error{cannot_listen};
  sockaddr_storage local{};
  socklen_t size = sizeof local;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &size);
  const int port = address_of(reinterpret_cast<const sockaddr*>(&local)).second;

  Impl* impl = impl_.get();
  MHD_AccessHandlerCallback on_request = [](void* cls, MHD_Connection* connection, const char* url,
                                            const char* method, const char* version,
                                            const char* upload_data, size_t* upload_data_size,
                                            void** request) -> MHD_Result {
    if (*request == nullptr) return MHD_NO;
    return static_cast<Impl*>(cls)->handle(connection, url, method, version, upload_data,
                                           upload_data_size, *static_cast<Request*>(*request));
  };
  MHD_RequestCompletedCallback on_done = [](void* cls, MHD_Connection* connection, void** request,
                                            MHD_RequestTerminationCode) {
    static_cast<Impl*>(cls)->request_done(connection, static_cast<Request*>(*request));
    *request = nullptr;
  };
  MHD_NotifyConnectionCallback on_connection =
      [](void* cls, MHD_Connection* connection, void** open, MHD_ConnectionNotificationCode code) {
        if (code == MHD_CONNECTION_NOTIFY_STARTED)
          *open = static_cast<Impl*>(cls)->connection_opened(connection);
        else
          static_cast<Impl*>(cls)->connection_closed(static_cast<OpenConnection*>(*open));
      };
  unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME |
                   MHD_USE_NO_LISTEN_SOCKET;
  if (family == AF_INET6) flags |= MHD_USE_IPv6;
  for (int i = 0; i < std::max(1, o.http_threads); ++i) {
    MHD_Daemon* daemon = MHD_start_daemon(
        flags, 0, nullptr, nullptr, on_request, impl,  //
        MHD_OPTION_CONNECTION_LIMIT,
        static_cast<unsigned>(std::max(1, o.max_connections)) + kSheddingConnections,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, kConnectionMemory,  //
        MHD_OPTION_CONNECTION_TIMEOUT, static_cast<unsigned>(std::max(1, o.keep_alive_seconds)),
        MHD_OPTION_STRICT_FOR_CLIENT, 1,                     //
        MHD_OPTION_URI_LOG_CALLBACK, request_started, impl,  //
        MHD_OPTION_NOTIFY_COMPLETED, on_done, impl,          //
        MHD_OPTION_NOTIFY_CONNECTION, on_connection, impl,   //
        MHD_OPTION_END);
    if (daemon == nullptr) {
      for (MHD_Daemon* started : impl->daemons) MHD_stop_daemon(started);
      impl->daemons.clear();
      ::close(fd);
      return Error{fmt::format(
          "cannot start {} connection threads: the system gives no more threads or files",
          std::max(1, o.http_threads))};
    }
    impl->daemons.push_back(daemon);
  }
  impl->listening = fd;
  impl->port = port;
  return port;
}

void WebServer::run() {
  Impl& impl = *impl_;
  {
    std::lock_guard<std::mutex> lock(impl.run_mutex);
    if (impl.stop_requested || impl.daemons.empty()) {
      impl.run_finished = impl.run_entered = true;
      impl.run_changed.notify_all();
      return;
    }
    impl.run_entered = true;
    impl.run_changed.notify_all();
  }
  // Beyond this many open connections, new ones wait in the system's queue.
  const uint64_t most =
      static_cast<uint64_t>(std::max(1, impl.options.max_connections)) + kSheddingConnections;
  size_t next = 0;
  Clock::time_point swept = Clock::now();
  while (!impl.stopping_run) {
    // Late requests are looked for a few times a second: a request is cut off at most a quarter
    // of a second after its time.
    if (Clock::now() - swept >= std::chrono::milliseconds(250)) {
      impl.cut_late_requests();
      swept = Clock::now();
    }
    if (impl.open_connections.load() >= most) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    pollfd listening{impl.listening, POLLIN, 0};
    if (::poll(&listening, 1, 100) <= 0) continue;
    for (int taken = 0; taken < 64; ++taken) {
      sockaddr_storage peer{};
      socklen_t size = sizeof peer;
      const int fd = ::accept4(impl.listening, reinterpret_cast<sockaddr*>(&peer), &size,
                               SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) break;
      // The library closes the socket when it cannot take it.
      MHD_add_connection(impl.daemons[next++ % impl.daemons.size()], fd,
                         reinterpret_cast<sockaddr*>(&peer), size);
    }
  }
  std::lock_guard<std::mutex> lock(impl.run_mutex);
  impl.run_finished = true;
  impl.run_changed.notify_all();
}

void WebServer::stop() {
  Impl& impl = *impl_;
  {
    std::unique_lock<std::mutex> lock(impl.run_mutex);
    impl.stop_requested = true;
    impl.stopping_run = true;
    // No connection is handed to a daemon being stopped.
    impl.run_changed.wait(lock, [&] { return !impl.run_entered || impl.run_finished; });
  }
  // Computations under way are answered 503 now; their work, when it ends, finds its
  // connection resumed and drops its reply.
  std::vector<std::shared_ptr<Computation>> under_way;
  {
    std::lock_guard<std::mutex> lock(impl.computations_mutex);
    impl.stopping = true;
    under_way.swap(impl.computations);
  }
  for (const auto& computation : under_way) {
    std::lock_guard<std::mutex> lock(computation->mutex);
    if (computation->resumed) continue;
    computation->resumed = true;
    computation->reply.reset();
    MHD_resume_connection(computation->connection);
  }
  // Closes every connection, a client halfway through its request too, and joins the
  // connection threads.
  for (MHD_Daemon* daemon : impl.daemons) MHD_stop_daemon(daemon);
  impl.daemons.clear();
  if (impl.listening >= 0) ::close(impl.listening);
  impl.listening = -1;
}

bool WebServer::running() const {
  std::lock_guard<std::mutex> lock(impl_->run_mutex);
  return impl_->run_entered && !impl_->run_finished;
}

const WebApi& WebServer::api() const {
  return impl_->api;
}

uint64_t WebServer::busy_replies() const {
  return impl_->busy_replies.load();
}

uint64_t WebServer::abandoned_computations() const {
  return impl_->abandoned_computations.load();
}

uint64_t WebServer::connections_accepted() const {
  return impl_->connections_accepted.load();
}

uint64_t WebServer::late_requests_cut() const {
  return impl_->late_requests_cut.load();
}

}  // namespace mancala::http
