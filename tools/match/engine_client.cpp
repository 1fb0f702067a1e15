#include "tools/match/engine_client.h"

#include <sstream>

#include "solver/util/stopwatch.h"

namespace mancala::match {

namespace {

constexpr size_t kRecentLines = 8;

std::string first_word(const std::string& line, std::string* rest = nullptr) {
  std::istringstream words(line);
  std::string word;
  words >> word;
  if (rest) {
    std::getline(words, *rest);
    const size_t start = rest->find_first_not_of(' ');
    *rest = start == std::string::npos ? "" : rest->substr(start);
  }
  return word;
}

}  // namespace

const char* fault_name(EngineFault fault) {
  switch (fault) {
    case EngineFault::None:
      return "none";
    case EngineFault::Crashed:
      return "crash";
    case EngineFault::Timeout:
      return "timeout";
    case EngineFault::ProtocolError:
      return "protocol error";
    case EngineFault::Cancelled:
      return "cancelled";
  }
  return "?";
}

Expected<std::unique_ptr<EngineClient>> EngineClient::start(const EngineSpec& spec,
                                                            std::chrono::milliseconds startup,
                                                            const std::atomic<bool>* cancel) {
  Expected<std::unique_ptr<EngineProcess>> process = EngineProcess::start(spec.command);
  if (!process) return Error{process.error()};
  std::unique_ptr<EngineClient> client(new EngineClient());
  client->process_ = std::move(process.value());
  client->name_ = spec.command;
  client->cancel_ = cancel;
  const SteadyClock::time_point begin = SteadyClock::now(), deadline = begin + startup;
  auto failed = [&](const EngineAnswer& answer, const std::string& asked) {
    std::string message =
        "engine '" + spec.command + "' did not answer " + asked + ": " +
        (answer.problem.empty() ? std::string(fault_name(answer.fault)) : answer.problem);
    const std::string recent = client->recent_output();
    if (!recent.empty()) message += "; its last output: " + recent;
    return Error{message};
  };
  client->process_->send("uci");
  EngineAnswer uciok = client->wait_for("uciok", deadline, begin);
  if (uciok.fault != EngineFault::None) return failed(uciok, "uci");
  for (const std::string& line : client->recent_) {
    std::string rest;
    if (first_word(line, &rest) == "id" && first_word(rest, &rest) == "name" && !rest.empty())
      client->name_ = rest;
  }
  for (const auto& [name, value] : spec.options)
    client->process_->send("setoption name " + name + " value " + value);
  client->process_->send("isready");
  EngineAnswer ready = client->wait_for("readyok", deadline, begin);
  if (ready.fault != EngineFault::None) return failed(ready, "isready");
  return client;
}

EngineClient::~EngineClient() {
  if (process_) process_->stop(std::chrono::milliseconds(1000));
}

EngineAnswer EngineClient::wait_for(const std::string& word, SteadyClock::time_point deadline,
                                    SteadyClock::time_point start) {
  EngineAnswer answer;
  std::string line;
  while (true) {
    const EngineProcess::Read read = process_->read_line(line, deadline, cancel_);
    answer.seconds = seconds_since(start);
    if (read == EngineProcess::Read::Timeout) {
      answer.fault = EngineFault::Timeout;
      answer.problem =
          "no " + word + " after " + std::to_string(answer.seconds).substr(0, 5) + " s";
      return answer;
    }
    if (read == EngineProcess::Read::Closed) {
      answer.fault = EngineFault::Crashed;
      answer.problem = "it exited (its output closed) before " + word;
      return answer;
    }
    if (read == EngineProcess::Read::Cancelled) {
      answer.fault = EngineFault::Cancelled;
      return answer;
    }
    recent_.push_back(line);
    if (recent_.size() > kRecentLines) recent_.pop_front();
    std::string rest;
    if (first_word(line, &rest) == word) {
      answer.line = line;
      answer.word = first_word(rest);
      return answer;
    }
  }
}

EngineAnswer EngineClient::new_game(std::chrono::milliseconds timeout) {
  const SteadyClock::time_point begin = SteadyClock::now();
  process_->send("ucinewgame");
  process_->send("isready");
  return wait_for("readyok", begin + timeout, begin);
}

EngineAnswer EngineClient::think(const std::string& position_command, const std::string& go_words,
                                 SteadyClock::time_point deadline) {
  const SteadyClock::time_point begin = SteadyClock::now();
  process_->send(position_command);
  process_->send("go " + go_words);
  EngineAnswer answer = wait_for("bestmove", deadline, begin);
  if (answer.fault == EngineFault::None && answer.word.empty()) {
    answer.fault = EngineFault::ProtocolError;
    answer.problem = "a bestmove without a move";
  }
  return answer;
}

void EngineClient::stop(std::chrono::milliseconds grace) {
  process_->stop(grace);
}

std::string EngineClient::recent_output() const {
  std::string out;
  for (const std::string& line : recent_) {
    if (!out.empty()) out += " | ";
    out += line;
  }
  return out;
}

}  // namespace mancala::match
