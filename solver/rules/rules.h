// The rules of one game as data: which game, its size and its variant options. Every command
// takes one GAME string that parses into a Rules value; variants never mean copied code.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "solver/util/expected.h"

namespace mancala {

inline constexpr int kMaxHouses = 12;

enum class GameKind : uint8_t { Kalah, Oware, Congkak };

// Oware rule sets (solver/rules/README.md, "Oware").
enum class OwareRuleSet : uint8_t {
  Abapa,              // grand slam legal but captures nothing; must feed
  GrandSlamCaptures,  // abapa with rule 4 replaced: a grand slam captures
  Awari,              // the rules of the published full solution
};

struct Rules {
  GameKind kind = GameKind::Kalah;
  uint8_t houses = 6;          // h: houses per player
  uint8_t seeds = 4;           // n: seeds per house at the start
  bool empty_capture = false;  // Kalah: a lone seed in an own empty house is captured anyway
  OwareRuleSet oware_rules = OwareRuleSet::Abapa;
  bool no_capture_first_lap = false;  // Congkak: captures count only after passing the own store

  // Seeds in play: every position of this game holds exactly this many.
  int total_seeds() const { return 2 * houses * seeds; }
  // Slots on the ring: both rows of houses and both stores.
  int ring_size() const { return 2 * houses + 2; }

  // Canonical GAME string, e.g. "kalah:6:4", "oware:4:abapa", "congkak:7:7:no-capture-first-lap".
  std::string name() const;
  // A name that does not depend on the seeds per house: the endgame tables of "kalah:6:4" and
  // "kalah:6:5" are the same tables, so they carry this name ("kalah:6", "oware:abapa").
  std::string table_name() const;

  static Rules kalah(int houses = 6, int seeds = 4, bool empty_capture = false);
  static Rules oware(int seeds = 4, OwareRuleSet rule_set = OwareRuleSet::Abapa);
  static Rules congkak(int houses = 7, int seeds = 7, bool no_capture_first_lap = false);

  friend bool operator==(const Rules&, const Rules&) = default;
};

// The game's word in GAME strings and table names: "kalah", "oware" or "congkak".
std::string_view kind_name(GameKind kind);

// What a GAME string may choose for one kind of game: the sizes and their defaults, and the
// variants. parse_rules, game_string_forms and every door's catalogue of games read this one
// table, so that a range is written once.
struct GameVariant {
  std::string_view name;     // "standard", "empty-capture", "abapa", ...
  std::string_view option;   // its word in a GAME string; "" when it is the plain form's rules
  std::string_view summary;  // one line, for the accepted forms
};
struct GameForm {
  GameKind kind;
  std::string_view title;  // "Kalah"
  int min_houses, max_houses, default_houses;
  int min_seeds, max_seeds, default_seeds;
  GameVariant variants[3];  // the default first
  int variant_count;

  // Whether a GAME string names the board's size (Oware has one size: it names seeds and rules).
  bool sized() const { return min_houses != max_houses; }
};
// Kalah, Oware and Congkak, in that order.
const GameForm (&game_forms())[3];
// The rules of `kind` with `houses`, `seeds` (in the form's ranges) and its variant number
// `variant` (0 .. variant_count-1).
Rules rules_of_form(GameKind kind, int houses, int seeds, int variant);

// Parses a GAME string: kalah, kalah:H:N, kalah:H:N:empty-capture, oware, oware:N,
// oware:N:abapa|grand-slam-captures|awari, congkak, congkak:H:N, congkak:H:N:no-capture-first-lap.
Expected<Rules> parse_rules(std::string_view text);

// The rules of a table name ("kalah:6", "kalah:6:empty-capture", "oware:awari"), with the
// default seeds per house, which tables do not depend on.
Expected<Rules> parse_table_name(std::string_view text);

// The accepted GAME forms, one per line, for error messages and --help.
std::string_view game_string_forms();

}  // namespace mancala
