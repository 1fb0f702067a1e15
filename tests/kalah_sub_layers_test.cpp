// Kalah layers cut by the seeds on each row (kalah_sub_layers.h), against every position of small
// layers played out by the rules engine.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <set>
#include <vector>

#include "solver/rules/moves.h"
#include "solver/tables/kalah_sub_layers.h"
#include "solver/tables/table_index.h"
#include "solver/tables/table_rules.h"

// A namespace per file: the suite is compiled in unity batches.
namespace mancala::kalah_sub_layers_test {
namespace {

SubLayer sub_layer_of(const Position& p) {
  return {p.seeds_in_houses(p.side_to_move), p.seeds_in_houses(opponent(p.side_to_move))};
}

// Every house count and both capture rules, as many seeds as keep it quick: with few houses,
// houses hold enough seeds for sowings that come round the board more than once.
constexpr std::array<int, 7> kTopSeeds{0, 30, 18, 13, 11, 12, 13};

TEST(KalahSubLayers, ThePairsOfALayerHoldEachPositionOnce) {
  for (int houses = 1; houses <= 6; ++houses) {
    const TableIndex index(2 * houses, 20);
    for (int s = 0; s <= 20; ++s) {
      std::vector<int> seen(static_cast<size_t>(s) + 1);
      uint64_t positions = 0;
      for (const SubLayer pair : kalah_pairs(s)) {
        EXPECT_EQ(pair.seeds(), s);
        EXPECT_GE(pair.mover_seeds, pair.other_seeds);
        ++seen[static_cast<size_t>(pair.mover_seeds)];
        positions += sub_layer_size(houses, pair);
        if (pair.mover_seeds != pair.other_seeds) {
          ++seen[static_cast<size_t>(pair.other_seeds)];
          positions += sub_layer_size(houses, {pair.other_seeds, pair.mover_seeds});
        }
      }
      EXPECT_EQ(seen, std::vector<int>(static_cast<size_t>(s) + 1, 1)) << houses << " " << s;
      EXPECT_EQ(positions, index.layer_size(s)) << houses << " houses, layer " << s;
    }
  }
}

TEST(KalahSubLayers, SizesCountThePositionsOfEachSubLayer) {
  for (int houses : {1, 3, 6}) {
    const TableIndex index(2 * houses, 8);
    for (int s = 0; s <= 8; ++s) {
      std::vector<uint64_t> counted(static_cast<size_t>(s) + 1);
      for (uint64_t r = 0; r < index.layer_size(s); ++r) {
        TableKey key;
        index.unrank(r, s, key.counts.data());
        ++counted[static_cast<size_t>(
            sub_layer_of(position_from_key(key.counts.data(), houses)).mover_seeds)];
      }
      for (int m = 0; m <= s; ++m)
        EXPECT_EQ(sub_layer_size(houses, {m, s - m}), counted[static_cast<size_t>(m)])
            << houses << " houses, (" << m << ", " << s - m << ")";
    }
  }
}

TEST(KalahSubLayers, RunsHoldExactlyTheRanksOfTheirSubLayer) {
  for (int houses : {1, 2, 6}) {
    const TableIndex index(2 * houses, 9);
    for (int s = 0; s <= 9; ++s) {
      // owner[r]: the mover's seeds of the sub-layer whose runs hold rank r (-1: none yet).
      std::vector<int> owner(index.layer_size(s), -1);
      for (int m = 0; m <= s; ++m) {
        uint64_t last_end = 0;
        for_each_sub_layer_run(index, {m, s - m}, [&](uint64_t begin, uint64_t size) {
          EXPECT_GE(begin, last_end) << "in rising order, apart";
          last_end = begin + size;
          for (uint64_t r = begin; r < begin + size; ++r) {
            ASSERT_LT(r, owner.size());
            EXPECT_EQ(owner[r], -1) << "rank " << r << " in two runs";
            owner[r] = m;
          }
        });
      }
      for (uint64_t r = 0; r < index.layer_size(s); ++r) {
        TableKey key;
        index.unrank(r, s, key.counts.data());
        EXPECT_EQ(owner[r], sub_layer_of(position_from_key(key.counts.data(), houses)).mover_seeds)
            << houses << " houses, layer " << s << ", rank " << r;
      }
    }
  }
}

// In sub-layer order, the runs laid end to end put every position where sub_layer_order_rank
// says, each sub-layer in one range beginning at sub_layer_offset, m rising.
TEST(KalahSubLayers, SubLayerOrderPlacesEachPositionWhereItsRowsRanksSay) {
  for (int houses : {1, 2, 3, 6}) {
    const TableIndex index(2 * houses, 10);
    for (int s = 0; s <= 10; ++s) {
      std::vector<uint64_t> place(index.layer_size(s), UINT64_MAX);  // by rank
      uint64_t next = 0;
      for_each_run_in_sub_layer_order(index, s, [&](uint64_t begin, uint64_t size) {
        for (uint64_t r = begin; r < begin + size; ++r) {
          ASSERT_LT(r, place.size());
          EXPECT_EQ(place[r], UINT64_MAX) << "rank " << r << " laid out twice";
          place[r] = next++;
        }
      });
      EXPECT_EQ(next, index.layer_size(s));
      for (uint64_t r = 0; r < index.layer_size(s); ++r) {
        TableKey key;
        index.unrank(r, s, key.counts.data());
        const SubLayer sub = sub_layer_of(position_from_key(key.counts.data(), houses));
        ASSERT_EQ(place[r], sub_layer_order_rank(index, key.counts.data()))
            << houses << " houses, layer " << s << ", rank " << r;
        const uint64_t begin = sub_layer_offset(houses, s, sub.mover_seeds);
        EXPECT_GE(place[r], begin);
        EXPECT_LT(place[r], begin + sub_layer_size(houses, sub));
      }
    }
  }
}

// The sub-layers a pair is said to read are exactly those its positions' moves lead to below the
// layer (the end of the game, layer 0, aside), and its inner moves stay in the pair.
TEST(KalahSubLayers, APairReadsExactlyTheSubLayersItsMovesLeadTo) {
  for (int houses = 1; houses <= 6; ++houses)
    for (bool empty_capture : {false, true}) {
      const Rules rules = *table_rules_for(Rules::kalah(houses, 4, empty_capture));
      const int top = kTopSeeds[static_cast<size_t>(houses)];
      const TableIndex index(2 * houses, top);
      for (int s = 1; s <= top; ++s) {
        // reached[m]: the sub-layers below that the moves of sub-layer (m, s - m) lead to.
        std::vector<std::set<SubLayer>> reached(static_cast<size_t>(s) + 1);
        for (uint64_t r = 0; r < index.layer_size(s); ++r) {
          TableKey key;
          index.unrank(r, s, key.counts.data());
          const Position p = position_from_key(key.counts.data(), houses);
          const SubLayer from = sub_layer_of(p);
          for (Move m : generate_moves(rules, p)) {
            const Position c = apply_move(rules, p, m);
            const SubLayer to = sub_layer_of(c);
            if (to.seeds() == s)
              ASSERT_EQ(to, (SubLayer{from.other_seeds, from.mover_seeds}))
                  << rules.name() << " " << to_string(p) << " move " << int(m);
            else if (to.seeds() > 0)
              reached[static_cast<size_t>(from.mover_seeds)].insert(to);
          }
        }
        for (const SubLayer pair : kalah_pairs(s)) {
          std::set<SubLayer> expected = reached[static_cast<size_t>(pair.mover_seeds)];
          expected.merge(reached[static_cast<size_t>(pair.other_seeds)]);
          const std::vector<SubLayer> reads = kalah_pair_reads(rules, pair);
          EXPECT_EQ(reads, std::vector<SubLayer>(expected.begin(), expected.end()))
              << rules.name() << " pair (" << pair.mover_seeds << ", " << pair.other_seeds << ")";
        }
      }
    }
}

// The largest working set is the pair's own positions and those it reads, added up.
TEST(KalahSubLayers, TheLargestWorkingSetIsThePairWithTheMostToHold) {
  const Rules rules = *table_rules_for(Rules::kalah(6, 4));
  for (int s : {1, 7, 16}) {
    const PairWorkingSet largest = kalah_largest_pair_working_set(rules, s);
    for (const SubLayer pair : kalah_pairs(s)) {
      uint64_t bytes = sub_layer_size(6, pair);
      if (pair.mover_seeds != pair.other_seeds)
        bytes += sub_layer_size(6, {pair.other_seeds, pair.mover_seeds});
      for (const SubLayer read : kalah_pair_reads(rules, pair)) bytes += sub_layer_size(6, read);
      EXPECT_LE(bytes, largest.bytes()) << s;
      if (pair == largest.pair) {
        EXPECT_EQ(bytes, largest.bytes()) << s;
      }
    }
  }
}

}  // namespace
}  // namespace mancala::kalah_sub_layers_test
