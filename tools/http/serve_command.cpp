// mancala serve [--host H] [--port P] [--db DIR] [--threads N] ...: the web board and the JSON API.
#include <pthread.h>
#include <signal.h>

#include <cstdint>
#include <memory>
#include <string>
#include <system_error>
#include <thread>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "tools/command_line/command_line.h"
#include "tools/command_line/endgame_tables.h"
#include "tools/http/serve_command.h"
#include "tools/http/web_server.h"

namespace mancala::http {

using namespace command_line;  // the helpers every command line shares

namespace {

std::string url_of(const std::string& host, int port) {
  // An IPv6 address is written in brackets; a wildcard address is reached through loopback.
  if (host == "0.0.0.0" || host.empty()) return fmt::format("http://127.0.0.1:{}/", port);
  if (host == "::") return fmt::format("http://[::1]:{}/", port);
  if (host.find(':') != std::string::npos) return fmt::format("http://[{}]:{}/", host, port);
  return fmt::format("http://{}:{}/", host, port);
}

// The most connection threads, connections, waiting computations, body bytes and seconds the
// options accept: far beyond what one machine serves, short of exhausting it.
constexpr int kMaxHttpThreads = 4096;
constexpr int kMaxConnections = 100000;
constexpr int kMaxRequestSeconds = 3600;
constexpr int kMaxQueue = 1000000;
constexpr uint64_t kMaxBodyBytes = 64u << 20;

// A host name or address: not empty.
CLI::Validator host_name() {
  return CLI::Validator(
      [](std::string& text) { return text.empty() ? std::string("an empty host") : ""; }, "");
}

void run_serve(http::ServeOptions options) {
  // Every option was checked by its validator (tools/command_line/command_line.h). Table failures
  // are reported at once, once per game, on standard error.
  options.on_probe_failure =
      warn_on_probe_failure("computer moves and analyses search those positions instead");

  // Ctrl-C and SIGTERM stop the server cleanly: the signals are blocked in every thread (the
  // server's threads inherit the mask) and taken by one thread that asks the server to stop.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  // The compute threads start with the server: a system that gives no more threads is a failure
  // to report, not an exception that ends the process.
  std::unique_ptr<http::WebServer> started;
  try {
    started = std::make_unique<http::WebServer>(options);
  } catch (const std::system_error& e) {
    throw Failure(fmt::format("cannot start the server's threads: {}", e.what()));
  }
  http::WebServer& server = *started;
  for (const std::string& warning : server.api().table_warnings()) warn(warning);
  const Expected<int> port = server.bind();
  if (!port) throw Failure(port.error());
  std::string tables;
  for (const auto& t : server.api().tables_found())
    tables += fmt::format("{}{} up to {} seeds", tables.empty() ? "" : ", ",
                          t["table"].get<std::string>(), t["max_seeds"].get<int>());
  fmt::print("mancala serve: the web board is at {}\n", url_of(options.host, *port));
  fmt::print("endgame tables: {}\n", tables.empty() ? "none (mancala db build kalah)" : tables);
  fmt::print("stop with Ctrl-C\n");
  std::fflush(stdout);

  std::thread signals;
  try {
    signals = std::thread([&] {
      int signal = 0;
      sigwait(&stop_signals, &signal);
      server.stop();
    });
  } catch (const std::system_error& e) {
    throw Failure(fmt::format("cannot start the server's threads: {}", e.what()));
  }
  server.run();
  // Stopped some other way than by a signal: wake the signal thread.
  pthread_kill(signals.native_handle(), SIGTERM);
  signals.join();
}

}  // namespace

void add_serve_command(CLI::App& app) {
  auto o = std::make_shared<http::ServeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "serve", "The web board and the JSON API (perfect moves from the endgame tables) over HTTP");
  cmd->add_option("--host", o->host,
                  "Address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 for all)")
      ->check(host_name());
  cmd->add_option("--port,-p", o->port, "Port (default 8080; 0 picks a free one)")
      ->check(integer_in(0, 65535));
  cmd->add_option("--db", o->database_dir,
                  "Endgame table directory (default $MANCALA_DB or ~/.local/share/mancala/db)")
      ->check(path_name());
  cmd->add_option("--threads,-t", o->threads,
                  "Threads for computer moves and analyses (default: one per core)")
      ->check(thread_count());
  cmd->add_option("--queue", o->queue,
                  "Computer moves and analyses that may wait for a thread; beyond, 503 (default "
                  "8 per thread)")
      ->check(integer_in(1, kMaxQueue));
  cmd->add_option("--http-threads", o->http_threads,
                  "Threads answering connections, each waiting on many at once; table look-ups "
                  "and other quick requests are answered on them (default 4)")
      ->check(integer_in(1, kMaxHttpThreads));
  cmd->add_option("--max-connections", o->max_connections,
                  "Open connections answered; a request beyond gets 503 and its connection is "
                  "closed (default 512; the open-file limit must allow as many)")
      ->check(integer_in(1, kMaxConnections));
  cmd->add_option("--request-seconds", o->request_seconds,
                  "Longest a request may take to arrive whole (request line, headers, body), "
                  "counted from the connection's opening or the previous answer; a slower client "
                  "is disconnected (default 10)")
      ->check(integer_in(1, kMaxRequestSeconds));
  cmd->add_option("--move-seconds", o->limits.move_seconds,
                  "Longest a computer move may think, level 6 included (default 2)")
      ->check(positive_seconds());
  cmd->add_option("--analyse-seconds", o->limits.analyse_seconds,
                  "Longest an analysis may take (default 5)")
      ->check(positive_seconds());
  cmd->add_option("--max-body", o->max_body_bytes,
                  "Largest request body in bytes; larger ones get 413 (default 65536)")
      ->check(unsigned_in(1024, kMaxBodyBytes));
  cmd->add_option("--allowed-host", o->allowed_hosts,
                  "A host name (without a port) the server also answers to in the Host header, on "
                  "any port, e.g. the name a reverse proxy forwards; repeatable (default: its own "
                  "addresses and localhost)")
      ->check(host_name());
  cmd->add_flag("--log", o->log, "Print one line per request on standard error");
  set_command(cmd, [o] { run_serve(*o); });
}

}  // namespace mancala::http
