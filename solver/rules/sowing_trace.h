// A move replayed seed by seed: every sowing of it (a Congkak relay is several), the slot each
// seed falls in, then the captures and the end of the game. For drawing a move (the web board
// animates it) and as an independent check of the rules engine: `trace_move` follows the rule
// book step by step on a plain array and shares no code with moves.h, so the property test that
// compares the two checks both. Slow and simple; never on a search path.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/rules/position.h"
#include "solver/rules/rules.h"

namespace mancala {

// Slots are Position::slots indices (position.h): South's houses 0..h-1, South's store h,
// North's houses h+1..2h, North's store 2h+1.
struct Sowing {
  int from = 0;            // the slot emptied
  int seeds = 0;           // how many seeds were picked up there
  std::vector<int> slots;  // where each seed fell, in order (seeds entries)
};

struct MoveTrace {
  std::vector<Sowing> sowings;  // in order; more than one only for a Congkak relay
  int last_slot = -1;           // where the last seed of the last sowing fell
  int captured = 0;             // seeds captures moved to the mover's store
  uint32_t captured_slots = 0;  // bit s: slot s was emptied by a capture (after the sowings)
  bool extra_turn = false;      // the mover moves again (never when the game ended)
  bool grand_slam = false;      // Oware: the capture would take every seed of the opponent
  bool game_over = false;       // the game ended by the rules (not by repetition, see Game)
  bool endless = false;         // Congkak: the relay guard stopped the sowing (never, by the rules)
  Position after;               // the position after the move, settled as apply_move settles it
};

// Replays a legal move of the side to move in `before`.
MoveTrace trace_move(const Rules& rules, const Position& before, Move move);

}  // namespace mancala
