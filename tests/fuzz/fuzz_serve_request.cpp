// Fuzz target: the HTTP server's request handling (`mancala serve`, tools/http/web_server.h), fed
// raw request bytes. The server runs in this process on an ephemeral 127.0.0.1 port, started once
// with small limits (no tables, searches of a few milliseconds); each input is written to a fresh
// connection whose sending side is then closed, and the replies are read back with a short
// timeout. Every reply must be an HTTP/1.1 status line, and the server must still answer a plain
// request afterwards (checked every 256 inputs, where a crash, a leak or a hang would show first).
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>

#include "tools/http/web_server.h"

namespace {

using mancala::http::ServeOptions;
using mancala::http::WebServer;

// Writes `request` on a new connection to the server and returns what comes back before the
// server closes it, or before a read has waited `timeout_ms` for a byte.
std::string exchange(int port, std::string_view request, int timeout_ms) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) std::abort();
  const timeval timeout{0, timeout_ms * 1000};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string reply;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) {
    while (!request.empty()) {
      const ssize_t n = ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
      if (n <= 0) break;  // the server refused the rest and closed
      request.remove_prefix(static_cast<size_t>(n));
    }
    ::shutdown(fd, SHUT_WR);
    char buffer[16384];
    ssize_t n;
    while (reply.size() < (1u << 20) && (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0)
      reply.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return reply;
}

bool is_status_line(std::string_view reply) {
  return reply.size() >= 12 && reply.starts_with("HTTP/1.1 ") &&
         std::isdigit(static_cast<unsigned char>(reply[9])) &&
         std::isdigit(static_cast<unsigned char>(reply[10])) &&
         std::isdigit(static_cast<unsigned char>(reply[11]));
}

// The server, started on the first input and left running until the process ends.
int server_port() {
  static const int port = [] {
    ServeOptions o;
    o.host = "127.0.0.1";
    o.port = 0;
    o.database_dir = "/nonexistent/mancala-fuzz-db";  // no tables: every answer is computed
    o.threads = 1;
    o.queue = 2;
    o.http_threads = 2;
    o.limits.move_seconds = 0.01;
    o.limits.analyse_seconds = 0.01;
    o.request_seconds = 1;
    o.keep_alive_seconds = 1;
    auto* server = new WebServer(o);
    const auto bound = server->bind();
    if (!bound.ok()) std::abort();
    std::thread([server] { server->run(); }).detach();
    while (!server->running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return *bound;
  }();
  return port;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const int port = server_port();
  const std::string reply =
      exchange(port, std::string_view(reinterpret_cast<const char*>(data), size), 200);
  // Nothing, when the server closed the connection without answering (an incomplete request,
  // a request line or headers too large for its buffer).
  if (!reply.empty() && !is_status_line(reply)) std::abort();
  static unsigned inputs = 0;
  if (++inputs % 256 == 0) {
    const std::string games = exchange(
        port, "GET /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 5000);
    if (!games.starts_with("HTTP/1.1 200")) std::abort();
  }
  return 0;
}
