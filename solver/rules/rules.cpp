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

const GameForm (&game_forms())[3] {
  static const GameForm forms[3] = {
      {GameKind::Kalah,
       "Kalah",
       1,
       kMaxHouses,
       6,
       1,
       12,
       4,
       {{"standard", "", ""},
        {"empty-capture", "empty-capture", "where a lone seed in an own empty house is captured"}},
       2},
      {GameKind::Oware,
       "Oware",
       6,
       6,
       6,
       1,
       6,
       4,
       {{"abapa", "abapa", "where a grand slam captures nothing"},
        {"grand-slam-captures", "grand-slam-captures", "where a grand slam captures"},
        {"awari", "awari", "under the rules of the published solution"}},
       3},
      {GameKind::Congkak,
       "Congkak",
       3,
       9,
       7,
       1,
       10,
       7,
       {{"standard", "", ""},
        {"no-capture-first-lap", "no-capture-first-lap",
         "capturing only after passing the own store"}},
       2},
  };
  return forms;
}

Rules rules_of_form(GameKind kind, int houses, int seeds, int variant) {
  switch (kind) {
    case GameKind::Kalah:
      return Rules::kalah(houses, seeds, variant == 1);
    case GameKind::Oware:
      return Rules::oware(seeds, static_cast<OwareRuleSet>(variant));
    case GameKind::Congkak:
      return Rules::congkak(houses, seeds, variant == 1);
  }
  return Rules{};
}

std::string_view game_string_forms() {
  // Written from game_forms(): the ranges and variants as parse_rules takes them.
  static const std::string text = [] {
    auto line = [](const std::string& form, const std::string& meaning) {
      // Two spaces at least between a form and its meaning: what tells a reader (and help2man,
      // which writes the manual pages from --help) where the form ends.
      std::string padded = "  " + form;
      if (padded.size() <= 28)
        padded.resize(30, ' ');
      else
        padded += "  ";
      return padded + meaning + "\n";
    };
    std::string out;
    for (const GameForm& f : game_forms()) {
      const std::string kind(kind_name(f.kind));
      const std::string title(f.title);
      const std::string seeds_range =
          std::to_string(f.min_seeds) + "-" + std::to_string(f.max_seeds);
      if (!f.sized()) {
        out += line(kind, title + ", " + std::to_string(f.default_seeds) + " seeds, " +
                              std::string(f.variants[0].name) + " rules (= " + kind + ":" +
                              std::to_string(f.default_seeds) + ":" +
                              std::string(f.variants[0].option) + ")");
        out += line(kind + ":N", title + " with N seeds per house (" + seeds_range + "), " +
                                     std::string(f.variants[0].name) + " rules");
        for (int v = 1; v < f.variant_count; ++v)
          out += line(kind + ":N:" + std::string(f.variants[v].option),
                      title + " " + std::string(f.variants[v].summary));
        continue;
      }
      out += line(kind, title + ", " + std::to_string(f.default_houses) + " houses, " +
                            std::to_string(f.default_seeds) + " seeds (= " + kind + ":" +
                            std::to_string(f.default_houses) + ":" +
                            std::to_string(f.default_seeds) + ")");
      out += line(kind + ":H:N", title + " with H houses (" + std::to_string(f.min_houses) + "-" +
                                     std::to_string(f.max_houses) + ") and N seeds per house (" +
                                     seeds_range + ")");
      for (int v = 1; v < f.variant_count; ++v)
        out += line(kind + ":H:N:" + std::string(f.variants[v].option),
                    "... " + std::string(f.variants[v].summary));
    }
    return out;
  }();
  return text;
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
  const std::string_view game = parts[0];
  const GameForm* form = nullptr;
  for (const GameForm& f : game_forms())
    if (kind_name(f.kind) == game) form = &f;
  if (!form) return bad_game(text, "unknown game '" + std::string(game) + "'");
  const bool sized = form->sized();
  const size_t size_fields = sized ? 2 : 1;
  if ((sized && parts.size() == 2) || parts.size() > size_fields + 2)
    return bad_game(text, sized ? "expected GAME or GAME:H:N[:VARIANT]"
                                : "expected " + std::string(game) + ", " + std::string(game) +
                                      ":N or " + std::string(game) + ":N:RULES");
  int houses = form->default_houses;
  int seeds = form->default_seeds;
  if (parts.size() > 1) {
    if (sized && !parse_int_in(parts[1], form->min_houses, form->max_houses, houses))
      return bad_game(text, "houses must be a number from " + std::to_string(form->min_houses) +
                                " to " + std::to_string(form->max_houses));
    if (!parse_int_in(parts[size_fields], form->min_seeds, form->max_seeds, seeds))
      return bad_game(text, "seeds must be a number from " + std::to_string(form->min_seeds) +
                                " to " + std::to_string(form->max_seeds));
  }
  int variant = 0;
  if (parts.size() == size_fields + 2) {
    const std::string_view option = parts[size_fields + 1];
    variant = -1;
    std::string expected;
    for (int v = 0; v < form->variant_count; ++v) {
      if (form->variants[v].option.empty()) continue;
      if (form->variants[v].option == option) variant = v;
      expected += (expected.empty()               ? ""
                   : v + 1 == form->variant_count ? " or "
                                                  : ", ") +
                  std::string(form->variants[v].option);
    }
    if (variant < 0)
      return bad_game(text, std::string(sized ? "unknown variant '" : "unknown rule set '") +
                                std::string(option) + "' (expected " +
                                (sized ? "'" + expected + "'" : expected) + ")");
  }
  return rules_of_form(form->kind, houses, seeds, variant);
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
