// The search's guess at the horizon: what the side to move will still gain, beyond the stores,
// from how the seeds lie on the board. Scores inside the search are in units of 1/16 seed, so
// that a guess can be finer than a seed while every proven score stays a whole number of seeds
// (a multiple of kUnitsPerSeed).
//
// Oware has an evaluation of its own: the store difference alone misjudges a board where one
// side's houses hold 1 or 2 seeds (the other captures them next), runs out of moves, or keeps a
// house big enough to sow round the whole board. Its features are counted for each side and
// taken mover minus opponent; the weights were fitted to the exact values of the endgame tables
// and to deep searches of middle-game positions (scripts/fit-evaluation.py makes them again;
// docs/levels.md gives the figures). Kalah and Congkak keep the store difference: the measured
// alternatives (seeds on each row) played no better there.
#pragma once

#include <array>
#include <cstdint>

#include "solver/rules/position.h"
#include "solver/rules/rules.h"

namespace mancala {

inline constexpr int kUnitsPerSeed = 16;

// A score in units as whole seeds, rounded to the nearest, halves away from zero (a proven score
// is a whole number of seeds already).
inline constexpr int seeds_from_units(int units) {
  return units >= 0 ? (units + kUnitsPerSeed / 2) / kUnitsPerSeed
                    : -((-units + kUnitsPerSeed / 2) / kUnitsPerSeed);
}

// The features of one side's row, in the order of OwareWeights::per_side.
enum OwareFeature : int {
  kEmptyHouses,       // houses with no seed: fewer moves, and starving closer
  kCapturableHouses,  // houses of 1 or 2 seeds: the opponent's last seed there captures
  kLoadedHouses,      // houses of 12 seeds or more: a sowing that laps the whole board
  kSeedsOnRow,        // seeds on the side's row
  kOwareFeatureCount
};

using OwareFeatures = std::array<int, kOwareFeatureCount>;

// One side's features, counted from its row.
inline OwareFeatures oware_features(const Position& p, Side side) {
  OwareFeatures f{};
  const int base = p.first_house(side);
  for (int i = 0; i < p.houses; ++i) {
    const int seeds = p.slots[static_cast<size_t>(base + i)];
    f[kEmptyHouses] += seeds == 0;
    f[kCapturableHouses] += seeds == 1 || seeds == 2;
    f[kLoadedHouses] += seeds >= 12;
    f[kSeedsOnRow] += seeds;
  }
  return f;
}

// Weights in units of 1/16 seed for each feature (mover's count minus the opponent's), and a
// constant for having the move.
struct OwareWeights {
  std::array<int, kOwareFeatureCount> per_side{};
  int to_move = 0;
};

// The fitted weights (docs/levels.md, "Pro's evaluation").
inline constexpr OwareWeights kOwareWeights{{-36, -11, 26, -1}, -1};

// The guess, in units: positive when the side to move is better off than the stores say.
inline int oware_evaluation(const Position& p, const OwareWeights& w = kOwareWeights) {
  const OwareFeatures mine = oware_features(p, p.side_to_move);
  const OwareFeatures theirs = oware_features(p, opponent(p.side_to_move));
  int units = w.to_move;
  for (int i = 0; i < kOwareFeatureCount; ++i)
    units += w.per_side[static_cast<size_t>(i)] *
             (mine[static_cast<size_t>(i)] - theirs[static_cast<size_t>(i)]);
  return units;
}

}  // namespace mancala
