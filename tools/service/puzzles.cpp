#include "tools/service/puzzles.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "solver/rules/moves.h"
#include "solver/search/search.h"
#include "solver/tables/table_rules.h"
#include "solver/util/random.h"
#include "tools/service/move_text.h"

namespace mancala::service {

namespace {

using Json = nlohmann::ordered_json;

// The search behind a puzzle's depth: small, and made afresh for each puzzle so that the depth
// does not depend on the puzzles looked at before it.
constexpr size_t kPuzzleSearchMegabytes = 1;

// The final store difference for `player` that a move of value `move_value` (probe_root's) from
// `p` (the player to move) leads to with perfect play.
int final_lead(const Position& p, int move_value) {
  return p.mover_lead() + move_value;
}

// One step of the player's, judged by the tables: how many legal moves, and which reach the goal.
struct Step {
  ProbeStatus status = ProbeStatus::NotCovered;
  int legal = 0;
  std::vector<Move> winning;
  std::vector<Move> drawing;
};

Step judge_step(const Rules& table_rules, const ExactValues& tables, const Position& p) {
  const RootProbe probe = probe_root(table_rules, tables, p);
  Step step;
  step.status = probe.status;
  if (!probe.ok()) return step;
  step.legal = probe.count;
  for (int i = 0; i < probe.count; ++i) {
    const int lead = final_lead(p, probe.move_values[static_cast<size_t>(i)]);
    if (lead > 0) step.winning.push_back(probe.moves[static_cast<size_t>(i)]);
    if (lead == 0) step.drawing.push_back(probe.moves[static_cast<size_t>(i)]);
  }
  return step;
}

const std::vector<Move>& good_moves(const Step& step, PuzzleGoal goal) {
  return goal == PuzzleGoal::Win ? step.winning : step.drawing;
}

std::string probe_problem(ProbeStatus status, const Position& p) {
  return status == ProbeStatus::NotCovered ? to_string(p) + " is outside the tables"
                                           : "the tables could not be read at " + to_string(p);
}

uint32_t fnv1a(std::string_view text) {
  uint32_t h = 0x811c9dc5u;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x01000193u;
  }
  return h;
}

std::string hex8(uint32_t x) {
  return fmt::format("{:08x}", x);
}

// The rating of a puzzle: where a player of that Glicko rating is expected to solve it half the
// time. Read from what makes the answer hard to see: the shallowest search that finds every
// answer (a move greed or a glance finds is easy), the player's moves in the line, and a draw to
// hold rather than a win to take. 1000 for a one-move win a one-ply search finds.
int rating_of(const Puzzle& puzzle) {
  const int rating = 1000 + 120 * (puzzle.search_depth - 1) + 150 * (puzzle.player_moves - 1) +
                     (puzzle.goal == PuzzleGoal::Draw ? 100 : 0);
  return std::clamp(rating, 600, 2800);
}

// The shallowest depth from which the search (no tables) picks `answer` at `p` at every depth up
// to kPuzzleSearchDepth (or until it has proven its score); kPuzzleDepthUnseen when never.
int depth_to_see(const Rules& rules, const Position& p, Move answer) {
  Search search(rules, kPuzzleSearchMegabytes, nullptr);
  SearchLimits limits;
  limits.max_depth = kPuzzleSearchDepth;
  int seen_from = kPuzzleDepthUnseen;
  search.run(p, limits, [&](const SearchResult& r) {
    if (r.best != answer)
      seen_from = kPuzzleDepthUnseen;
    else if (seen_from == kPuzzleDepthUnseen)
      seen_from = r.depth;
  });
  return seen_from;
}

}  // namespace

const char* goal_name(PuzzleGoal goal) {
  return goal == PuzzleGoal::Win ? "win" : "draw";
}

const std::vector<std::string>& puzzle_themes() {
  static const std::vector<std::string> themes = {
      "capture", "extra-turn", "extra-turn-chain", "grand-slam", "feeding", "counting", "saving"};
  return themes;
}

Expected<bool> check_puzzle_request(const Rules& rules, const ExactValues& tables,
                                    const PuzzleBuildRequest& request) {
  if (Expected<Rules> table_rules = table_rules_for(rules); !table_rules)
    return Error{table_rules.error()};
  if (request.count < 1) return Error{"the number of puzzles must be at least 1"};
  if (request.max_player_moves < 1) return Error{"a line must hold at least one move"};
  if (request.min_seeds < 2 || request.min_seeds > request.max_seeds)
    return Error{fmt::format("seeds on the board from {} to {}: need 2 <= smallest <= largest",
                             request.min_seeds, request.max_seeds)};
  if (request.max_seeds > rules.total_seeds())
    return Error{fmt::format("{} holds only {} seeds", rules.name(), rules.total_seeds())};
  if (tables.max_seeds() < request.max_seeds)
    return Error{fmt::format("the {} tables hold up to {} seeds on the board, not {}",
                             rules.table_name(), tables.max_seeds(), request.max_seeds)};
  return true;
}

Expected<Puzzle> make_puzzle(const Rules& rules, const ExactValues& tables, const Position& start,
                             int max_player_moves) {
  const Expected<Rules> table_rules = table_rules_for(rules);
  if (!table_rules) return Error{table_rules.error()};
  if (is_game_over(rules, start)) return Error{to_string(start) + ": the game is over"};
  const Side player = start.side_to_move;

  Puzzle puzzle;
  puzzle.position = start;
  const Step first = judge_step(*table_rules, tables, start);
  if (first.status != ProbeStatus::Ok) return Error{probe_problem(first.status, start)};
  if (first.legal < 2) return Error{to_string(start) + ": fewer than two legal moves"};
  if (!first.winning.empty())
    puzzle.goal = PuzzleGoal::Win;
  else if (!first.drawing.empty())
    puzzle.goal = PuzzleGoal::Draw;
  else
    return Error{to_string(start) + ": every move loses"};
  if (good_moves(first, puzzle.goal).size() != 1)
    return Error{fmt::format("{}: {} moves {}", to_string(start),
                             good_moves(first, puzzle.goal).size(),
                             puzzle.goal == PuzzleGoal::Win ? "win" : "draw")};

  // The line: the player's one good move, the computer's best answer (the first in house order of
  // the best value), and on while the player again has exactly one good move among two or more.
  // It ends with a move of the player's, or with the computer's move that ends the game.
  bool capture = false, extra_turn = false, chain = false, grand_slam = false, feeding = false;
  int extra_run = 0;
  Position p = start;
  std::vector<Side> movers;  // of each move of the line
  while (!is_game_over(rules, p)) {
    if (p.side_to_move == player) {
      if (puzzle.player_moves == max_player_moves) break;
      const Step step = puzzle.line.empty() ? first : judge_step(*table_rules, tables, p);
      if (step.status == ProbeStatus::Failed) return Error{probe_problem(step.status, p)};
      if (step.status != ProbeStatus::Ok || step.legal < 2 ||
          good_moves(step, puzzle.goal).size() != 1)
        break;
      const Move move = good_moves(step, puzzle.goal).front();
      // Oware's feeding rule: with the opponent's row empty, the move must give it seeds.
      if (rules.kind == GameKind::Oware && p.seeds_in_houses(opponent(player)) == 0) feeding = true;
      MoveEffect effect;
      const Position after = apply_move(rules, p, move, &effect);
      capture = capture || effect.captured > 0;
      grand_slam = grand_slam || effect.grand_slam;
      extra_run = effect.extra_turn ? extra_run + 1 : 0;
      extra_turn = extra_turn || effect.extra_turn;
      chain = chain || extra_run >= 2;
      movers.push_back(player);
      puzzle.line.push_back(move);
      ++puzzle.player_moves;
      p = after;
    } else {
      const RootProbe probe = probe_root(*table_rules, tables, p);
      if (probe.status == ProbeStatus::Failed) return Error{probe_problem(probe.status, p)};
      // Outside the tables the line ends; inside, the game not being over, there is a best move.
      const std::optional<Move> answer = probe.ok() ? probe.first_best_move() : std::nullopt;
      if (!answer) break;
      movers.push_back(p.side_to_move);
      puzzle.line.push_back(*answer);
      p = apply_move(rules, p, *answer);
    }
  }
  // The computer's answers after the player's last move stay only when they end the game.
  if (!is_game_over(rules, p)) {
    while (!movers.empty() && movers.back() != player) {
      movers.pop_back();
      puzzle.line.pop_back();
    }
    p = start;
    for (Move m : puzzle.line) p = apply_move(rules, p, m);
  }
  const bool counting = is_game_over(rules, p);

  std::vector<std::string> themes;
  const bool has[] = {
      capture, extra_turn, chain, grand_slam, feeding, counting, puzzle.goal == PuzzleGoal::Draw};
  for (size_t i = 0; i < puzzle_themes().size(); ++i)
    if (has[i]) themes.push_back(puzzle_themes()[i]);
  puzzle.themes = std::move(themes);

  // How deep a search without the tables must look to find every answer of the player's.
  int depth = 1;
  Position q = start;
  for (Move m : puzzle.line) {
    if (q.side_to_move == player) depth = std::max(depth, depth_to_see(rules, q, m));
    q = apply_move(rules, q, m);
  }
  puzzle.search_depth = depth;
  puzzle.rating = rating_of(puzzle);
  puzzle.id = hex8(fnv1a(rules.name() + "|" + to_string(start)));
  return puzzle;
}

Expected<PuzzleLibrary> build_library(const Rules& rules, const ExactValues& tables,
                                      const PuzzleBuildRequest& request) {
  if (Expected<bool> ok = check_puzzle_request(rules, tables, request); !ok)
    return Error{ok.error()};
  PuzzleLibrary library;
  library.rules = rules;
  library.seed = request.seed;
  library.max_seeds = request.max_seeds;
  library.max_player_moves = request.max_player_moves;
  const uint64_t max_tries =
      request.max_tries ? request.max_tries : 4000 * static_cast<uint64_t>(request.count);
  Random random(request.seed);
  std::set<std::string> ids;
  const int houses = rules.houses;
  while (static_cast<int>(library.puzzles.size()) < request.count) {
    if (library.tries == max_tries)
      return Error{fmt::format("found {} puzzles of the {} asked in {} positions tried",
                               library.puzzles.size(), request.count, max_tries)};
    ++library.tries;
    // A start: South to move, s seeds spread over both rows one by one, the stores apart by a
    // few seeds (either way) so that some puzzles ask to win back a deficit and some to hold a
    // lead; the stores' difference has the parity the seeds left for them allow.
    const int span = request.max_seeds - request.min_seeds + 1;
    const int on_board =
        request.min_seeds + static_cast<int>(random.below(static_cast<uint32_t>(span)));
    Position p;
    p.houses = static_cast<uint8_t>(houses);
    p.side_to_move = Side::South;
    // Where the seeds go: over both rows alike (half the starts), mostly on South's row (a
    // quarter: North's few seeds make captures of all of them, Oware's grand slams), or all on
    // South's (a quarter, Oware only: South must feed North).
    const uint32_t spread = random.below(4);
    for (int k = 0; k < on_board; ++k) {
      int field = static_cast<int>(random.below(static_cast<uint32_t>(2 * houses)));
      if (spread == 2 && field >= houses && random.below(2) == 0) field -= houses;
      if (spread == 3 && rules.kind == GameKind::Oware && field >= houses) field -= houses;
      ++p.slots[static_cast<size_t>(field < houses ? field : field + 1)];
    }
    const int in_stores = rules.total_seeds() - on_board;
    int lead = static_cast<int>(random.below(9)) - 4;
    if ((in_stores + lead) % 2 != 0) lead += lead < 0 ? 1 : -1;
    p.slots[static_cast<size_t>(p.store_slot(Side::South))] =
        static_cast<uint16_t>((in_stores + lead) / 2);
    p.slots[static_cast<size_t>(p.store_slot(Side::North))] =
        static_cast<uint16_t>((in_stores - lead) / 2);
    // South needs two houses at least for a question at all, and North seeds, except in Oware,
    // where South must then feed it (the feeding theme).
    int south_houses = 0;
    for (int i = 0; i < houses; ++i) south_houses += p.house(Side::South, i) > 0;
    if (south_houses < 2) continue;
    if (p.seeds_in_houses(Side::North) == 0 && rules.kind != GameKind::Oware) continue;
    Expected<Puzzle> puzzle = make_puzzle(rules, tables, p, request.max_player_moves);
    if (!puzzle) continue;
    if (!ids.insert(puzzle->id).second) continue;  // seen (or, rarely, the same hash): skip
    library.puzzles.push_back(std::move(puzzle).value());
  }
  return library;
}

Expected<bool> verify_library(const PuzzleLibrary& library, const ExactValues& tables) {
  const Rules& rules = library.rules;
  const Expected<Rules> table_rules = table_rules_for(rules);
  if (!table_rules) return Error{table_rules.error()};
  for (const Puzzle& puzzle : library.puzzles) {
    const auto fail = [&](const std::string& what) -> Expected<bool> {
      return Error{fmt::format("puzzle {} ({}): {}", puzzle.id, to_string(puzzle.position), what)};
    };
    if (puzzle.position.seeds_on_board() > tables.max_seeds())
      return fail(fmt::format("{} seeds on the board, the tables hold up to {}",
                              puzzle.position.seeds_on_board(), tables.max_seeds()));
    const Side player = puzzle.position.side_to_move;
    Position p = puzzle.position;
    for (size_t i = 0; i < puzzle.line.size(); ++i) {
      const Move move = puzzle.line[i];
      const char letter = move_letter(p.side_to_move, move);
      if (is_game_over(rules, p))
        return fail(fmt::format("move {} ({}) after the game ended", i + 1, letter));
      if (p.side_to_move == player) {
        const Step step = judge_step(*table_rules, tables, p);
        if (step.status != ProbeStatus::Ok) return fail(probe_problem(step.status, p));
        const std::vector<Move>& good = good_moves(step, puzzle.goal);
        if (step.legal < 2)
          return fail(fmt::format("move {} ({}) is the only legal move", i + 1, letter));
        if (puzzle.goal == PuzzleGoal::Draw && !step.winning.empty())
          return fail(fmt::format("move {}: a move wins where the puzzle asks for a draw", i + 1));
        if (good.size() != 1)
          return fail(fmt::format("move {}: {} moves {}, not one", i + 1, good.size(),
                                  goal_name(puzzle.goal)));
        if (good.front() != move)
          return fail(fmt::format("move {}: {} is the answer, not {}", i + 1,
                                  move_letter(p.side_to_move, good.front()), letter));
      } else {
        const RootProbe probe = probe_root(*table_rules, tables, p);
        if (!probe.ok()) return fail(probe_problem(probe.status, p));
        bool best = false;
        for (int k = 0; k < probe.count; ++k)
          best = best || (probe.moves[static_cast<size_t>(k)] == move && probe.is_best(k));
        if (!best) return fail(fmt::format("move {} ({}) is not a best answer", i + 1, letter));
      }
      p = apply_move(rules, p, move);
    }
    // The rest as make_puzzle gives it: where the line stops, the themes, the depth, the rating.
    const Expected<Puzzle> again =
        make_puzzle(rules, tables, puzzle.position, library.max_player_moves);
    if (!again) return fail(again.error());
    if (again->line != puzzle.line) return fail("the line is not the one the tables give");
    if (again->goal != puzzle.goal) return fail("the goal is not the one the tables give");
    if (again->themes != puzzle.themes) return fail("the themes are not the line's");
    if (again->search_depth != puzzle.search_depth || again->rating != puzzle.rating)
      return fail(fmt::format("rated {} (depth {}), the line gives {} (depth {})", puzzle.rating,
                              puzzle.search_depth, again->rating, again->search_depth));
    if (again->id != puzzle.id) return fail("the id is not the position's");
  }
  return true;
}

std::string library_checksum(const std::vector<Puzzle>& puzzles, const Rules& rules) {
  std::string text;
  for (const Puzzle& puzzle : puzzles)
    text += fmt::format("{} {} {} {} {} {} {}\n", puzzle.id, to_string(puzzle.position),
                        goal_name(puzzle.goal),
                        fmt::join(line_letters(rules, puzzle.position, puzzle.line), ","),
                        fmt::join(puzzle.themes, ","), puzzle.rating, puzzle.search_depth);
  return hex8(fnv1a(text));
}

std::string library_json(const PuzzleLibrary& library) {
  const Rules& rules = library.rules;
  Json head;
  head["format"] = kPuzzleFormat;
  head["version"] = kPuzzleFormatVersion;
  head["game"] = rules.name();
  head["seed"] = library.seed;
  head["max_seeds"] = library.max_seeds;
  head["max_player_moves"] = library.max_player_moves;
  head["count"] = library.puzzles.size();
  head["checksum"] = library_checksum(library.puzzles, rules);
  std::string out = head.dump();
  out.pop_back();  // the closing brace: the puzzles follow, one a line
  out += ",\"puzzles\":[";
  for (size_t i = 0; i < library.puzzles.size(); ++i) {
    const Puzzle& puzzle = library.puzzles[i];
    Json entry;
    entry["id"] = puzzle.id;
    entry["position"] = to_string(puzzle.position);
    entry["goal"] = goal_name(puzzle.goal);
    entry["line"] = line_letters(rules, puzzle.position, puzzle.line);
    entry["themes"] = puzzle.themes;
    entry["rating"] = puzzle.rating;
    entry["depth"] = puzzle.search_depth;
    out += (i ? ",\n" : "\n") + entry.dump(-1, ' ', false, Json::error_handler_t::replace);
  }
  out += "\n]}\n";
  return out;
}

namespace {

// A field of a library that is not what it must be (caught with nlohmann's own errors below).
struct BadField {
  std::string message;
};

// The whole number `name` of `object`, from `low` to `high`. A fraction, or a number out of the
// range, is refused here rather than converted: a JSON float beyond an int's range converts with
// undefined behaviour (found by fuzz_puzzle_library).
int whole_field(const nlohmann::json& object, const char* name, int low, int high) {
  const nlohmann::json& value = object.at(name);
  const bool whole =
      value.is_number_integer() &&
      (!value.is_number_unsigned() || value.get<uint64_t>() <= static_cast<uint64_t>(high)) &&
      value.get<int64_t>() >= low && value.get<int64_t>() <= high;
  if (!whole)
    throw BadField{fmt::format("its {} is not a whole number from {} to {}", name, low, high)};
  return static_cast<int>(value.get<int64_t>());
}

}  // namespace

Expected<PuzzleLibrary> parse_library(std::string_view text, const Rules* expected_rules) {
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object())
    return Error{"not a puzzle library: not a JSON object"};
  try {
    if (!doc.contains("format") || doc.at("format") != kPuzzleFormat)
      return Error{fmt::format("not a puzzle library: the format is not \"{}\"", kPuzzleFormat)};
    if (!doc.at("version").is_number_integer() ||
        doc.at("version").get<int64_t>() != kPuzzleFormatVersion)
      return Error{fmt::format("a puzzle library of version {}; this reads version {}",
                               doc.at("version").dump(), kPuzzleFormatVersion)};
    PuzzleLibrary library;
    const Expected<Rules> rules = parse_rules(doc.at("game").get<std::string>());
    if (!rules) return Error{"the library's game: " + rules.error()};
    library.rules = *rules;
    if (expected_rules && expected_rules->name() != rules->name())
      return Error{
          fmt::format("a library of {}, not of {}", rules->name(), expected_rules->name())};
    if (!doc.at("seed").is_number_unsigned())
      return Error{"not a puzzle library: its seed is not a whole number of 0 or more"};
    library.seed = doc.at("seed").get<uint64_t>();
    library.max_seeds = whole_field(doc, "max_seeds", 0, std::numeric_limits<int>::max());
    library.max_player_moves = whole_field(doc, "max_player_moves", std::numeric_limits<int>::min(),
                                           std::numeric_limits<int>::max());
    if (library.max_player_moves < 1) return Error{"the library's longest line is below one move"};
    const nlohmann::json& puzzles = doc.at("puzzles");
    if (!puzzles.is_array()) return Error{"the library's puzzles are not a list"};
    if (!doc.at("count").is_number_unsigned() || doc.at("count").get<uint64_t>() != puzzles.size())
      return Error{fmt::format("the library says {} puzzles and holds {}", doc.at("count").dump(),
                               puzzles.size())};
    std::set<std::string> ids;
    const std::vector<std::string>& known = puzzle_themes();
    for (const nlohmann::json& entry : puzzles) {
      Puzzle puzzle;
      puzzle.id = entry.at("id").get<std::string>();
      const auto fail = [&](const std::string& what) -> Expected<PuzzleLibrary> {
        return Error{fmt::format("puzzle {}: {}", puzzle.id, what)};
      };
      if (!ids.insert(puzzle.id).second) return fail("the id is there twice");
      const Expected<Position> position =
          parse_position(library.rules, entry.at("position").get<std::string>());
      if (!position) return fail(position.error());
      puzzle.position = *position;
      const std::string goal = entry.at("goal").get<std::string>();
      if (goal != "win" && goal != "draw") return fail("the goal is neither win nor draw");
      puzzle.goal = goal == "win" ? PuzzleGoal::Win : PuzzleGoal::Draw;
      Position p = puzzle.position;
      for (const nlohmann::json& letter : entry.at("line")) {
        if (is_game_over(library.rules, p)) return fail("a move after the end of the game");
        const Expected<Move> move = parse_move_letter(p, letter.get<std::string>());
        if (!move) return fail(move.error());
        if (!generate_moves(library.rules, p).contains(*move))
          return fail(
              fmt::format("{} is not a legal move in {}", letter.get<std::string>(), to_string(p)));
        if (p.side_to_move == puzzle.position.side_to_move) ++puzzle.player_moves;
        puzzle.line.push_back(*move);
        p = apply_move(library.rules, p, *move);
      }
      if (puzzle.player_moves == 0) return fail("the line has no move of the player's");
      for (const nlohmann::json& theme : entry.at("themes")) {
        const std::string name = theme.get<std::string>();
        if (std::find(known.begin(), known.end(), name) == known.end())
          return fail("an unknown theme, " + name);
        puzzle.themes.push_back(name);
      }
      puzzle.rating = whole_field(entry, "rating", std::numeric_limits<int>::min(),
                                  std::numeric_limits<int>::max());
      puzzle.search_depth = whole_field(entry, "depth", std::numeric_limits<int>::min(),
                                        std::numeric_limits<int>::max());
      library.puzzles.push_back(std::move(puzzle));
    }
    const std::string checksum = library_checksum(library.puzzles, library.rules);
    if (doc.at("checksum").get<std::string>() != checksum)
      return Error{fmt::format("the library is damaged: its checksum is {}, its puzzles give {}",
                               doc.at("checksum").get<std::string>(), checksum)};
    return library;
  } catch (const nlohmann::json::exception& e) {
    // A field missing or of the wrong type: nlohmann's words name it.
    return Error{std::string("not a puzzle library: ") + e.what()};
  } catch (const BadField& bad) {
    return Error{"not a puzzle library: " + bad.message};
  }
}

}  // namespace mancala::service
