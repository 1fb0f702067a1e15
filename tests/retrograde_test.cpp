// The retrograde builder against a plain exhaustive solver written independently of it: no
// un-moves, no counters, just every position's moves and fixpoints recomputed until stable.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

#include "solver/rules/moves.h"
#include "solver/tables/kalah_sub_layers.h"
#include "solver/tables/retrograde.h"
#include "solver/tables/retrograde_kalah.h"

// A namespace per file: the suite is compiled in unity batches.
namespace mancala::retrograde_test {
namespace {

using Key = std::string;  // the key's counts as bytes (a string compares cleanly under GCC 12)

void enumerate(int slots, int seeds, Key& key, int at, std::vector<Key>& out) {
  if (at == slots - 1) {
    key[at] = static_cast<char>(seeds);
    out.push_back(key);
    return;
  }
  for (int x = 0; x <= seeds; ++x) {
    key[at] = static_cast<char>(x);
    enumerate(slots, seeds - x, key, at + 1, out);
  }
}

Key key_of(const Position& p) {
  const TableKey k = table_key(p);
  return Key(k.counts.begin(), k.counts.begin() + 2 * p.houses);
}

// Values of every position with up to `max_seeds` seeds, by the definition: for each level t,
// "worth at least t" and "worth at most -t" are grown until nothing changes.
std::map<Key, int> reference_values(const Rules& game, int max_seeds) {
  const Rules rules = *table_rules_for(game);
  const int h = rules.houses;
  std::map<Key, int> value;
  for (int s = 0; s <= max_seeds; ++s) {
    std::vector<Key> keys;
    Key scratch(static_cast<size_t>(2 * h), '\0');
    enumerate(2 * h, s, scratch, 0, keys);
    struct Node {
      int best_exit = -1000;  // -1000: no move leaves the layer
      std::vector<size_t> inner;
    };
    std::map<Key, size_t> id;
    for (size_t i = 0; i < keys.size(); ++i) id[keys[i]] = i;
    std::vector<Node> nodes(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) {
      const Position p = position_from_key(reinterpret_cast<const uint8_t*>(keys[i].data()), h);
      const MoveList moves = generate_moves(rules, p);
      if (moves.empty()) nodes[i].best_exit = final_outcome(rules, p).difference();
      for (Move m : moves) {
        const Position c = apply_move(rules, p, m);
        const int left = c.seeds_in_houses(Side::South) + c.seeds_in_houses(Side::North);
        if (left == s) {
          nodes[i].inner.push_back(id.at(key_of(c)));
          continue;
        }
        const int gain = c.store(Side::South) - c.store(Side::North);  // South moved
        const int v = value.at(key_of(c));
        nodes[i].best_exit =
            std::max(nodes[i].best_exit, gain + (c.side_to_move == Side::South ? v : -v));
      }
    }
    std::vector<int> result(keys.size(), 0);
    for (int t = s; t >= 1; --t) {
      bool changed = true;
      while (changed) {
        changed = false;
        for (size_t i = 0; i < keys.size(); ++i) {
          if (result[i] != 0) continue;
          const Node& n = nodes[i];
          bool won = n.best_exit >= t;
          for (size_t c : n.inner) won = won || result[c] <= -t;
          bool lost = n.best_exit <= -t;  // includes "no exit"
          for (size_t c : n.inner) lost = lost && result[c] >= t;
          if (won)
            result[i] = t;
          else if (lost)
            result[i] = -t;
          changed = changed || won || lost;
        }
      }
    }
    for (size_t i = 0; i < keys.size(); ++i) value[keys[i]] = result[i];
  }
  return value;
}

std::vector<int8_t> as_vector(std::span<const int8_t> values) {
  return {values.begin(), values.end()};
}

void expect_builder_matches_reference(const char* game, int max_seeds) {
  const Rules rules = *parse_rules(game);
  const std::map<Key, int> reference = reference_values(rules, max_seeds);
  RetrogradeBuilder builder(rules, max_seeds);
  for (int s = 0; s <= max_seeds; ++s) {
    const std::span<const int8_t> values = builder.build_layer(s);
    ASSERT_EQ(values.size(), builder.index().layer_size(s));
    for (uint64_t r = 0; r < values.size(); ++r) {
      TableKey key;
      builder.index().unrank(r, s, key.counts.data());
      const Key k(key.counts.begin(), key.counts.begin() + 2 * rules.houses);
      ASSERT_EQ(values[r], reference.at(k))
          << game << " layer " << s << " rank " << r << " position "
          << to_string(position_from_key(key.counts.data(), rules.houses));
    }
  }
}

TEST(Retrograde, KalahSixHousesMatchesExhaustiveSolver) {
  expect_builder_matches_reference("kalah", 6);
}
TEST(Retrograde, KalahEmptyCaptureMatchesExhaustiveSolver) {
  expect_builder_matches_reference("kalah:6:4:empty-capture", 6);
}
TEST(Retrograde, KalahFourHousesMatchesExhaustiveSolver) {
  expect_builder_matches_reference("kalah:4:3", 9);
}
TEST(Retrograde, KalahThreeHousesEmptyCaptureMatchesExhaustiveSolver) {
  expect_builder_matches_reference("kalah:3:3:empty-capture", 10);
}
TEST(Retrograde, KalahOneHouseMatchesExhaustiveSolver) {
  expect_builder_matches_reference("kalah:1:4", 30);
}
TEST(Retrograde, KalahTwoHousesEmptyCaptureMatchesExhaustiveSolver) {
  expect_builder_matches_reference("kalah:2:4:empty-capture", 16);
}
TEST(Retrograde, KalahFiveHousesMatchesExhaustiveSolver) {
  expect_builder_matches_reference("kalah:5:4", 6);
}
TEST(Retrograde, OwareAbapaMatchesExhaustiveSolver) {
  expect_builder_matches_reference("oware", 7);
}
TEST(Retrograde, OwareGrandSlamCapturesMatchesExhaustiveSolver) {
  expect_builder_matches_reference("oware:4:grand-slam-captures", 6);
}
TEST(Retrograde, OwareAwariMatchesExhaustiveSolver) {
  expect_builder_matches_reference("oware:4:awari", 6);
}

// Kalah layers are built in one pass in order of potential (retrograde_kalah.h); the level
// algorithm, which makes no use of Kalah's acyclic layers, must give the same bytes. Every house
// count, both capture rules, as many seeds as keep it quick: with few houses, houses hold enough
// seeds for sowings that come round the board (the rules engine's part of the pass) and for
// moves that empty a row.
TEST(Retrograde, KalahOnePassGivesTheLevelAlgorithmsBytes) {
  const std::array<int, 7> max_seeds{0, 40, 22, 14, 11, 9, 8};
  for (int houses = 1; houses <= 6; ++houses)
    for (bool empty_capture : {false, true}) {
      const Rules rules = Rules::kalah(houses, 4, empty_capture);
      const int top = max_seeds[static_cast<size_t>(houses)];
      RetrogradeBuilder one_pass(rules, top);
      RetrogradeBuilder levels(rules, top, LayerMethod::Levels);
      ASSERT_TRUE(one_pass.uses_one_pass());
      ASSERT_FALSE(levels.uses_one_pass());
      for (int s = 0; s <= top; ++s)
        ASSERT_TRUE(std::ranges::equal(one_pass.build_layer(s), levels.build_layer(s)))
            << rules.name() << " layer " << s;
    }
}

// The pass values a layer pair of sub-layers by pair, each reading below only the sub-layers the
// pair is said to read (and layer 0): with every other value below spoiled while a pair is
// valued, the layer comes out the same. A value read from a spoiled place would change the
// position's value in one of the two runs, spoiled high or low (the value after a move counts
// with either sign). Houses enough for captures and sowings round the board, both rules, one
// and two threads.
TEST(Retrograde, KalahPassReadsOnlyTheSubLayersEachPairIsSaidToRead) {
  for (const char* game : {"kalah", "kalah:6:4:empty-capture", "kalah:3:4", "kalah:2:4"}) {
    const Rules rules = *table_rules_for(*parse_rules(game));
    const int h = rules.houses, top = h == 6 ? 9 : 16;
    RetrogradeBuilder built(rules, top);
    std::vector<std::vector<int8_t>> layers;
    for (int s = 0; s <= top; ++s) layers.push_back(as_vector(built.build_layer(s)));
    // mover_seeds[t][r]: the seeds on the side to move's row of rank r of layer t.
    std::vector<std::vector<int>> mover_seeds;
    for (int t = 0; t <= top; ++t) {
      std::vector<int>& of = mover_seeds.emplace_back();
      for (uint64_t r = 0; r < built.index().layer_size(t); ++r) {
        TableKey key;
        built.index().unrank(r, t, key.counts.data());
        of.push_back(position_from_key(key.counts.data(), h).seeds_in_houses(Side::South));
      }
    }
    for (int s = 1; s <= top; ++s)
      for (const int8_t spoiled : {int8_t{100}, int8_t{-100}})
        for (const int threads : {1, 2}) {
          std::vector<std::vector<int8_t>> below(layers.begin(), layers.begin() + s);
          const std::vector<std::span<const int8_t>> views(below.begin(), below.end());
          int pairs = 0;
          const auto spoil_all_but_reads = [&](SubLayer pair) {
            ++pairs;
            const std::vector<SubLayer> reads = kalah_pair_reads(rules, pair);
            for (int t = 0; t < s; ++t)
              for (size_t r = 0; r < below[static_cast<size_t>(t)].size(); ++r) {
                const SubLayer sub{mover_seeds[static_cast<size_t>(t)][r],
                                   t - mover_seeds[static_cast<size_t>(t)][r]};
                const bool read = t == 0 || std::ranges::binary_search(reads, sub);
                below[static_cast<size_t>(t)][r] =
                    read ? layers[static_cast<size_t>(t)][r] : spoiled;
              }
          };
          std::vector<int8_t> values(built.index().layer_size(s));
          value_kalah_layer(rules, built.index(), views, s, values.data(), threads, "values", {},
                            spoil_all_but_reads);
          EXPECT_EQ(pairs, static_cast<int>(kalah_pairs(s).size()));
          ASSERT_EQ(values, layers[static_cast<size_t>(s)])
              << game << " layer " << s << " spoiled " << int(spoiled) << ", " << threads
              << " threads";
        }
  }
}

// Layer t's values in sub-layer order (kalah_sub_layers.h).
std::vector<int8_t> in_sub_layer_order(const TableIndex& index, int t,
                                       const std::vector<int8_t>& ranked) {
  std::vector<int8_t> laid;
  for_each_run_in_sub_layer_order(index, t, [&](uint64_t begin, uint64_t size) {
    laid.insert(laid.end(), ranked.begin() + static_cast<ptrdiff_t>(begin),
                ranked.begin() + static_cast<ptrdiff_t>(begin + size));
  });
  return laid;
}

// The pass reads the layers below in rank order or in sub-layer order, each layer its own (a
// build over scratch files holds the lowest in sub-layer order, the others in memory): every mix
// gives the same layer, valued whole or pair by pair, on one thread or two. Houses enough for
// captures, sowings round the board (the rules engine's part) and moves that empty a row; both
// capture rules.
TEST(Retrograde, KalahPassReadsTheLayersBelowInEitherOrder) {
  for (const char* game :
       {"kalah", "kalah:6:4:empty-capture", "kalah:3:4", "kalah:2:4:empty-capture", "kalah:1:4"}) {
    const Rules rules = *table_rules_for(*parse_rules(game));
    const int top = rules.houses == 6 ? 9 : rules.houses == 1 ? 30 : 16;
    RetrogradeBuilder built(rules, top);
    std::vector<std::vector<int8_t>> ranked, laid;
    for (int t = 0; t <= top; ++t) {
      ranked.push_back(as_vector(built.build_layer(t)));
      laid.push_back(in_sub_layer_order(built.index(), t, ranked.back()));
    }
    // Every layer below in sub-layer order, the odd ones, the even ones; each with its own
    // threads and way through the layer.
    struct Run {
      int mix, threads;
      bool by_pairs;
    };
    for (int s = 1; s <= top; ++s)
      for (const auto& [mix, threads, by_pairs] :
           {Run{0, 2, false}, Run{1, 1, true}, Run{2, 2, true}}) {
        std::vector<std::span<const int8_t>> views;
        std::vector<LayerOrder> orders;
        for (int t = 0; t < s; ++t) {
          const bool sub_layers = mix == 0 || t % 2 == mix % 2;
          views.emplace_back(sub_layers ? laid[static_cast<size_t>(t)]
                                        : ranked[static_cast<size_t>(t)]);
          orders.push_back(sub_layers ? LayerOrder::SubLayers : LayerOrder::Ranks);
        }
        std::vector<int8_t> values(built.index().layer_size(s));
        value_kalah_layer(rules, built.index(), views, s, values.data(), threads, "values", {},
                          by_pairs ? KalahPairHook([](SubLayer) {}) : KalahPairHook(), orders);
        ASSERT_EQ(values, ranked[static_cast<size_t>(s)])
            << game << " layer " << s << ", mix " << mix << ", " << threads << " threads"
            << (by_pairs ? ", by pairs" : "");
        // The layer itself written in sub-layer order (a layer built in a scratch file): its
        // inner children read from there too.
        std::vector<int8_t> sorted(built.index().layer_size(s));
        value_kalah_layer(rules, built.index(), views, s, sorted.data(), threads, "values", {},
                          by_pairs ? KalahPairHook([](SubLayer) {}) : KalahPairHook(), orders,
                          LayerOrder::SubLayers);
        ASSERT_EQ(sorted, laid[static_cast<size_t>(s)])
            << game << " layer " << s << " in sub-layer order, mix " << mix << ", " << threads
            << " threads" << (by_pairs ? ", by pairs" : "");
      }
  }
}

// build_layer_into: a layer built into memory of the caller's, in sub-layer order, is held there
// and read by the layers above as it is; every layer the bytes of the usual build.
TEST(Retrograde, LayersBuiltInPlaceInSubLayerOrderHoldTheSameValues) {
  for (const char* game : {"kalah", "kalah:4:4:empty-capture"}) {
    const Rules rules = *table_rules_for(*parse_rules(game));
    const int top = rules.houses == 6 ? 9 : 14;
    RetrogradeBuilder usual(rules, top);
    for (const int threads : {1, 2}) {
      RetrogradeBuilder in_place(rules, top, LayerMethod::Fastest, threads);
      for (int s = 0; s <= top; ++s) {
        const std::vector<int8_t> expected = as_vector(usual.build_layer(s));
        auto place = std::make_shared<std::vector<int8_t>>(in_place.index().layer_size(s));
        const std::span<const int8_t> values = in_place.build_layer_into(
            s, *place, place, LayerOrder::SubLayers, {}, KalahPairHook([](SubLayer) {}));
        EXPECT_EQ(in_place.layer_order(s), LayerOrder::SubLayers);
        EXPECT_TRUE(in_place.held_elsewhere(s));
        ASSERT_EQ(as_vector(values), in_sub_layer_order(in_place.index(), s, expected))
            << game << " layer " << s << ", " << threads << " threads";
      }
    }
  }
}

// Every inner move p -> c is found again by un-sowing from c.
TEST(Retrograde, UnmovesFindEveryInnerParent) {
  for (const char* game : {"kalah", "oware", "oware:4:awari", "kalah:6:4:empty-capture"}) {
    const Rules rules = *table_rules_for(*parse_rules(game));
    const TableIndex index(12, 6);
    for (int s = 1; s <= 6; ++s) {
      for (uint64_t r = 0; r < index.layer_size(s); ++r) {
        TableKey key;
        index.unrank(r, s, key.counts.data());
        const Position p = position_from_key(key.counts.data(), 6);
        for (Move m : generate_moves(rules, p)) {
          const Position c = apply_move(rules, p, m);
          if (c.seeds_in_houses(Side::South) + c.seeds_in_houses(Side::North) != s) continue;
          int found = 0;
          for_each_inner_parent(rules, c, [&](const Position& parent, Move move) {
            if (parent == p && move == m) ++found;
          });
          ASSERT_EQ(found, 1) << game << " " << to_string(p) << " move " << int(m);
        }
      }
    }
  }
}

TEST(Retrograde, SameValuesWithOneThreadAndWithSeveral) {
  for (const char* game : {"kalah", "kalah:6:4:empty-capture", "kalah:4:4", "oware"}) {
    const Rules rules = *parse_rules(game);
    std::vector<std::vector<int8_t>> one, many;
    RetrogradeBuilder a(rules, 9, LayerMethod::Fastest, 1);
    for (int s = 0; s <= 9; ++s) one.push_back(as_vector(a.build_layer(s)));
    RetrogradeBuilder b(rules, 9, LayerMethod::Fastest, 4);
    EXPECT_EQ(b.threads(), 4);
    for (int s = 0; s <= 9; ++s) many.push_back(as_vector(b.build_layer(s)));
    EXPECT_EQ(one, many) << game;
  }
}

// Layers handed over to be held elsewhere (a deep build maps them from scratch files) are read
// in place, and the layers above come out the same.
TEST(Retrograde, LayersHeldElsewhereGiveTheSameLayersAbove) {
  for (const char* game : {"kalah:6:4", "kalah:4:4:empty-capture", "oware"}) {
    const Rules rules = *parse_rules(game);
    RetrogradeBuilder held(rules, 9, LayerMethod::Fastest, 2);
    RetrogradeBuilder elsewhere(rules, 9, LayerMethod::Fastest, 2);
    for (int s = 0; s <= 9; ++s) {
      const std::vector<int8_t> expected = as_vector(held.build_layer(s));
      ASSERT_EQ(as_vector(elsewhere.build_layer(s)), expected) << game << " layer " << s;
      // A copy the builder does not own, kept alive only by the keeper it is handed; a Kalah
      // layer's every other one in sub-layer order.
      const LayerOrder order =
          elsewhere.uses_one_pass() && s % 2 == 1 ? LayerOrder::SubLayers : LayerOrder::Ranks;
      auto copy = std::make_shared<const std::vector<int8_t>>(
          order == LayerOrder::SubLayers ? in_sub_layer_order(held.index(), s, expected)
                                         : expected);
      const std::span<const int8_t> values(*copy);
      elsewhere.hold_layer_elsewhere(s, values, std::move(copy), order);
      EXPECT_TRUE(elsewhere.held_elsewhere(s));
      EXPECT_FALSE(held.held_elsewhere(s));
      EXPECT_EQ(elsewhere.layer(s).data(), values.data());
      EXPECT_EQ(elsewhere.layer_order(s), order);
      // A position's value, looked up in either order.
      for (uint64_t r = 0; r < expected.size(); r += 97) {
        TableKey key;
        held.index().unrank(r, s, key.counts.data());
        const Position p = position_from_key(key.counts.data(), rules.houses);
        EXPECT_EQ(elsewhere.value_of(p), expected[r]) << game << " layer " << s << " rank " << r;
      }
    }
  }
}

TEST(Retrograde, CongkakHasNoTables) {
  EXPECT_FALSE(table_rules_for(Rules::congkak()).ok());
  EXPECT_FALSE(table_rules_for(Rules::kalah(7, 4)).ok());
}

}  // namespace
}  // namespace mancala::retrograde_test
