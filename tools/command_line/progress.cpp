#include "tools/command_line/progress.h"

#include <algorithm>
#include <cstdio>

#include <fmt/core.h>

#include "tools/command_line/command_line.h"

namespace mancala::command_line {

std::string format_duration(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

std::string format_count(double count) {
  if (count >= 1e9) return fmt::format("{:.2f}G", count / 1e9);
  if (count >= 1e6) return fmt::format("{:.2f}M", count / 1e6);
  if (count >= 1e3) return fmt::format("{:.1f}k", count / 1e3);
  return fmt::format("{:.0f}", count);
}

ProgressBar::ProgressBar(bool quiet) : terminal_(stderr_is_terminal()), quiet_(quiet) {}

void ProgressBar::update(const std::string& label, uint64_t done, uint64_t total, const char* unit,
                         const std::string& note) {
  if (quiet_) return;
  const auto now = std::chrono::steady_clock::now();
  if (label != label_) {  // a new piece of work: the bar is redrawn in place, rates restart
    label_ = label;
    started_ = now;
  }
  const double elapsed = std::chrono::duration<double>(now - started_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0.0;
  const double fraction =
      total ? static_cast<double>(std::min(done, total)) / static_cast<double>(total) : 1.0;
  if (!terminal_) {
    // Plain lines for logs: one every ten seconds at most.
    if (drawn_ && now - last_draw_ < std::chrono::seconds(10)) return;
    last_draw_ = now;
    drawn_ = true;
    fmt::print(stderr, "{}: {:.1f}% ({} of {} {}, {} {}/s){}{}\n", label, 100.0 * fraction,
               format_count(static_cast<double>(done)), format_count(static_cast<double>(total)),
               unit, format_count(rate), unit, note.empty() ? "" : ", ", note);
    return;
  }
  if (drawn_ && done < total && now - last_draw_ < std::chrono::milliseconds(200)) return;
  last_draw_ = now;
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(fraction * kWidth);
  const double eta = rate > 0 ? static_cast<double>(total - std::min(done, total)) / rate : 0.0;
  fmt::print(stderr, "\r\x1b[2K{:<24} [{}{}] {:5.1f}%  {} {}/s  ETA {}{}{}", label,
             std::string(filled, '#'), std::string(kWidth - filled, '.'), 100.0 * fraction,
             format_count(rate), unit, format_duration(eta), note.empty() ? "" : "  ", note);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (drawn_ && terminal_) fmt::print(stderr, "\r\x1b[2K");  // the caller prints the summary line
  if (terminal_) drawn_ = false;
  label_.clear();
}

StatusLine::StatusLine(bool quiet)
    : terminal_(stderr_is_terminal()),
      quiet_(quiet),
      last_draw_(std::chrono::steady_clock::now()) {}

void StatusLine::show(const std::string& text) {
  if (quiet_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!terminal_) {
    if (now - last_draw_ < std::chrono::seconds(10)) return;
    last_draw_ = now;
    fmt::print(stderr, "{}\n", text);
    return;
  }
  if (drawn_ && now - last_draw_ < std::chrono::milliseconds(200)) return;
  last_draw_ = now;
  fmt::print(stderr, "\r\x1b[2K{}", text);
  std::fflush(stderr);
  drawn_ = true;
}

void StatusLine::finish() {
  if (drawn_ && terminal_) fmt::print(stderr, "\r\x1b[2K");
  drawn_ = false;
}

}  // namespace mancala::command_line
