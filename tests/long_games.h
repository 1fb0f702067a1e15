// Long legal games for the tests of what long games cost: an Oware game of many moves without a
// capture, no position in it coming a third time (so the repetition rule never ends it).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "solver/rules/moves.h"
#include "solver/rules/position.h"
#include "solver/rules/rules.h"
#include "solver/util/random.h"

namespace mancala::testing_helpers {

// The letters of a legal Oware (abapa, 4 seeds) game of `moves` moves from the start, without a
// capture and without a position seen three times, drawn at random from `seed`: a depth-first
// walk that takes back its moves out of dead ends (where every move captures, or repeats a
// position a third time). Fewer letters only if the walk runs out of steps. Played with
// apply_move alone, so that what it costs is not what the tests measure.
inline std::string oware_game_without_captures(int moves, uint64_t seed) {
  const Rules rules = Rules::oware();
  struct Step {
    Position position;
    MoveList untried;  // in a random order
  };
  Random random(seed);
  const auto step_from = [&](const Position& p) {
    MoveList legal = generate_moves(rules, p);
    MoveList shuffled;
    while (!legal.empty()) {
      const int k = static_cast<int>(random.below(static_cast<uint32_t>(legal.size())));
      shuffled.push(legal[k]);
      legal.moves[static_cast<size_t>(k)] = legal[legal.size() - 1];
      --legal.count;
    }
    return Step{p, shuffled};
  };
  std::unordered_map<std::string, int> on_path;
  std::vector<Step> path{step_from(start_position(rules))};
  std::string letters;
  ++on_path[to_string(path.back().position)];
  for (uint64_t steps = 0; static_cast<int>(letters.size()) < moves && !path.empty() &&
                           steps < 100 * static_cast<uint64_t>(moves);
       ++steps) {
    Step& top = path.back();
    if (top.untried.empty()) {  // a dead end: the move into it is taken back
      --on_path[to_string(top.position)];
      path.pop_back();
      if (!letters.empty()) letters.pop_back();
      continue;
    }
    const Move move = top.untried[top.untried.size() - 1];
    --top.untried.count;
    const Position next = apply_move(rules, top.position, move);
    if (next.store(Side::South) != 0 || next.store(Side::North) != 0 ||
        generate_moves(rules, next).empty())
      continue;
    int& seen = on_path[to_string(next)];
    if (seen == 2) continue;
    ++seen;
    letters += move_letter(top.position.side_to_move, move);
    path.push_back(step_from(next));
  }
  return letters;
}

}  // namespace mancala::testing_helpers
