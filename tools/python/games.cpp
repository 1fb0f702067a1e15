// mancala.Game (the rules of one game), mancala.Position, mancala.Match (a game with its history,
// where the Oware repetition rule lives), game records and perft.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "solver/rules/game.h"
#include "solver/rules/moves.h"
#include "solver/rules/perft.h"
#include "solver/rules/record.h"
#include "tools/python/bindings.h"
#include "tools/service/move_text.h"

namespace mancala::python {

namespace {

// What one move did.
struct MoveResult {
  PositionObject position;
  int captured = 0;
  bool extra_turn = false;
  bool game_over = false;
  bool grand_slam = false;
};

// The end of a game.
struct OutcomeObject {
  int south = 0;
  int north = 0;
  std::string winner;  // "South", "North" or "draw"
  bool repetition = false;

  OutcomeObject(const Outcome& o, bool by_repetition)
      : south(o.south_store),
        north(o.north_store),
        winner(o.winner == Winner::South   ? "South"
               : o.winner == Winner::North ? "North"
                                           : "draw"),
        repetition(by_repetition) {}
};

struct RecordObject {
  std::vector<std::pair<std::string, std::string>> tags;
  Game match;
};

MoveResult play_move(const Rules& rules, const Position& p, Move m) {
  MoveEffect effect;
  const Position after = apply_move(rules, p, m, &effect);
  return {PositionObject(after), effect.captured, effect.extra_turn, effect.game_over,
          effect.grand_slam};
}

OutcomeObject outcome_of(const Rules& rules, const Position& p) {
  if (!is_game_over(rules, p))
    throw py::value_error("the game is not over in " + to_string(p) + " (" +
                          std::string(side_name(p.side_to_move)) + " has moves)");
  return OutcomeObject(final_outcome(rules, p), false);
}

Position position_from_counts(const Rules& rules, const std::vector<int>& houses,
                              std::pair<int, int> stores, const std::string& side) {
  if (houses.size() != static_cast<size_t>(2 * rules.houses))
    throw py::value_error(rules.name() + " has " + std::to_string(2 * rules.houses) +
                          " houses; got " + std::to_string(houses.size()) + " counts");
  std::string text;
  for (int count : houses) text += std::to_string(count) + "-";
  text += std::to_string(stores.first) + "-" + std::to_string(stores.second) + "-";
  text_argument(side, "side to move");
  if (side == "S" || side == "South")
    text += "S";
  else if (side == "N" || side == "North")
    text += "N";
  else
    throw py::value_error("side to move '" + side + "' is not South (S) or North (N)");
  const Expected<Position> p = parse_position(rules, text);
  if (!p) throw py::value_error(p.error());
  return *p;
}

std::string match_repr(const Game& g) {
  return "Match('" + g.rules().name() + "', position='" + to_string(g.position()) + "', " +
         std::to_string(g.moves().size()) + " moves)";
}

std::vector<std::string> match_moves(const Game& g) {
  std::vector<std::string> out;
  for (size_t i = 0; i < g.moves().size(); ++i) out.push_back(letter(g.mover_of(i), g.moves()[i]));
  return out;
}

}  // namespace

void add_games(py::module_& m) {
  py::class_<PositionObject>(m, "Position", py::buffer_protocol(), R"doc(
A position: the seeds in every house and store, and the side to move. Immutable.

str(p) is its position string ("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S": the 2h house counts in sowing
order, South's store, North's store, S or N to move). Get one from Game.start(),
Game.position(text), Game.make_position(...) or Game.apply(...). Its house counts are a buffer:
numpy.asarray(p) is an int32 array of length 2h (South's A.. then North's a..).)doc")
      .def_buffer([](PositionObject& p) {
        return py::buffer_info(p.counts.data(), sizeof(int32_t),
                               py::format_descriptor<int32_t>::format(), 1, {p.house_count()},
                               {sizeof(int32_t)}, /*readonly=*/true);
      })
      .def("__str__", [](const PositionObject& p) { return to_string(p.position); })
      .def("__repr__",
           [](const PositionObject& p) { return "Position('" + to_string(p.position) + "')"; })
      .def("__eq__", [](const PositionObject& a,
                        const PositionObject& b) { return a.position == b.position; })
      .def("__hash__",
           [](const PositionObject& p) { return py::hash(py::str(to_string(p.position))); })
      .def("__len__", &PositionObject::house_count)
      .def_property_readonly(
          "houses",
          [](const PositionObject& p) {
            return std::vector<int>(p.counts.begin(), p.counts.begin() + p.house_count());
          },
          "The 2h house counts in sowing order: South's A.., then North's a...")
      .def_property_readonly(
          "stores",
          [](const PositionObject& p) {
            return std::make_pair(static_cast<int>(p.position.store(Side::South)),
                                  static_cast<int>(p.position.store(Side::North)));
          },
          "(South's store, North's store).")
      .def_property_readonly(
          "side_to_move",
          [](const PositionObject& p) { return std::string(side_name(p.position.side_to_move)); },
          "\"South\" or \"North\".")
      .def_property_readonly(
          "seeds_on_board", [](const PositionObject& p) { return p.position.seeds_on_board(); },
          "Seeds still in the houses (not in a store).")
      .def_property_readonly(
          "mover_lead", [](const PositionObject& p) { return p.position.mover_lead(); },
          "The side to move's store minus the opponent's.");

  py::class_<MoveResult>(m, "MoveResult", "What one move did (Game.play).")
      .def_readonly("position", &MoveResult::position, "The position after the move.")
      .def_readonly("captured", &MoveResult::captured,
                    "Seeds the move captured into the mover's store (sowing into the store is "
                    "not a capture).")
      .def_readonly("extra_turn", &MoveResult::extra_turn, "The mover moves again.")
      .def_readonly("game_over", &MoveResult::game_over, "The move ended the game.")
      .def_readonly("grand_slam", &MoveResult::grand_slam,
                    "Oware: the move would have taken every opposing seed.")
      .def("__repr__", [](const MoveResult& r) {
        return "MoveResult(position='" + to_string(r.position.position) +
               "', captured=" + std::to_string(r.captured) +
               ", extra_turn=" + (r.extra_turn ? "True" : "False") +
               ", game_over=" + (r.game_over ? "True" : "False") + ")";
      });

  py::class_<OutcomeObject>(m, "Outcome", "The end of a game: final stores and the winner.")
      .def_readonly("south", &OutcomeObject::south, "South's final store.")
      .def_readonly("north", &OutcomeObject::north, "North's final store.")
      .def_readonly("winner", &OutcomeObject::winner, "\"South\", \"North\" or \"draw\".")
      .def_readonly("repetition", &OutcomeObject::repetition,
                    "The game ended by the Oware repetition rule.")
      .def_property_readonly(
          "difference", [](const OutcomeObject& o) { return o.south - o.north; },
          "South's final store minus North's.")
      .def("__repr__", [](const OutcomeObject& o) {
        return "Outcome(south=" + std::to_string(o.south) + ", north=" + std::to_string(o.north) +
               ", winner='" + o.winner + "')";
      });

  py::class_<Rules>(m, "Game", R"doc(
The rules of one game, from a GAME string:
  kalah, kalah:H:N, kalah:H:N:empty-capture               (H houses a side, N seeds a house)
  oware, oware:N, oware:N:abapa|grand-slam-captures|awari
  congkak, congkak:H:N, congkak:H:N:no-capture-first-lap
Positions and moves are plain values: g.apply(p, "C") returns a new position. Match keeps a game's
history (for the Oware repetition rule, records and the computer levels).)doc")
      .def(py::init([](const std::string& spec) {
             const Expected<Rules> rules = parse_rules(text_argument(spec, "GAME"));
             if (!rules) throw py::value_error(rules.error());
             return *rules;
           }),
           py::arg("game"), "A game from its GAME string; ValueError if it is not one.")
      .def_property_readonly("name", &Rules::name, "The canonical GAME string.")
      .def_property_readonly(
          "kind", [](const Rules& r) { return std::string(kind_name(r.kind)); },
          "\"kalah\", \"oware\" or \"congkak\".")
      .def_property_readonly(
          "houses", [](const Rules& r) { return static_cast<int>(r.houses); }, "Houses a side.")
      .def_property_readonly(
          "seeds", [](const Rules& r) { return static_cast<int>(r.seeds); },
          "Seeds in each house at the start.")
      .def_property_readonly("total_seeds", &Rules::total_seeds, "Seeds in play.")
      .def_property_readonly("table_name", &Rules::table_name,
                             "The name of its endgame tables (they do not depend on the seeds).")
      .def("__str__", &Rules::name)
      .def("__repr__", [](const Rules& r) { return "Game('" + r.name() + "')"; })
      .def("__eq__", [](const Rules& a, const Rules& b) { return a == b; })
      .def("__hash__", [](const Rules& r) { return py::hash(py::str(r.name())); })
      .def(
          "start", [](const Rules& r) { return PositionObject(start_position(r)); },
          "The start position: every house full, empty stores, South to move.")
      .def(
          "position",
          [](const Rules& r, py::handle text) {
            return PositionObject(position_argument(r, text));
          },
          py::arg("text"), "The position of a position string; ValueError naming the bad field.")
      .def(
          "make_position",
          [](const Rules& r, const std::vector<int>& houses, std::pair<int, int> stores,
             const std::string& side) {
            return PositionObject(position_from_counts(r, houses, stores, side));
          },
          py::arg("houses"), py::arg("stores") = std::make_pair(0, 0),
          py::arg("side_to_move") = "South",
          "A position from its 2h house counts (South's A.., then North's a..), the stores "
          "(South, North) and the side to move (\"South\"/\"S\" or \"North\"/\"N\"); the seeds "
          "must add up to the game's.")
      .def(
          "legal_moves",
          [](const Rules& r, py::handle p) {
            return service::legal_move_letters(r, position_argument(r, p));
          },
          py::arg("position"), "The letters of the legal moves, in house order; [] once over.")
      .def(
          "apply",
          [](const Rules& r, py::handle position, py::handle move) {
            const Position p = position_argument(r, position);
            return PositionObject(apply_move(r, p, move_argument(r, p, move)));
          },
          py::arg("position"), py::arg("move"),
          "The position after a legal move (a letter or the mover's house index); ValueError "
          "for an illegal one.")
      .def(
          "play",
          [](const Rules& r, py::handle position, py::handle move) {
            const Position p = position_argument(r, position);
            return play_move(r, p, move_argument(r, p, move));
          },
          py::arg("position"), py::arg("move"),
          "Like apply, with what the move did: a MoveResult (position, captured, extra_turn, "
          "game_over).")
      .def(
          "is_over",
          [](const Rules& r, py::handle p) { return is_game_over(r, position_argument(r, p)); },
          py::arg("position"),
          "No legal move is left (Oware repetition needs the history: see Match).")
      .def(
          "result",
          [](const Rules& r, py::handle p) { return outcome_of(r, position_argument(r, p)); },
          py::arg("position"),
          "The Outcome of an ended game (the seeds left go to their owners where the rules say "
          "so); ValueError if it is not over.")
      .def(
          "perft",
          [](const Rules& r, py::handle position, int depth) {
            const Position p = position_argument(r, position);
            if (depth < 1) throw py::value_error("perft depth must be at least 1");
            py::gil_scoped_release release;
            return perft(r, p, depth).leaves;
          },
          py::arg("position"), py::arg("depth"),
          "The number of move sequences of `depth` sowings from the position (every sowing counts, "
          "extra turns too). Releases the GIL.");

  py::class_<Game>(m, "Match", R"doc(
A game in progress: the rules, the start, the moves played and the positions between them. The
Oware repetition rule (a position seen a third time ends the game) lives here, not in Game.)doc")
      .def(py::init([](py::handle game, py::handle start) {
             const Rules rules = rules_argument(game);
             return start.is_none() ? Game(rules) : Game(rules, position_argument(rules, start));
           }),
           py::arg("game"), py::arg("start") = py::none(),
           "A new game (a Game or a GAME string) from its start position or `start`.")
      .def_property_readonly("game", &Game::rules, "The Game (rules).")
      .def_property_readonly(
          "start", [](const Game& g) { return PositionObject(g.start()); }, "The first position.")
      .def_property_readonly(
          "position", [](const Game& g) { return PositionObject(g.position()); },
          "The position now.")
      .def_property_readonly("moves", &match_moves, "The moves played, as letters.")
      .def_property_readonly(
          "positions",
          [](const Game& g) {
            std::vector<PositionObject> out{PositionObject(g.start())};
            Position p = g.start();
            for (Move mv : g.moves()) out.emplace_back(p = apply_move(g.rules(), p, mv));
            return out;
          },
          "Every position from the start to now.")
      .def(
          "legal_moves", [](const Game& g) { return service::legal_move_letters(g); },
          "The legal moves now, as letters; [] once the game is over (repetition included).")
      .def(
          "play",
          [](Game& g, py::handle move) {
            if (g.is_over())
              throw py::value_error("the game is already over in " + to_string(g.position()));
            const Move mv = move_argument(g.rules(), g.position(), move);
            MoveEffect effect;
            g.play(mv, &effect);
            return MoveResult{PositionObject(g.position()), effect.captured, effect.extra_turn,
                              effect.game_over, effect.grand_slam};
          },
          py::arg("move"), "Plays a legal move (a letter or house index); returns a MoveResult.")
      .def("undo", &Game::undo, "Takes back the last move; False when there is none.")
      .def("is_over", &Game::is_over, "No legal move is left (repetition included).")
      .def_property_readonly("ended_by_repetition", &Game::ended_by_repetition,
                             "Oware: the game ended because a position came a third time.")
      .def(
          "result",
          [](const Game& g) {
            if (!g.is_over())
              throw py::value_error("the game is not over in " + to_string(g.position()));
            return OutcomeObject(g.outcome(), g.ended_by_repetition());
          },
          "The Outcome of the ended game (after a repetition the seeds left are shared evenly).")
      .def("__len__", [](const Game& g) { return g.moves().size(); })
      .def("__repr__", &match_repr);

  py::class_<RecordObject>(m, "Record", "A game record read by read_record.")
      .def_property_readonly(
          "tags",
          [](const RecordObject& r) {
            py::dict tags;
            for (const auto& [name, value] : r.tags) tags[py::str(name)] = value;
            return tags;
          },
          "The tag pairs, in file order, as a dict.")
      .def_readonly("match", &RecordObject::match, "The game, replayed: a Match.")
      .def("__repr__", [](const RecordObject& r) { return "Record(" + match_repr(r.match) + ")"; });

  m.def(
      "read_record",
      [](const std::string& text) {
        Expected<GameRecord> record = read_record(text_argument(text, "record"));
        if (!record) throw py::value_error(record.error());
        return RecordObject{record->tags, record->game};
      },
      py::arg("text"),
      "Reads a game record (the native PGN-like format or an Aualé .ogn record), replaying its "
      "moves; ValueError names a bad tag or an illegal move.");
  m.def(
      "write_record",
      [](const Game& match, const std::optional<py::dict>& tags) {
        RecordTags out;
        if (tags)
          for (const auto& [name, value] : *tags)
            out.emplace_back(text_argument(py::str(name).cast<std::string>(), "tag name"),
                             text_argument(py::str(value).cast<std::string>(), "tag value"));
        Expected<std::string> record = write_record(match, out);
        if (!record) throw py::value_error(record.error());
        return *record;
      },
      py::arg("match"), py::arg("tags") = py::none(),
      "A record of the match. `tags` (a dict) supplies South, North, Date and any others; Game, "
      "Result and Position come from the match. ValueError for a tag that would not read back "
      "the same (a name other than letters, digits and _, a value with a line break or a "
      "control character).");
}

}  // namespace mancala::python
