// Progress reports for long work: a redrawn bar on a terminal, plain lines otherwise. Written to
// standard error so that standard output stays clean for results and --json.
#pragma once

#include <chrono>
#include <string>

namespace mancala::command_line {

class ProgressBar {
 public:
  explicit ProgressBar(bool quiet = false);
  // `label` names the work ("layer 12 exits"); `unit` what is counted ("positions"); `note`, when
  // not empty, is shown after the figures ("3.1M messages").
  void update(const std::string& label, uint64_t done, uint64_t total, const char* unit,
              const std::string& note = "");
  // Ends the current bar's line.
  void finish();

 private:
  bool terminal_;
  bool quiet_;
  std::string label_;
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point last_draw_;
  bool drawn_ = false;
};

// A one-line status for work of unknown length (a solve narrowing its bounds): redrawn in place
// on a terminal; otherwise a plain line every ten seconds, the first after ten seconds.
class StatusLine {
 public:
  explicit StatusLine(bool quiet = false);
  void show(const std::string& text);
  void finish();

 private:
  bool terminal_;
  bool quiet_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_draw_;
};

std::string format_duration(double seconds);
std::string format_count(double count);  // 1.2k, 3.4M, 5.6G

}  // namespace mancala::command_line
