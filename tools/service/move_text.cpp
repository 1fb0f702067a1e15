#include "tools/service/move_text.h"

#include <cctype>

#include "solver/rules/moves.h"

namespace mancala::service {

namespace {

std::vector<std::string> letters_of(Side mover, const MoveList& moves) {
  std::vector<std::string> out;
  for (Move m : moves) out.emplace_back(1, move_letter(mover, m));
  return out;
}

std::string moves_text(Side mover, const MoveList& moves) {
  std::string out;
  for (const std::string& letter : letters_of(mover, moves))
    out += (out.empty() ? "" : " ") + letter;
  return out.empty() ? "none: the game is over" : out;
}

}  // namespace

std::vector<std::string> legal_move_letters(const Rules& rules, const Position& p) {
  return letters_of(p.side_to_move, generate_moves(rules, p));
}

std::vector<std::string> legal_move_letters(const Game& game) {
  return letters_of(game.position().side_to_move, game.legal_moves());
}

std::string legal_moves_text(const Rules& rules, const Position& p) {
  return moves_text(p.side_to_move, generate_moves(rules, p));
}

std::string legal_moves_text(const Game& game) {
  return moves_text(game.position().side_to_move, game.legal_moves());
}

std::vector<std::string> line_letters(const Rules& rules, const Position& from,
                                      const std::vector<Move>& line) {
  std::vector<std::string> out;
  Position p = from;
  for (Move m : line) {
    if (!generate_moves(rules, p).contains(m)) break;
    out.emplace_back(1, move_letter(p.side_to_move, m));
    p = apply_move(rules, p, m);
  }
  return out;
}

std::string line_word(const Rules& rules, const Position& from, const std::vector<Move>& line) {
  std::string out;
  for (const std::string& letter : line_letters(rules, from, line)) out += letter;
  return out;
}

std::string line_by_turns(const Rules& rules, const Position& from, const std::vector<Move>& line) {
  std::string out;
  for (const std::string& letter : line_letters(rules, from, line)) {
    // South's letters are capitals: a change of case is a new turn.
    if (!out.empty() && (std::isupper(static_cast<unsigned char>(out.back())) != 0) !=
                            (std::isupper(static_cast<unsigned char>(letter[0])) != 0))
      out += ' ';
    out += letter;
  }
  return out;
}

Replay replay_moves(const Rules& rules, const Position& start, std::string_view letters,
                    int max_moves) {
  Replay r{Game(rules, start), {}, ReplayProblem::None, ""};
  int number = 0;
  for (char c : letters) {
    if (c == ' ' || c == ',') continue;
    const std::string letter(1, c);
    const std::string named = "move " + std::to_string(number + 1) + " '" + letter + "'";
    if (!std::isalpha(static_cast<unsigned char>(c))) {
      r.problem = ReplayProblem::NotALetter;
      r.message =
          "'" + letter + "' is not a move letter (moves are letters such as CFbe or C,F,b,e)";
      return r;
    }
    if (++number > max_moves) {
      r.problem = ReplayProblem::TooManyMoves;
      r.message = "more than " + std::to_string(max_moves) + " moves";
      return r;
    }
    const Position now = r.game.position();
    if (r.game.is_over()) {
      r.problem = ReplayProblem::GameOver;
      r.message = named + ": the game is already over in " + to_string(now);
      return r;
    }
    Expected<Move> move = parse_move_letter(now, letter);
    if (!move || !r.game.play(*move)) {
      r.problem = ReplayProblem::Illegal;
      r.message = named + " is illegal in " + to_string(now) +
                  (move ? "" : " (" + move.error() + ")") +
                  "; legal moves: " + legal_moves_text(r.game);
      return r;
    }
    r.before.push_back(now);
  }
  return r;
}

}  // namespace mancala::service
