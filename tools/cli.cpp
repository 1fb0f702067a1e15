#include "tools/cli.h"

#include <omp.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

#include "db/table_set.h"
#include "solver/rules/moves.h"

namespace mancala::cli {

Rules require_rules(const std::string& game) {
  Expected<Rules> rules = parse_rules(game);
  if (!rules) throw UsageError(rules.error());
  return *rules;
}

Position require_position(const Rules& rules, const std::string& text) {
  if (text.empty()) return start_position(rules);
  Expected<Position> position = parse_position(rules, text);
  if (!position) throw UsageError(position.error());
  return *position;
}

std::string database_directory(const std::string& option) {
  return option.empty() ? db::default_database_directory() : option;
}

void set_thread_count(int threads) {
  if (threads < 0) throw UsageError("--threads must be at least 1");
  if (threads > 0) omp_set_num_threads(threads);
}

bool stdout_is_color_terminal() {
  return isatty(STDOUT_FILENO) && std::getenv("NO_COLOR") == nullptr;
}

bool stderr_is_terminal() {
  return isatty(STDERR_FILENO);
}

std::string format_line(const Rules& rules, const Position& from, const std::vector<Move>& moves) {
  std::string line;
  Position p = from;
  for (size_t i = 0; i < moves.size(); ++i) {
    if (!generate_moves(rules, p).contains(moves[i])) break;
    if (i > 0 && line.back() != ' ' &&
        (std::isupper(static_cast<unsigned char>(line.back())) != 0) !=
            (p.side_to_move == Side::South))
      line += ' ';  // a new turn
    line += move_letter(p.side_to_move, moves[i]);
    p = apply_move(rules, p, moves[i]);
  }
  return line;
}

}  // namespace mancala::cli
