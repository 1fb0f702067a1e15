// Notation from solver/rules/README.md: GAME strings, position strings and move letters.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "solver/rules/position.h"
#include "solver/rules/rules.h"

// A namespace per file: the suite is compiled in unity batches.
namespace mancala::notation_test {
namespace {

bool has(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

Rules rules_of(std::string_view game) {
  Expected<Rules> rules = parse_rules(game);
  EXPECT_TRUE(rules.ok()) << game << ": " << (rules.ok() ? "" : rules.error());
  return rules.ok() ? rules.value() : Rules{};
}

// The error of a position string that must be rejected ("" when it was accepted).
std::string position_error(const Rules& rules, std::string_view text) {
  Expected<Position> p = parse_position(rules, text);
  EXPECT_FALSE(p.ok()) << text << " was accepted for " << rules.name();
  return p.ok() ? std::string() : p.error();
}

// The error of a GAME string that must be rejected; it must list every accepted form.
void expect_game_rejected(std::string_view game) {
  Expected<Rules> rules = parse_rules(game);
  ASSERT_FALSE(rules.ok()) << "'" << game << "' was accepted as " << rules->name();
  const std::string& error = rules.error();
  for (std::string_view form :
       {"kalah:H:N", "kalah:H:N:empty-capture", "oware:N", "oware:N:grand-slam-captures",
        "oware:N:awari", "congkak:H:N", "congkak:H:N:no-capture-first-lap"})
    EXPECT_TRUE(has(error, form)) << "error for '" << game << "' does not list " << form << ":\n"
                                  << error;
}

// ------------------------------------------------------------------ GAME strings: accepted forms

TEST(GameString, KalahDefaultsToSixHousesFourSeeds) {
  const Rules r = rules_of("kalah");
  EXPECT_EQ(r.kind, GameKind::Kalah);
  EXPECT_EQ(r.houses, 6);
  EXPECT_EQ(r.seeds, 4);
  EXPECT_FALSE(r.empty_capture);
  EXPECT_EQ(r, Rules::kalah());
  EXPECT_EQ(r.name(), "kalah:6:4");
  EXPECT_EQ(r.total_seeds(), 48);
}

TEST(GameString, KalahWithHousesAndSeeds) {
  const Rules r = rules_of("kalah:3:2");
  EXPECT_EQ(r.kind, GameKind::Kalah);
  EXPECT_EQ(r.houses, 3);
  EXPECT_EQ(r.seeds, 2);
  EXPECT_FALSE(r.empty_capture);
  EXPECT_EQ(r, Rules::kalah(3, 2));
  EXPECT_EQ(r.name(), "kalah:3:2");
  EXPECT_EQ(r.total_seeds(), 12);
  EXPECT_EQ(rules_of("kalah:1:1"), Rules::kalah(1, 1));
  EXPECT_EQ(rules_of("kalah:12:12"), Rules::kalah(12, 12));
}

TEST(GameString, KalahEmptyCaptureVariant) {
  const Rules r = rules_of("kalah:6:4:empty-capture");
  EXPECT_EQ(r.kind, GameKind::Kalah);
  EXPECT_TRUE(r.empty_capture);
  EXPECT_EQ(r, Rules::kalah(6, 4, true));
  EXPECT_EQ(r.name(), "kalah:6:4:empty-capture");
}

TEST(GameString, OwareDefaultsToFourSeedsAbapa) {
  const Rules r = rules_of("oware");
  EXPECT_EQ(r.kind, GameKind::Oware);
  EXPECT_EQ(r.houses, 6);
  EXPECT_EQ(r.seeds, 4);
  EXPECT_EQ(r.oware_rules, OwareRuleSet::Abapa);
  EXPECT_EQ(r, Rules::oware());
  EXPECT_EQ(r.name(), "oware:4:abapa");
}

TEST(GameString, OwareWithSeedsAlwaysHasSixHouses) {
  for (int n = 1; n <= 6; ++n) {
    const Rules r = rules_of("oware:" + std::to_string(n));
    EXPECT_EQ(r.houses, 6);
    EXPECT_EQ(r.seeds, n);
    EXPECT_EQ(r.oware_rules, OwareRuleSet::Abapa);
    EXPECT_EQ(r.name(), "oware:" + std::to_string(n) + ":abapa");
    EXPECT_EQ(r.total_seeds(), 12 * n);
  }
}

TEST(GameString, OwareRuleSets) {
  EXPECT_EQ(rules_of("oware:4:abapa"), Rules::oware(4, OwareRuleSet::Abapa));
  const Rules gs = rules_of("oware:5:grand-slam-captures");
  EXPECT_EQ(gs, Rules::oware(5, OwareRuleSet::GrandSlamCaptures));
  EXPECT_EQ(gs.name(), "oware:5:grand-slam-captures");
  const Rules aw = rules_of("oware:6:awari");
  EXPECT_EQ(aw, Rules::oware(6, OwareRuleSet::Awari));
  EXPECT_EQ(aw.name(), "oware:6:awari");
}

TEST(GameString, CongkakDefaultsToSevenHousesSevenSeeds) {
  const Rules r = rules_of("congkak");
  EXPECT_EQ(r.kind, GameKind::Congkak);
  EXPECT_EQ(r.houses, 7);
  EXPECT_EQ(r.seeds, 7);
  EXPECT_FALSE(r.no_capture_first_lap);
  EXPECT_EQ(r, Rules::congkak());
  EXPECT_EQ(r.name(), "congkak:7:7");
}

TEST(GameString, CongkakWithHousesAndSeeds) {
  EXPECT_EQ(rules_of("congkak:3:2"), Rules::congkak(3, 2));
  EXPECT_EQ(rules_of("congkak:3:1"), Rules::congkak(3, 1));
  EXPECT_EQ(rules_of("congkak:9:10"), Rules::congkak(9, 10));
  EXPECT_EQ(rules_of("congkak:3:2").name(), "congkak:3:2");
}

TEST(GameString, CongkakNoCaptureFirstLapVariant) {
  const Rules r = rules_of("congkak:5:3:no-capture-first-lap");
  EXPECT_EQ(r.kind, GameKind::Congkak);
  EXPECT_TRUE(r.no_capture_first_lap);
  EXPECT_EQ(r, Rules::congkak(5, 3, true));
  EXPECT_EQ(r.name(), "congkak:5:3:no-capture-first-lap");
}

TEST(GameString, CanonicalNameParsesBackToSameRules) {
  for (std::string_view game :
       {"kalah", "kalah:1:1", "kalah:12:12", "kalah:4:3:empty-capture", "oware", "oware:1",
        "oware:6:grand-slam-captures", "oware:3:awari", "oware:4:abapa", "congkak", "congkak:3:10",
        "congkak:9:1:no-capture-first-lap"}) {
    const Rules r = rules_of(game);
    EXPECT_EQ(rules_of(r.name()), r) << game << " -> " << r.name();
  }
}

TEST(GameString, TableNameDoesNotDependOnSeeds) {
  EXPECT_EQ(rules_of("kalah:6:4").table_name(), "kalah:6");
  EXPECT_EQ(rules_of("kalah:6:5").table_name(), "kalah:6");
  EXPECT_NE(rules_of("kalah:5:4").table_name(), rules_of("kalah:6:4").table_name());
  EXPECT_NE(rules_of("kalah:6:4:empty-capture").table_name(), "kalah:6");
  EXPECT_EQ(rules_of("kalah:6:4:empty-capture").table_name(),
            rules_of("kalah:6:3:empty-capture").table_name());
  EXPECT_EQ(rules_of("oware").table_name(), "oware:abapa");
  EXPECT_EQ(rules_of("oware:5").table_name(), "oware:abapa");
  EXPECT_EQ(rules_of("oware:4:awari").table_name(), rules_of("oware:6:awari").table_name());
  EXPECT_NE(rules_of("oware:4:awari").table_name(), "oware:abapa");
  EXPECT_NE(rules_of("oware:4:grand-slam-captures").table_name(), "oware:abapa");
  EXPECT_EQ(rules_of("congkak:7:7").table_name(), rules_of("congkak:7:5").table_name());
  EXPECT_NE(rules_of("congkak:7:7").table_name(), rules_of("congkak:6:7").table_name());
}

TEST(GameString, AcceptedFormsListEveryForm) {
  const std::string forms(game_string_forms());
  for (std::string_view form : {"kalah", "kalah:H:N", "kalah:H:N:empty-capture", "oware", "oware:N",
                                "oware:N:grand-slam-captures", "oware:N:awari", "congkak",
                                "congkak:H:N", "congkak:H:N:no-capture-first-lap"})
    EXPECT_TRUE(has(forms, form)) << form;
}

// ------------------------------------------------------------------ GAME strings: rejections

TEST(GameString, UnknownGameRejected) {
  expect_game_rejected("");
  expect_game_rejected("mancala");
  expect_game_rejected("Kalah");
  expect_game_rejected("awari");
}

TEST(GameString, KalahOutOfRangeRejected) {
  expect_game_rejected("kalah:13:4");
  expect_game_rejected("kalah:0:4");
  expect_game_rejected("kalah:6:13");
  expect_game_rejected("kalah:6:0");
  expect_game_rejected("kalah:-1:4");
  expect_game_rejected("kalah:x:4");
  expect_game_rejected("kalah:6:");
}

TEST(GameString, KalahWithHousesButNoSeedsRejected) {
  expect_game_rejected("kalah:6");
  expect_game_rejected("kalah:");
}

TEST(GameString, OwareOutOfRangeRejected) {
  expect_game_rejected("oware:7");
  expect_game_rejected("oware:0");
  expect_game_rejected("oware:x");
  expect_game_rejected("oware:");
  // Oware has no houses parameter.
  expect_game_rejected("oware:6:4");
}

TEST(GameString, CongkakOutOfRangeRejected) {
  expect_game_rejected("congkak:2:5");
  expect_game_rejected("congkak:10:5");
  expect_game_rejected("congkak:5:11");
  expect_game_rejected("congkak:5:0");
  expect_game_rejected("congkak:7");
}

TEST(GameString, UnknownVariantRejected) {
  expect_game_rejected("kalah:6:4:no-capture-first-lap");
  expect_game_rejected("kalah:6:4:grand-slam-captures");
  expect_game_rejected("oware:4:empty-capture");
  expect_game_rejected("oware:4:bogus");
  expect_game_rejected("congkak:7:7:empty-capture");
  expect_game_rejected("congkak:7:7:");
}

TEST(GameString, ExtraFieldsRejected) {
  expect_game_rejected("kalah:6:4:empty-capture:x");
  expect_game_rejected("kalah:6:4:empty-capture:empty-capture");
  expect_game_rejected("oware:4:abapa:x");
  expect_game_rejected("oware:4:awari:awari");
  expect_game_rejected("congkak:7:7:no-capture-first-lap:x");
}

// ------------------------------------------------------------------ position strings

TEST(PositionString, StartPositionStrings) {
  EXPECT_EQ(to_string(start_position(rules_of("kalah"))), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
  EXPECT_EQ(to_string(start_position(rules_of("oware"))), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
  EXPECT_EQ(to_string(start_position(rules_of("oware:5"))), "5-5-5-5-5-5-5-5-5-5-5-5-0-0-S");
  EXPECT_EQ(to_string(start_position(rules_of("kalah:3:2"))), "2-2-2-2-2-2-0-0-S");
  EXPECT_EQ(to_string(start_position(rules_of("kalah:1:12"))), "12-12-0-0-S");
  EXPECT_EQ(to_string(start_position(rules_of("congkak"))), "7-7-7-7-7-7-7-7-7-7-7-7-7-7-0-0-S");
}

TEST(PositionString, StartPositionParsesToStartPosition) {
  for (std::string_view game : {"kalah", "oware", "congkak", "kalah:3:2", "congkak:3:2"}) {
    const Rules r = rules_of(game);
    const Position start = start_position(r);
    Expected<Position> parsed = parse_position(r, to_string(start));
    ASSERT_TRUE(parsed.ok()) << parsed.error();
    EXPECT_EQ(*parsed, start) << game;
    EXPECT_EQ(start.side_to_move, Side::South);
    EXPECT_EQ(start.seeds_total(), r.total_seeds());
  }
}

TEST(PositionString, FieldsFollowSowingOrderThenStoresThenSide) {
  const Rules r = rules_of("kalah:3:2");
  Expected<Position> parsed = parse_position(r, "1-0-3-2-4-0-1-1-N");
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  const Position& p = *parsed;
  EXPECT_EQ(p.houses, 3);
  EXPECT_EQ(p.house(Side::South, 0), 1);  // A
  EXPECT_EQ(p.house(Side::South, 1), 0);  // B
  EXPECT_EQ(p.house(Side::South, 2), 3);  // C
  EXPECT_EQ(p.house(Side::North, 0), 2);  // a
  EXPECT_EQ(p.house(Side::North, 1), 4);  // b
  EXPECT_EQ(p.house(Side::North, 2), 0);  // c
  EXPECT_EQ(p.store(Side::South), 1);
  EXPECT_EQ(p.store(Side::North), 1);
  EXPECT_EQ(p.side_to_move, Side::North);
  // The documented slot layout: A B C, South store, a b c, North store.
  EXPECT_EQ(p.slots[0], 1);
  EXPECT_EQ(p.slots[2], 3);
  EXPECT_EQ(p.slots[3], 1);
  EXPECT_EQ(p.slots[4], 2);
  EXPECT_EQ(p.slots[5], 4);
  EXPECT_EQ(p.slots[7], 1);
  // Opposite houses: A-c, B-b, C-a.
  EXPECT_EQ(p.opposite_slot(0), 6);
  EXPECT_EQ(p.opposite_slot(1), 5);
  EXPECT_EQ(p.opposite_slot(2), 4);
}

TEST(PositionString, RoundTrip) {
  const std::vector<std::pair<std::string_view, std::string_view>> cases = {
      {"kalah", "0-1-2-3-4-5-6-7-8-9-0-0-2-1-N"},
      {"kalah", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"},
      {"kalah:3:2", "0-0-0-0-0-0-12-0-S"},
      {"kalah:12:12",
       "12-12-12-12-12-12-12-12-12-12-12-12-12-12-12-12-12-12-12-12-12-12-12-12-0-0-N"},
      {"kalah:1:12", "0-0-24-0-N"},
      {"oware", "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S"},
      {"oware:1", "1-0-0-0-0-1-1-0-1-0-0-1-5-2-N"},
      {"congkak:3:2", "1-0-1-4-1-3-2-0-N"},
  };
  for (const auto& [game, text] : cases) {
    const Rules r = rules_of(game);
    Expected<Position> parsed = parse_position(r, text);
    ASSERT_TRUE(parsed.ok()) << game << " " << text << ": " << parsed.error();
    EXPECT_EQ(to_string(*parsed), text) << game;
    EXPECT_EQ(parsed->seeds_total(), r.total_seeds());
  }
}

TEST(PositionString, WrongFieldCountRejected) {
  const Rules r = rules_of("kalah");
  const std::string too_few = position_error(r, "4-4-4-4-4-4-4-4-4-4-4-4-0-S");
  EXPECT_TRUE(has(too_few, "field")) << too_few;
  const std::string too_many = position_error(r, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-0-S");
  EXPECT_TRUE(has(too_many, "field")) << too_many;
  // A kalah:3:2 string is not a Kalah(6,4) string.
  const std::string small = position_error(r, "2-2-2-2-2-2-0-0-S");
  EXPECT_TRUE(has(small, "field")) << small;
  const std::string empty = position_error(r, "");
  EXPECT_FALSE(empty.empty());
}

TEST(PositionString, NonNumberRejectedNamingTheField) {
  const Rules r = rules_of("kalah");
  const std::string error = position_error(r, "4-4-x-4-4-4-4-4-4-4-4-4-0-0-S");
  EXPECT_TRUE(has(error, "house C") || has(error, "field 3")) << error;
  const std::string store = position_error(r, "4-4-4-4-4-4-4-4-4-4-4-4-0-zero-S");
  EXPECT_TRUE(has(store, "North") || has(store, "field 14")) << store;
  const std::string spaced = position_error(r, "4-4-4-4-4-4-4-4-4-4-4- 4-0-0-S");
  EXPECT_TRUE(has(spaced, "house f") || has(spaced, "field 12")) << spaced;
}

TEST(PositionString, EmptyFieldRejectedNamingTheField) {
  // "4--4-..." with one count fewer: field 2 is empty.
  const std::string error = position_error(rules_of("kalah"), "4--4-4-4-4-4-4-4-4-4-4-0-0-S");
  EXPECT_TRUE(has(error, "house B") || has(error, "field 2")) << error;
}

TEST(PositionString, NegativeCountRejectedNamingTheField) {
  // House B holds -4; every other field is well formed and the counts add up to 48.
  const std::string error = position_error(rules_of("kalah"), "12--4-4-4-4-4-4-4-4-4-4-4-0-0-S");
  EXPECT_TRUE(has(error, "house B") || has(error, "field 2")) << error;
  // Same on a small board: house a holds -1, the total is 2.
  const std::string small = position_error(rules_of("kalah:1:1"), "3--1-0-0-S");
  EXPECT_TRUE(has(small, "house a") || has(small, "field 2")) << small;
}

TEST(PositionString, SeedTotalMismatchRejected) {
  const Rules r = rules_of("kalah");
  const std::string more = position_error(r, "4-4-4-4-4-4-4-4-4-4-4-5-0-0-S");
  EXPECT_TRUE(has(more, "total")) << more;
  const std::string fewer = position_error(r, "3-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
  EXPECT_TRUE(has(fewer, "total")) << fewer;
  // The same string is fine for another seed count: Kalah(6,5) has 60 seeds.
  const std::string five = position_error(rules_of("kalah:6:5"), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
  EXPECT_TRUE(has(five, "total")) << five;
}

TEST(PositionString, SideOtherThanSOrNRejected) {
  const Rules r = rules_of("kalah");
  for (std::string_view text : {"4-4-4-4-4-4-4-4-4-4-4-4-0-0-X", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-s",
                                "4-4-4-4-4-4-4-4-4-4-4-4-0-0-", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-SN",
                                "4-4-4-4-4-4-4-4-4-4-4-4-0-0-0"}) {
    const std::string error = position_error(r, text);
    EXPECT_TRUE(has(error, "side")) << text << ": " << error;
  }
}

// ------------------------------------------------------------------ move letters

TEST(MoveLetter, LettersFollowSowingOrder) {
  EXPECT_EQ(move_letter(Side::South, 0), 'A');
  EXPECT_EQ(move_letter(Side::South, 2), 'C');
  EXPECT_EQ(move_letter(Side::South, 11), 'L');
  EXPECT_EQ(move_letter(Side::North, 0), 'a');
  EXPECT_EQ(move_letter(Side::North, 3), 'd');
  EXPECT_EQ(move_letter(Side::North, 11), 'l');
}

TEST(MoveLetter, SouthToMoveAcceptsOnlyUppercaseOwnHouses) {
  const Position p = start_position(rules_of("kalah"));
  for (int i = 0; i < 6; ++i) {
    Expected<Move> m = parse_move_letter(p, std::string(1, static_cast<char>('A' + i)));
    ASSERT_TRUE(m.ok()) << m.error();
    EXPECT_EQ(*m, i);
  }
  for (std::string_view bad : {"a", "f", "G", "g", "", "AB", "1", " ", "@"}) {
    Expected<Move> m = parse_move_letter(p, bad);
    EXPECT_FALSE(m.ok()) << "'" << bad << "' accepted";
    if (!m.ok()) {
      EXPECT_FALSE(m.error().empty());
    }
  }
}

TEST(MoveLetter, NorthToMoveAcceptsOnlyLowercaseOwnHouses) {
  Expected<Position> p = parse_position(rules_of("kalah:3:2"), "2-2-2-2-2-2-0-0-N");
  ASSERT_TRUE(p.ok()) << p.error();
  for (int i = 0; i < 3; ++i) {
    Expected<Move> m = parse_move_letter(*p, std::string(1, static_cast<char>('a' + i)));
    ASSERT_TRUE(m.ok()) << m.error();
    EXPECT_EQ(*m, i);
  }
  for (std::string_view bad : {"A", "C", "d", "D", "", "ab"}) {
    Expected<Move> m = parse_move_letter(*p, bad);
    EXPECT_FALSE(m.ok()) << "'" << bad << "' accepted";
  }
}

TEST(MoveLetter, LettersExtendToTwelveHouses) {
  const Position p = start_position(rules_of("kalah:12:1"));
  Expected<Move> l = parse_move_letter(p, "L");
  ASSERT_TRUE(l.ok()) << l.error();
  EXPECT_EQ(*l, 11);
  EXPECT_FALSE(parse_move_letter(p, "M").ok());
  EXPECT_FALSE(parse_move_letter(p, "l").ok());
}

}  // namespace
}  // namespace mancala::notation_test
