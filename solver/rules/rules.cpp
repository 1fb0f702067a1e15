#include "solver/rules/rules.h"

#include <charconv>
#include <vector>

namespace mancala {

namespace {

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t end = text.find(sep, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return parts;
}

bool parse_int_in(std::string_view text, int lo, int hi, int& out) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end && !text.empty() && out >= lo && out <= hi;
}

std::string_view rule_set_name(OwareRuleSet set) {
  switch (set) {
    case OwareRuleSet::Abapa:
      return "abapa";
    case OwareRuleSet::GrandSlamCaptures:
      return "grand-slam-captures";
    case OwareRuleSet::Awari:
      return "awari";
  }
  return "abapa";
}

Error bad_game(std::string_view text, std::string_view why) {
  std::string message = "bad GAME '" + std::string(text) + "': " + std::string(why) +
                        "\naccepted forms:\n" + std::string(game_string_forms());
  return Error{message};
}

}  // namespace

std::string_view game_string_forms() {
  return "  kalah                       Kalah, 6 houses, 4 seeds (= kalah:6:4)\n"
         "  kalah:H:N                   Kalah with H houses (1-12) and N seeds per house (1-12)\n"
         "  kalah:H:N:empty-capture     ... where a lone seed in an own empty house is captured\n"
         "  oware                       Oware, 4 seeds, abapa rules (= oware:4:abapa)\n"
         "  oware:N                     Oware with N seeds per house (1-6), abapa rules\n"
         "  oware:N:grand-slam-captures Oware where a grand slam captures\n"
         "  oware:N:awari               Oware under the rules of the published solution\n"
         "  congkak                     Congkak, 7 houses, 7 seeds (= congkak:7:7)\n"
         "  congkak:H:N                 Congkak with H houses (3-9) and N seeds per house (1-10)\n"
         "  congkak:H:N:no-capture-first-lap  ... capturing only after passing the own store\n";
}

Rules Rules::kalah(int houses, int seeds, bool empty_capture) {
  Rules r;
  r.kind = GameKind::Kalah;
  r.houses = static_cast<uint8_t>(houses);
  r.seeds = static_cast<uint8_t>(seeds);
  r.empty_capture = empty_capture;
  return r;
}

Rules Rules::oware(int seeds, OwareRuleSet rule_set) {
  Rules r;
  r.kind = GameKind::Oware;
  r.houses = 6;
  r.seeds = static_cast<uint8_t>(seeds);
  r.oware_rules = rule_set;
  return r;
}

Rules Rules::congkak(int houses, int seeds, bool no_capture_first_lap) {
  Rules r;
  r.kind = GameKind::Congkak;
  r.houses = static_cast<uint8_t>(houses);
  r.seeds = static_cast<uint8_t>(seeds);
  r.no_capture_first_lap = no_capture_first_lap;
  return r;
}

std::string_view kind_name(GameKind kind) {
  switch (kind) {
    case GameKind::Kalah:
      return "kalah";
    case GameKind::Oware:
      return "oware";
    case GameKind::Congkak:
      return "congkak";
  }
  return "";
}

std::string Rules::name() const {
  std::string size = std::to_string(houses) + ":" + std::to_string(seeds);
  switch (kind) {
    case GameKind::Kalah:
      return "kalah:" + size + (empty_capture ? ":empty-capture" : "");
    case GameKind::Oware:
      return "oware:" + std::to_string(seeds) + ":" + std::string(rule_set_name(oware_rules));
    case GameKind::Congkak:
      return "congkak:" + size + (no_capture_first_lap ? ":no-capture-first-lap" : "");
  }
  return "";
}

std::string Rules::table_name() const {
  switch (kind) {
    case GameKind::Kalah:
      return "kalah:" + std::to_string(houses) + (empty_capture ? ":empty-capture" : "");
    case GameKind::Oware:
      return "oware:" + std::string(rule_set_name(oware_rules));
    case GameKind::Congkak:
      return "congkak:" + std::to_string(houses) +
             (no_capture_first_lap ? ":no-capture-first-lap" : "");
  }
  return "";
}

Expected<Rules> parse_rules(std::string_view text) {
  std::vector<std::string_view> parts = split(text, ':');
  std::string_view game = parts[0];
  if (game == "kalah" || game == "congkak") {
    bool kalah = game == "kalah";
    int max_houses = kalah ? 12 : 9;
    int min_houses = kalah ? 1 : 3;
    int max_seeds = kalah ? 12 : 10;
    int houses = kalah ? 6 : 7;
    int seeds = kalah ? 4 : 7;
    if (parts.size() == 2 || parts.size() > 4)
      return bad_game(text, "expected GAME or GAME:H:N[:VARIANT]");
    if (parts.size() >= 3) {
      if (!parse_int_in(parts[1], min_houses, max_houses, houses))
        return bad_game(text, "houses must be a number from " + std::to_string(min_houses) +
                                  " to " + std::to_string(max_houses));
      if (!parse_int_in(parts[2], 1, max_seeds, seeds))
        return bad_game(text, "seeds must be a number from 1 to " + std::to_string(max_seeds));
    }
    bool variant = false;
    if (parts.size() == 4) {
      std::string_view expected = kalah ? "empty-capture" : "no-capture-first-lap";
      if (parts[3] != expected)
        return bad_game(text, "unknown variant '" + std::string(parts[3]) + "' (expected '" +
                                  std::string(expected) + "')");
      variant = true;
    }
    return kalah ? Rules::kalah(houses, seeds, variant) : Rules::congkak(houses, seeds, variant);
  }
  if (game == "oware") {
    if (parts.size() > 3) return bad_game(text, "expected oware, oware:N or oware:N:RULES");
    int seeds = 4;
    if (parts.size() >= 2 && !parse_int_in(parts[1], 1, 6, seeds))
      return bad_game(text, "seeds must be a number from 1 to 6");
    OwareRuleSet set = OwareRuleSet::Abapa;
    if (parts.size() == 3) {
      if (parts[2] == "abapa")
        set = OwareRuleSet::Abapa;
      else if (parts[2] == "grand-slam-captures")
        set = OwareRuleSet::GrandSlamCaptures;
      else if (parts[2] == "awari")
        set = OwareRuleSet::Awari;
      else
        return bad_game(text, "unknown rule set '" + std::string(parts[2]) +
                                  "' (expected abapa, grand-slam-captures or awari)");
    }
    return Rules::oware(seeds, set);
  }
  return bad_game(text, "unknown game '" + std::string(game) + "'");
}

Expected<Rules> parse_table_name(std::string_view text) {
  std::vector<std::string_view> parts = split(text, ':');
  std::string game;
  if (parts[0] == "kalah" && parts.size() >= 2 && parts.size() <= 3) {
    game = "kalah:" + std::string(parts[1]) + ":4" +
           (parts.size() == 3 ? ":" + std::string(parts[2]) : "");
  } else if (parts[0] == "oware" && parts.size() == 2) {
    game = "oware:4:" + std::string(parts[1]);
  } else {
    return Error{"unknown table name '" + std::string(text) + "'"};
  }
  Expected<Rules> rules = parse_rules(game);
  if (!rules || rules->table_name() != text)
    return Error{"unknown table name '" + std::string(text) + "'"};
  return rules;
}

}  // namespace mancala
