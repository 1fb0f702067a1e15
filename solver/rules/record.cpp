#include "solver/rules/record.h"

#include <algorithm>
#include <cctype>

namespace mancala {

namespace {

std::string escape(std::string_view value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out;
}

void add_tag(std::string& out, std::string_view name, std::string_view value) {
  out += '[';
  out += name;
  out += " \"";
  out += escape(value);
  out += "\"]\n";
}

struct RawRecord {
  RecordTags tags;
  std::string movetext;
};

// Splits tag pairs from the move text. Tag lines are `[Name "value"]` with \\ and \" escapes.
Expected<RawRecord> split_record(std::string_view text) {
  RawRecord raw;
  size_t pos = 0;
  int line_number = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    ++line_number;
    pos = end + 1;
    size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) continue;
    line = line.substr(first);
    if (line[0] != '[') {
      raw.movetext += std::string(line);
      raw.movetext += '\n';
      continue;
    }
    size_t name_end = line.find_first_of(" \t", 1);
    size_t quote = line.find('"');
    if (name_end == std::string_view::npos || quote == std::string_view::npos || quote < name_end)
      return Error{"line " + std::to_string(line_number) + ": bad tag pair: " + std::string(line)};
    std::string name(line.substr(1, name_end - 1));
    std::string value;
    size_t i = quote + 1;
    bool closed = false;
    for (; i < line.size(); ++i) {
      if (line[i] == '\\' && i + 1 < line.size()) {
        value += line[++i];
      } else if (line[i] == '"') {
        closed = true;
        break;
      } else {
        value += line[i];
      }
    }
    if (!closed || line.find(']', i) == std::string_view::npos)
      return Error{"line " + std::to_string(line_number) +
                   ": unterminated tag: " + std::string(line)};
    for (const auto& tag : raw.tags)
      if (tag.first == name)
        return Error{"line " + std::to_string(line_number) + ": a second [" + name + "] tag"};
    raw.tags.emplace_back(std::move(name), std::move(value));
  }
  return raw;
}

std::string find_tag(const RecordTags& tags, std::string_view name) {
  for (const auto& [key, value] : tags)
    if (key == name) return value;
  return "";
}

bool has_tag(const RecordTags& tags, std::string_view name) {
  for (const auto& tag : tags)
    if (tag.first == name) return true;
  return false;
}

// Aualé names its only variant "Oware Abapa"; anything else it might write is refused.
Expected<Rules> ogn_rules(const RecordTags& tags) {
  std::string variant = find_tag(tags, "Variant");
  if (variant.empty() || variant == "?" || variant == "Oware Abapa") return Rules::oware(4);
  return Error{"unsupported .ogn Variant '" + variant + "' (only 'Oware Abapa' is read)"};
}

}  // namespace

std::string GameRecord::tag(std::string_view name) const {
  return find_tag(tags, name);
}

std::string result_token(const Game& game) {
  if (!game.is_over()) return "*";
  switch (game.outcome().winner) {
    case Winner::South:
      return "1-0";
    case Winner::North:
      return "0-1";
    case Winner::Draw:
      return "1/2-1/2";
  }
  return "*";
}

Expected<bool> check_record_tag(std::string_view name, std::string_view value) {
  // The reader ends a name at the first space and a tag line at its line feed.
  constexpr size_t kMaxNameBytes = 64;
  if (name.empty() || name.size() > kMaxNameBytes ||
      !std::all_of(name.begin(), name.end(),
                   [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }))
    return Error{"tag name '" + std::string(name) +
                 "' must be 1 to 64 letters, digits or _ (as PGN tag names are)"};
  if (std::any_of(value.begin(), value.end(), [](char c) {
        return static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) == 0x7f;
      }))
    return Error{"tag " + std::string(name) +
                 " must be one line of text, without control characters"};
  return true;
}

Expected<std::string> write_record(const Game& game, const RecordTags& tags,
                                   const RecordStyle& style) {
  if (style.ogn && !(game.rules() == Rules::oware(4)))
    return Error{"an .ogn record holds Oware abapa with 4 seeds, not " + game.rules().name()};
  if (!style.result.empty() && style.result != "1-0" && style.result != "0-1" &&
      style.result != "1/2-1/2")
    return Error{"a result is 1-0, 0-1 or 1/2-1/2, not '" + style.result + "'"};
  for (size_t i = 0; i < tags.size(); ++i) {
    if (Expected<bool> ok = check_record_tag(tags[i].first, tags[i].second); !ok)
      return Error{ok.error()};
    for (size_t j = 0; j < i; ++j)
      if (tags[j].first == tags[i].first) return Error{"tag " + tags[i].first + " given twice"};
  }
  std::string out;
  if (style.ogn)
    add_tag(out, "Variant", "Oware Abapa");
  else
    add_tag(out, "Game", game.rules().name());
  for (std::string_view name : {"South", "North", "Date"}) {
    std::string value = find_tag(tags, name);
    add_tag(out, name, value.empty() ? "?" : value);
  }
  const std::string result = style.result.empty() ? result_token(game) : style.result;
  add_tag(out, "Result", result);
  if (!(game.start() == start_position(game.rules())))
    add_tag(out, style.ogn ? "FEN" : "Position", to_string(game.start()));
  for (const auto& [name, value] : tags) {
    if (name == "Game" || name == "Variant" || name == "South" || name == "North" ||
        name == "Date" || name == "Result" || name == "Position" || name == "FEN")
      continue;
    add_tag(out, name, value);
  }
  out += '\n';

  std::string line;
  auto emit = [&](const std::string& token) {
    if (!line.empty() && line.size() + 1 + token.size() > 79) {
      out += line;
      out += '\n';
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += token;
  };
  int turn_number = 1;
  std::string token;
  const auto& moves = game.moves();
  for (size_t ply = 0; ply < moves.size(); ++ply) {
    const Side mover = game.mover_of(ply);
    const bool starts_turn = ply == 0 || game.mover_of(ply - 1) != mover;
    if (starts_turn) {
      if (!token.empty()) emit(token);
      token.clear();
      if (mover == Side::South)
        emit(std::to_string(turn_number++) + ".");
      else if (ply == 0)
        emit(std::to_string(turn_number++) + "...");
    }
    token += move_letter(mover, moves[ply]);
  }
  if (!token.empty()) emit(token);
  emit(result);
  out += line;
  out += '\n';
  return out;
}

Expected<GameRecord> read_record(std::string_view text, int max_moves) {
  Expected<RawRecord> raw = split_record(text);
  if (!raw) return Error{raw.error()};
  const RecordTags& tags = raw->tags;
  const bool ogn = !has_tag(tags, "Game") && (has_tag(tags, "Variant") || has_tag(tags, "FEN"));

  Expected<Rules> rules = Error{""};
  if (ogn)
    rules = ogn_rules(tags);
  else if (has_tag(tags, "Game"))
    rules = parse_rules(find_tag(tags, "Game"));
  else
    return Error{"record has no [Game \"...\"] tag (nor the [Variant] of an .ogn record)"};
  if (!rules) return Error{rules.error()};

  Position start = start_position(*rules);
  const std::string position_text = find_tag(tags, ogn ? "FEN" : "Position");
  if (!position_text.empty()) {
    Expected<Position> parsed = parse_position(*rules, position_text);
    if (!parsed) return Error{parsed.error()};
    start = *parsed;
  }

  GameRecord record{tags, Game(*rules, start)};
  const std::string& movetext = raw->movetext;
  int ply = 0;
  for (size_t i = 0; i < movetext.size(); ++i) {
    const char c = movetext[i];
    if (c == '{' || c == '(') {  // comments and (in .ogn) variations are skipped, unnested
      size_t close = movetext.find(c == '{' ? '}' : ')', i);
      if (close == std::string::npos)
        return Error{"unterminated comment or variation in move text"};
      i = close;
      continue;
    }
    if (!std::isalpha(static_cast<unsigned char>(c))) continue;  // numbers, dots, +K, results
    if (ply == max_moves) return Error{"more than " + std::to_string(max_moves) + " moves"};
    ++ply;
    const std::string letter(1, c);
    if (record.game.is_over())
      return Error{"move " + std::to_string(ply) + " '" + letter + "': the game is already over"};
    Expected<Move> move = parse_move_letter(record.game.position(), letter);
    if (!move) return Error{"move " + std::to_string(ply) + ": " + move.error()};
    if (!record.game.play(*move))
      return Error{"move " + std::to_string(ply) + " '" + letter + "' is not legal in position " +
                   to_string(record.game.position())};
  }
  return record;
}

}  // namespace mancala
