// mancala.Tables (a game's endgame tables in a directory: probes, every move's value) and
// mancala.build_tables.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "db/table_answer.h"
#include "db/table_build.h"
#include "db/table_set.h"
#include "db/table_values.h"
#include "solver/tables/exact_values.h"
#include "solver/tables/table_rules.h"
#include "solver/util/thread_count.h"
#include "tools/python/bindings.h"
#include "tools/python/tables.h"
#include "tools/service/validation.h"

namespace mancala::python {

TablesObject::TablesObject(const Rules& game_rules, const std::string& directory)
    : rules(game_rules) {
  Expected<std::shared_ptr<const db::TableSet>> set = db::TableSet::open(directory, rules);
  if (!set) throw TablesFailure(set.error());
  if ((*set)->max_seeds() < 0)
    throw TablesFailure("no " + rules.table_name() + " tables in " + directory +
                        " (build them with mancala.build_tables(\"" + rules.name() + "\", \"" +
                        directory + "\", 16) or: mancala db build " + rules.name() +
                        " --max-seeds 16 --out " + directory + ")");
  values = std::make_unique<db::TableValues>(*set);
}

namespace {

// Every move of one position valued from the tables.
struct ProbeObject {
  std::string position;
  int value = 0;  // what the side to move still gains minus what the opponent gains
  int score = 0;  // the predicted final store difference for the side to move
  py::dict moves;
  std::vector<std::string> best;
};

ProbeObject probe(const TablesObject& tables, const Position& p) {
  db::TableAnswer answer;
  {
    py::gil_scoped_release release;  // a first probe of a layer maps and checks its file
    answer = db::value_every_move(tables.rules, *tables.values, p);
  }
  if (!answer.ok()) throw TablesFailure(answer.message);
  ProbeObject out;
  out.position = to_string(p);
  out.value = answer.value;
  out.score = p.mover_lead() + answer.value;
  // In house order, the order of a dict keyed by the letters (`best` names the best; `mancala db
  // query` and the web API list them best first).
  for (const db::TableMoveValue& m : answer.moves) {
    const std::string move = letter(p.side_to_move, m.move);
    out.moves[py::str(move)] = m.value;
    if (m.value == answer.value) out.best.push_back(move);
  }
  return out;
}

struct LayerProgressObject {
  int seeds = 0;
  std::string phase;
  uint64_t done = 0;
  uint64_t total = 0;
};

struct LayerReportObject {
  int seeds = 0;
  uint64_t positions = 0;
  bool resumed = false;
  bool from_plain_copy = false;
  double seconds = 0;
  uint64_t file_size = 0;
  std::string path;
};

std::vector<LayerReportObject> build(py::handle game, const std::string& directory, int max_seeds,
                                     const py::object& progress) {
  const Rules rules = rules_argument(game);
  if (!table_rules_for(rules)) throw TablesFailure(table_rules_for(rules).error());
  db::BuildRequest request;
  request.rules = rules;
  request.max_seeds = max_seeds;
  request.database_dir = path_argument(directory, "directory");
  request.layer_memory = service::default_layer_memory_bytes();
  request.threads = all_cores();  // the module builds on all cores (OMP_NUM_THREADS limits them)
  if (Expected<bool> valid = db::check_build_request(request); !valid)
    throw TablesFailure(valid.error());
  if (Expected<bool> fits =
          service::check_build_fits_machine(rules, max_seeds, request.layer_memory);
      !fits)
    throw TablesFailure(fits.error() +
                        " (more with `mancala db build --mpi`, over several machines)");
  std::vector<LayerReportObject> layers;
  Expected<bool> done = true;
  {
    py::gil_scoped_release release;
    // Called from this thread between slices of work: it takes the GIL, lets Ctrl-C through and
    // calls the Python callback. An exception ends the build; the layers finished so far stay on
    // disk and a later build resumes from them.
    const LayerProgressFn report = [&progress](const LayerProgress& p) {
      py::gil_scoped_acquire acquire;
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      if (!progress.is_none()) progress(LayerProgressObject{p.seeds, p.phase, p.done, p.total});
    };
    done = db::build_tables(request, report, [&layers](const db::LayerReport& layer) {
      layers.push_back({layer.seeds, layer.positions, layer.resumed, layer.from_plain_copy,
                        layer.seconds, layer.file_size, layer.path});
    });
  }
  if (!done) throw TablesFailure(done.error());
  return layers;
}

}  // namespace

void add_tables(py::module_& m) {
  py::class_<ProbeObject>(m, "Probe", "A position valued from the endgame tables (Tables.probe).")
      .def_readonly("position", &ProbeObject::position, "The position string.")
      .def_readonly("value", &ProbeObject::value,
                    "What the side to move will still gain minus what the opponent will, with "
                    "perfect play (stores not counted).")
      .def_readonly("score", &ProbeObject::score,
                    "The predicted final store difference for the side to move (stores counted).")
      .def_readonly(
          "moves", &ProbeObject::moves,
          "Every legal move's value for the mover, {letter: value} best first (ties in house "
          "order): its "
          "store gain minus the opponent's plus the value of the position after it.")
      .def_readonly("best", &ProbeObject::best, "The moves whose value is the position's.")
      .def("__repr__", [](const ProbeObject& p) {
        return "Probe('" + p.position + "', value=" + std::to_string(p.value) +
               ", moves=" + py::repr(p.moves).cast<std::string>() + ")";
      });

  py::class_<TablesObject, std::shared_ptr<TablesObject>>(m, "Tables", R"doc(
A game's endgame tables in a database directory (as `mancala db build` or build_tables make them):
the exact value of every position with up to max_seeds seeds on the board. Layer files are mapped
on first use. Safe to probe from several threads.)doc")
      .def(py::init([](py::handle game, const std::string& directory) {
             return std::make_shared<TablesObject>(rules_argument(game),
                                                   path_argument(directory, "directory"));
           }),
           py::arg("game"), py::arg("directory"),
           "Opens the tables of `game` (a Game or GAME string) in `directory`; TablesError when "
           "the game has no tables or none are built there.")
      .def_property_readonly(
          "game", [](const TablesObject& t) { return t.rules; }, "The Game.")
      .def_property_readonly(
          "directory", [](const TablesObject& t) { return t.values->tables().directory(); },
          "The table's own directory (inside the database directory).")
      .def_property_readonly(
          "max_seeds", [](const TablesObject& t) { return t.values->max_seeds(); },
          "Positions with up to this many seeds on the board are covered.")
      .def(
          "covers",
          [](const TablesObject& t, py::handle p) {
            return position_argument(t.rules, p).seeds_on_board() <= t.values->max_seeds();
          },
          py::arg("position"), "Are there few enough seeds on the board for the tables?")
      .def(
          "probe",
          [](const TablesObject& t, py::handle p) {
            return probe(t, position_argument(t.rules, p));
          },
          py::arg("position"),
          "Every move's exact value: a Probe (value, score, moves, best). `position` is a "
          "Position or a position string. TablesError outside the tables or when a layer fails.")
      .def("__repr__", [](const TablesObject& t) {
        return "Tables('" + t.rules.name() + "', '" + t.values->tables().directory() +
               "', max_seeds=" + std::to_string(t.values->max_seeds()) + ")";
      });

  py::class_<LayerProgressObject>(m, "LayerProgress", "Progress of a table build.")
      .def_readonly("seeds", &LayerProgressObject::seeds, "The layer being built.")
      .def_readonly("phase", &LayerProgressObject::phase,
                    "\"values\" (Kalah's one pass), or \"exits\" and \"level N\" (Oware); "
                    "\"write\" at the end.")
      .def_readonly("done", &LayerProgressObject::done, "Positions done of `total`.")
      .def_readonly("total", &LayerProgressObject::total)
      .def("__repr__", [](const LayerProgressObject& p) {
        return "LayerProgress(seeds=" + std::to_string(p.seeds) + ", phase='" + p.phase +
               "', done=" + std::to_string(p.done) + ", total=" + std::to_string(p.total) + ")";
      });

  py::class_<LayerReportObject>(m, "LayerReport", "One layer of a table build.")
      .def_readonly("seeds", &LayerReportObject::seeds)
      .def_readonly("positions", &LayerReportObject::positions)
      .def_readonly("resumed", &LayerReportObject::resumed,
                    "The layer was already built and was read back.")
      .def_readonly("from_plain_copy", &LayerReportObject::from_plain_copy,
                    "Resumed from its plain copy (unpacked): nothing decoded.")
      .def_readonly("seconds", &LayerReportObject::seconds)
      .def_readonly("file_size", &LayerReportObject::file_size, "Bytes.")
      .def_readonly("path", &LayerReportObject::path)
      .def("__repr__", [](const LayerReportObject& r) {
        return "LayerReport(seeds=" + std::to_string(r.seeds) +
               ", positions=" + std::to_string(r.positions) +
               ", resumed=" + (r.resumed ? "True" : "False") + ")";
      });

  m.def("build_tables", &build, py::arg("game"), py::arg("directory"), py::arg("max_seeds"),
        py::arg("progress") = py::none(),
        R"doc(
Builds the endgame tables of `game` (Kalah up to 6 houses, Oware) for every position with up to
`max_seeds` seeds on the board into the database `directory`, as `mancala db build` does: layer by
layer, resuming from layers already there. `progress`, if given, is called with a LayerProgress
between slices of work, on the calling thread with the GIL held; an exception it raises (or
Ctrl-C) ends the build, keeping the finished layers. Returns a LayerReport per layer. The build
runs on all cores (OMP_NUM_THREADS limits them) and releases the GIL.)doc");
}

}  // namespace mancala::python
