// mancala db build | unpack | info | verify | query | stats | bench
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "db/table_build.h"
#include "db/table_set.h"
#include "db/table_unpack.h"
#include "db/table_verify.h"
#include "solver/moves.h"
#include "solver/random.h"
#include "tools/cli.h"
#include "tools/progress.h"

namespace mancala::cli {

namespace {

namespace fs = std::filesystem;

std::string database_dir(const std::string& option) {
  return option.empty() ? db::default_database_directory() : option;
}

void set_threads(int threads) {
  if (threads < 0) throw UsageError("--threads must be at least 1");
  if (threads > 0) omp_set_num_threads(threads);
}

// ------------------------------------------------------------------ build

struct BuildOptions {
  std::string game;
  int max_seeds = -1;
  std::string out;
  int threads = 0;
  uint32_t block_size = db::WriteOptions{}.block_size;
  int level = db::WriteOptions{}.compression_level;
  bool quiet = false;
};

void run_build(const BuildOptions& options) {
  const Rules rules = require_rules(options.game);
  set_threads(options.threads);
  if (options.block_size < 64 || options.block_size > (1u << 24))
    throw UsageError("--block-size must be from 64 to 16777216 positions");
  db::BuildRequest request{rules, options.max_seeds, database_dir(options.out), {}};
  request.write.block_size = options.block_size;
  request.write.compression_level = options.level;
  fmt::print("building {} tables up to {} seeds in {} ({} threads)\n", rules.table_name(),
             options.max_seeds, request.database_dir, omp_get_max_threads());
  fmt::print("{:>5} {:>14} {:>7} {:>9} {:>8} {:>8} {:>8} {:>13} {:>9}  {}\n", "seeds", "positions",
             "levels", "seconds", "exits", "levels", "write", "bytes", "bits/pos", "");
  ProgressBar bar(options.quiet);
  uint64_t total_positions = 0, total_bytes = 0;
  double total_seconds = 0;
  Expected<bool> done = db::build_tables(
      request,
      [&](const BuildProgress& p) {
        bar.update(fmt::format("layer {} {}", p.seeds, p.phase), p.done, p.total, "pos");
      },
      [&](const db::LayerReport& layer) {
        bar.finish();
        total_positions += layer.positions;
        total_bytes += layer.file_size;
        total_seconds += layer.seconds;
        fmt::print(
            "{:>5} {:>14} {:>7} {:>9.2f} {:>8.2f} {:>8.2f} {:>8.2f} {:>13} {:>9.3f}  {}\n",
            layer.seeds, layer.positions, layer.resumed ? "-" : std::to_string(layer.levels),
            layer.seconds, layer.exits_seconds, layer.levels_seconds, layer.write_seconds,
            layer.file_size,
            8.0 * static_cast<double>(layer.file_size) / static_cast<double>(layer.positions),
            layer.resumed ? "(kept from an earlier build)" : "");
        std::fflush(stdout);
      });
  if (!done) throw Failure(done.error());
  fmt::print("total {} positions, {} bytes ({:.3f} bits/position), {:.1f} s\n", total_positions,
             total_bytes,
             8.0 * static_cast<double>(total_bytes) / static_cast<double>(total_positions),
             total_seconds);
}

// ------------------------------------------------------------------ unpack

struct UnpackOptions {
  std::string game;
  int max_seeds = -1;  // -1: every layer there is
  std::string db;
  int threads = 0;
  bool quiet = false;
};

void run_unpack(const UnpackOptions& options, bool max_seeds_given) {
  const Rules rules = require_rules(options.game);
  set_threads(options.threads);
  if (max_seeds_given && options.max_seeds < 0) throw UsageError("--max-seeds must be at least 0");
  const db::UnpackRequest request{rules, options.max_seeds, database_dir(options.db)};
  Expected<db::UnpackPlan> plan = db::plan_unpack(request);
  if (!plan) throw Failure(plan.error());
  const int threads = omp_get_max_threads();
  fmt::print("unpacking {} layers 0..{} in {} ({} thread{})\n", rules.table_name(),
             plan->last_layer, plan->directory, threads, threads == 1 ? "" : "s");
  fmt::print("{:>5} {:>14} {:>13} {:>9}\n", "seeds", "positions", "bytes", "seconds");
  ProgressBar bar(options.quiet);
  int written = 0, kept = 0;
  uint64_t written_bytes = 0;
  double seconds = 0;
  Expected<bool> done = db::unpack_tables(
      request,
      [&](const BuildProgress& p) {
        bar.update(fmt::format("layer {} {}", p.seeds, p.phase), p.done, p.total, "pos");
      },
      [&](const db::UnpackLayerReport& layer) {
        bar.finish();
        (layer.kept ? kept : written) += 1;
        if (!layer.kept) written_bytes += layer.file_size;
        seconds += layer.seconds;
        fmt::print("{:>5} {:>14} {:>13} {:>9.2f}  {}\n", layer.seeds, layer.positions,
                   layer.file_size, layer.seconds,
                   layer.kept ? "kept (already unpacked)" : "written");
        std::fflush(stdout);
      });
  bar.finish();
  if (!done) throw Failure(done.error());
  fmt::print("{} layers written ({} bytes), {} kept, {:.2f} s\n", written, written_bytes, kept,
             seconds);
}

// ------------------------------------------------------------------ info

// A table directory, or a database directory holding table directories, sorted.
std::vector<std::string> table_directories(const std::string& path) {
  std::vector<std::string> tables;
  if (!db::preferred_layer_path(path, 0).empty()) return {path};
  if (fs::is_directory(path))
    for (const auto& entry : fs::directory_iterator(path))
      if (entry.is_directory() && !db::preferred_layer_path(entry.path().string(), 0).empty())
        tables.push_back(entry.path().string());
  std::sort(tables.begin(), tables.end());
  return tables;
}

void print_file_info(const db::TableFile& file, bool verbose) {
  const db::TableHeader& h = file.header();
  const double bits =
      8.0 * static_cast<double>(h.file_size) / static_cast<double>(h.position_count);
  if (verbose) {
    fmt::print("file            {}\n", file.path());
    fmt::print("table           {}\n", std::string(h.name, strnlen(h.name, db::kNameSize)));
    fmt::print("format version  {}\n", h.version);
    fmt::print("houses a side   {}\n", h.houses);
    fmt::print("seeds on board  {}\n", h.seeds);
    fmt::print("positions       {}\n", h.position_count);
    if (file.is_plain()) {
      fmt::print("value encoding  plain bytes, uncompressed (read in place)\n");
      fmt::print("file size       {} bytes ({:.3f} bits/position)\n", h.file_size, bits);
      return;
    }
    fmt::print("value encoding  zigzag byte, zstd blocks\n");
    fmt::print("block size      {} positions ({} blocks)\n", h.block_size, h.block_count);
    fmt::print("dictionary      {} bytes\n", h.dictionary_size);
    fmt::print(
        "file size       {} bytes ({:.3f} bits/position, {:.1f}x smaller than a byte each)\n",
        h.file_size, bits, 8.0 / bits);
  } else {
    fmt::print("{:>5} {:>14} {:>7} {:>13} {:>9.3f}  {}\n", h.seeds, h.position_count,
               file.is_plain() ? "-" : std::to_string(h.block_count), h.file_size, bits,
               db::encoding_name(h.value_encoding));
  }
}

void run_info(const std::string& path) {
  if (fs::is_regular_file(path)) {
    Expected<std::shared_ptr<const db::TableFile>> file = db::TableFile::open(path);
    if (!file) throw Failure(file.error());
    print_file_info(**file, true);
    return;
  }
  if (!fs::is_directory(path)) throw Failure(path + ": no such file or directory");
  const std::vector<std::string> tables = table_directories(path);
  if (tables.empty()) throw Failure(path + ": no tables found (no seeds-00.mtb)");
  for (const std::string& dir : tables) {
    // A row per file: a layer with a plain copy has two (the copy is what probes read).
    uint64_t positions = 0, bytes = 0, plain_positions = 0, plain_bytes = 0;
    int plain_layers = 0;
    std::string name;
    fmt::print("{}\n{:>5} {:>14} {:>7} {:>13} {:>9}  {}\n", dir, "seeds", "positions", "blocks",
               "bytes", "bits/pos", "encoding");
    for (int s = 0; !db::preferred_layer_path(dir, s).empty(); ++s) {
      for (const std::string& file_name : {db::layer_file_name(s), db::plain_layer_file_name(s)}) {
        if (!fs::exists(dir + "/" + file_name)) continue;
        Expected<std::shared_ptr<const db::TableFile>> file =
            db::TableFile::open(dir + "/" + file_name);
        if (!file) throw Failure(file.error());
        print_file_info(**file, false);
        const db::TableHeader& h = (*file)->header();
        ((*file)->is_plain() ? plain_positions : positions) += h.position_count;
        ((*file)->is_plain() ? plain_bytes : bytes) += h.file_size;
        plain_layers += (*file)->is_plain();
        name = std::string(h.name, strnlen(h.name, db::kNameSize));
      }
    }
    if (positions)
      fmt::print("table {}: {} positions in {} bytes, {:.3f} bits/position\n", name, positions,
                 bytes, 8.0 * static_cast<double>(bytes) / static_cast<double>(positions));
    if (plain_layers)
      fmt::print(
          "plain copies of {} layers (read instead of the zstd files): {} positions in {} "
          "bytes\n",
          plain_layers, plain_positions, plain_bytes);
    fmt::print("\n");
  }
}

// ------------------------------------------------------------------ verify

void run_verify(const std::string& path, int threads, bool quiet) {
  set_threads(threads);
  const std::vector<std::string> tables = table_directories(path);
  if (tables.empty()) throw Failure(path + ": no tables found (no seeds-00.mtb)");
  bool all_ok = true;
  for (const std::string& dir : tables) {
    ProgressBar bar(quiet);
    Expected<db::VerifyReport> report =
        db::verify_table_directory(dir, [&](const BuildProgress& p) {
          bar.update(fmt::format("layer {} {}", p.seeds, p.phase), p.done, p.total, "pos");
        });
    bar.finish();
    if (!report) throw Failure(report.error());
    for (const std::string& error : report->errors) fmt::print("FAILED {}\n", error);
    for (const db::VerifyMismatch& m : report->first_mismatches)
      fmt::print("MISMATCH layer {} rank {} position {}: stored {}, recomputed {}\n", m.seeds,
                 m.rank, m.position, m.stored, m.recomputed);
    // The note only where the values were checked: a layer that failed stops the verify early.
    const std::string plain_note =
        report->plain_layers && report->layers
            ? fmt::format(" ({} with plain copies, checked too)", report->plain_layers)
            : "";
    fmt::print("{}: {} {} layers{}, {} positions, {} mismatches\n", dir,
               report->ok() ? "OK" : "FAILED", report->layers, plain_note, report->positions,
               report->mismatch_count);
    all_ok = all_ok && report->ok();
  }
  if (!all_ok) throw Failure("verification failed");
}

// ------------------------------------------------------------------ query

struct QueryOptions {
  std::string game;
  std::string position;
  std::string db;
  bool json = false;
};

void run_query(const QueryOptions& options) {
  const Rules rules = require_rules(options.game);
  const Position p = require_position(rules, options.position);
  Expected<std::shared_ptr<const db::TableSet>> tables =
      db::TableSet::open(database_dir(options.db), rules);
  if (!tables) throw Failure(tables.error());
  const Rules table_rules = *table_rules_for(rules);
  const Side mover = p.side_to_move;
  const int stores = p.mover_lead();
  const int seeds = p.seeds_on_board();
  if (seeds > (*tables)->max_seeds())
    throw Failure(fmt::format(
        "{} has {} seeds on the board; the {} tables in {} hold up to {}{}", to_string(p), seeds,
        rules.table_name(), (*tables)->directory(), (*tables)->max_seeds(),
        (*tables)->max_seeds() < 0 ? " (none built: run mancala db build)" : ""));
  db::ProbeResult probe = (*tables)->probe(p);
  if (!probe.ok()) throw Failure(probe.message);
  // A game that is already over by its own rules (the Oware majority, say) has no moves left
  // and its final score is what the rules give, whatever the tables say about playing on.
  const bool over = is_game_over(rules, p);
  if (over) {
    const Outcome end = final_outcome(rules, p);
    probe.value = (mover == Side::South ? end.difference() : -end.difference()) - stores;
  }

  struct MoveValue {
    char letter;
    int value;
  };
  std::vector<MoveValue> moves;
  for (Move m : over ? MoveList{} : generate_moves(table_rules, p)) {
    const Position child = apply_move(table_rules, p, m);
    std::string error;
    const int value = table_move_value(p, child, [&](const Position& after) {
      const db::ProbeResult r = (*tables)->probe(after);
      if (!r.ok()) error = r.message;
      return r.value;
    });
    if (!error.empty()) throw Failure(error);
    moves.push_back({move_letter(mover, m), value});
  }
  int best_value = -1000;
  for (const MoveValue& m : moves) best_value = std::max(best_value, m.value);
  std::vector<char> best;
  for (const MoveValue& m : moves)
    if (m.value == best_value) best.push_back(m.letter);

  if (options.json) {
    std::string move_list, best_list;
    for (const MoveValue& m : moves)
      move_list += fmt::format("{}{{\"move\": \"{}\", \"value\": {}}}",
                               move_list.empty() ? "" : ", ", m.letter, m.value);
    for (char b : best) best_list += fmt::format("{}\"{}\"", best_list.empty() ? "" : ", ", b);
    fmt::print(
        "{{\"game\": {}, \"position\": {}, \"side_to_move\": \"{}\", \"seeds_on_board\": {}, "
        "\"value\": {}, \"score\": {}, \"moves\": [{}], \"best\": [{}]}}\n",
        json_string(rules.name()), json_string(to_string(p)), side_name(mover), seeds, probe.value,
        stores + probe.value, move_list, best_list);
    return;
  }
  fmt::print("position   {} ({} to move, {} seeds on the board)\n", to_string(p), side_name(mover),
             seeds);
  fmt::print("value      {:+}  (what {} will still gain minus what {} will, with perfect play)\n",
             probe.value, side_name(mover), side_name(opponent(mover)));
  fmt::print("score      {:+}  (predicted final store difference for {})\n", stores + probe.value,
             side_name(mover));
  if (moves.empty()) {
    fmt::print("moves      none: the game is over\n");
    return;
  }
  fmt::print("moves\n");
  for (const MoveValue& m : moves)
    fmt::print("  {}  {:+}{}\n", m.letter, m.value, m.value == best_value ? "  best" : "");
}

// ------------------------------------------------------------------ stats

struct StatsOptions {
  std::string path;
  bool csv = false;
  std::string plot;
};

struct LayerStats {
  int seeds = 0;
  uint64_t positions = 0, wins = 0, draws = 0, losses = 0;
  std::map<int, uint64_t> histogram;
};

std::string svg_plot(const std::string& title, const std::vector<LayerStats>& layers) {
  // Stacked bars per layer: the share of won (green), drawn (grey) and lost (red) positions.
  const int width = 900, height = 420, left = 60, right = 20, top = 50, bottom = 50;
  const double bar = static_cast<double>(width - left - right) / static_cast<double>(layers.size());
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "font-family=\"sans-serif\" "
      "font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{}\" y=\"25\" font-size=\"16\">{}: won, drawn and lost positions for the side to "
      "move</text>\n",
      width, height, left, title);
  const double plot_h = height - top - bottom;
  for (size_t i = 0; i < layers.size(); ++i) {
    const LayerStats& l = layers[i];
    const double x = left + static_cast<double>(i) * bar;
    double y = top;
    const double n = static_cast<double>(l.positions);
    for (auto [count, color] :
         {std::pair{l.wins, "#2e8b57"}, {l.draws, "#b0b0b0"}, {l.losses, "#c0392b"}}) {
      const double h = plot_h * static_cast<double>(count) / n;
      svg += fmt::format(
          "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\"/>\n",
          x + 1, y, bar - 2, h, color);
      y += h;
    }
    if (layers.size() <= 30 || i % 2 == 0)
      svg += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                         x + bar / 2, height - bottom + 16, l.seeds);
  }
  for (int pct = 0; pct <= 100; pct += 25)
    svg += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}%</text>\n", left - 6,
                       top + plot_h * (1 - pct / 100.0) + 4, pct);
  svg += fmt::format(
      "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">seeds on the board</text>\n"
      "<rect x=\"{}\" y=\"32\" width=\"10\" height=\"10\" fill=\"#2e8b57\"/><text x=\"{}\" "
      "y=\"41\">won</text>\n"
      "<rect x=\"{}\" y=\"32\" width=\"10\" height=\"10\" fill=\"#b0b0b0\"/><text x=\"{}\" "
      "y=\"41\">drawn</text>\n"
      "<rect x=\"{}\" y=\"32\" width=\"10\" height=\"10\" fill=\"#c0392b\"/><text x=\"{}\" "
      "y=\"41\">lost</text>\n"
      "</svg>\n",
      left + (width - left - right) / 2, height - 12, width - 260, width - 246, width - 190,
      width - 176, width - 110, width - 96);
  return svg;
}

void run_stats(const StatsOptions& options) {
  const std::vector<std::string> tables = table_directories(options.path);
  if (tables.empty()) throw Failure(options.path + ": no tables found (no seeds-00.mtb)");
  if (tables.size() > 1) throw UsageError(options.path + " holds several tables; name one of them");
  const std::string& dir = tables.front();
  std::vector<LayerStats> layers;
  std::string name;
  for (int s = 0; !db::preferred_layer_path(dir, s).empty(); ++s) {
    Expected<std::shared_ptr<const db::TableFile>> file =
        db::TableFile::open(db::preferred_layer_path(dir, s));
    if (!file) throw Failure(file.error());
    name = std::string((*file)->header().name, strnlen((*file)->header().name, db::kNameSize));
    Expected<std::vector<int8_t>> values = (*file)->read_all();
    if (!values) throw Failure(values.error());
    std::vector<uint64_t> counts(256, 0);
    for (int8_t v : *values) ++counts[static_cast<uint8_t>(v)];
    LayerStats stats;
    stats.seeds = s;
    stats.positions = values->size();
    for (int v = -128; v < 128; ++v) {
      const uint64_t c = counts[static_cast<uint8_t>(static_cast<int8_t>(v))];
      if (!c) continue;
      stats.histogram[v] = c;
      (v > 0 ? stats.wins : v < 0 ? stats.losses : stats.draws) += c;
    }
    layers.push_back(std::move(stats));
  }
  if (options.csv) {
    fmt::print("seeds,positions,wins,draws,losses,min_value,max_value,histogram\n");
    for (const LayerStats& l : layers) {
      std::string histogram;
      for (auto [v, c] : l.histogram)
        histogram += fmt::format("{}{}:{}", histogram.empty() ? "" : " ", v, c);
      fmt::print("{},{},{},{},{},{},{},\"{}\"\n", l.seeds, l.positions, l.wins, l.draws, l.losses,
                 l.histogram.begin()->first, l.histogram.rbegin()->first, histogram);
    }
  } else {
    fmt::print("table {} ({})\n", name, dir);
    fmt::print("{:>5} {:>14} {:>8} {:>8} {:>8}  values (value:share%)\n", "seeds", "positions",
               "won%", "drawn%", "lost%");
    for (const LayerStats& l : layers) {
      const double n = static_cast<double>(l.positions) / 100.0;
      std::string histogram;
      for (auto [v, c] : l.histogram)
        if (static_cast<double>(c) / n >= 0.5)
          histogram += fmt::format(" {}:{:.0f}", v, static_cast<double>(c) / n);
      fmt::print("{:>5} {:>14} {:>8.2f} {:>8.2f} {:>8.2f} {}\n", l.seeds, l.positions,
                 static_cast<double>(l.wins) / n, static_cast<double>(l.draws) / n,
                 static_cast<double>(l.losses) / n, histogram);
    }
  }
  if (!options.plot.empty()) {
    std::ofstream out(options.plot);
    out << svg_plot(name, layers);
    if (!out) throw Failure("cannot write " + options.plot);
    if (!options.csv) fmt::print("plot written to {}\n", options.plot);
  }
}

// ------------------------------------------------------------------ bench (probe speed)

struct ProbeBenchOptions {
  std::string game;
  std::string db;
  uint64_t probes = 1000000;
  int threads = 0;
  bool json = false;
};

struct ProbeSample {
  int seeds;
  TableKey key;
};

// Probes per second over `samples`, with the threads in force.
double time_probes(const db::TableSet& tables, const std::vector<ProbeSample>& samples) {
  std::atomic<uint64_t> failures{0};
  int64_t checksum = 0;
  const auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static) reduction(+ : checksum)
  for (size_t i = 0; i < samples.size(); ++i) {
    const db::ProbeResult r = tables.probe_key(samples[i].seeds, samples[i].key);
    if (!r.ok()) failures.fetch_add(1);
    checksum += r.value;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (failures.load()) throw Failure(fmt::format("{} probes failed", failures.load()));
  volatile int64_t sink = checksum;
  (void)sink;
  return static_cast<double>(samples.size()) / seconds;
}

void run_probe_bench(const ProbeBenchOptions& options) {
  const Rules rules = require_rules(options.game);
  Expected<std::shared_ptr<const db::TableSet>> opened =
      db::TableSet::open(database_dir(options.db), rules);
  if (!opened) throw Failure(opened.error());
  const db::TableSet& tables = **opened;
  const int top = tables.max_seeds();
  if (top < 0) throw Failure("no " + rules.table_name() + " tables in " + tables.directory());
  const TableIndex index(2 * rules.houses, top);
  // Warm cache: open every layer and read all of its bytes once.
  uint64_t total = 0, bytes = 0;
  for (int s = 0; s <= top; ++s) {
    Expected<std::shared_ptr<const db::TableFile>> file = tables.layer(s);
    if (!file) throw Failure(file.error());
    if (!(*file)->data_checksum_ok()) throw Failure((*file)->path() + ": corrupt data");
    total += index.layer_size(s);
    bytes += (*file)->header().file_size;
  }
  // Uniform: every position of every layer equally likely.
  Random random(12345);
  std::vector<ProbeSample> uniform(options.probes);
  for (ProbeSample& sample : uniform) {
    uint64_t i = (random.next() >> 11) % total;
    int s = 0;
    while (i >= index.layer_size(s)) i -= index.layer_size(s++);
    sample.seeds = s;
    index.unrank(i, s, sample.key.counts.data());
  }
  // Playouts: the positions of random games inside the tables, in order, as a search meets
  // them (each near the one before).
  const Rules table_rules = *table_rules_for(rules);
  std::vector<ProbeSample> playout;
  playout.reserve(options.probes);
  while (playout.size() < options.probes) {
    const ProbeSample& from = uniform[playout.size() % uniform.size()];
    Position p = position_from_key(from.key.counts.data(), rules.houses);
    while (playout.size() < options.probes) {
      playout.push_back({p.seeds_on_board(), table_key(p)});
      const MoveList moves = generate_moves(table_rules, p);
      if (moves.empty()) break;
      p = apply_move(table_rules, p,
                     moves[static_cast<int>(random.below(static_cast<uint32_t>(moves.size())))]);
      p.slots[p.store_slot(Side::South)] = 0;  // table positions have empty stores
      p.slots[p.store_slot(Side::North)] = 0;
    }
  }
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  time_probes(tables, uniform);  // fill this thread's cache state fairly for both runs
  const double uniform_one = time_probes(tables, uniform);
  const double playout_one = time_probes(tables, playout);
  omp_set_num_threads(threads);
  const double uniform_all = time_probes(tables, uniform);
  const double playout_all = time_probes(tables, playout);
  if (options.json) {
    fmt::print(
        "{{\"table\": {}, \"max_seeds\": {}, \"positions\": {}, \"bytes\": {}, \"probes\": {}, "
        "\"threads\": {}, \"uniform_per_second_one_thread\": {:.0f}, "
        "\"uniform_per_second_all_threads\": {:.0f}, "
        "\"playout_per_second_one_thread\": {:.0f}, \"playout_per_second_all_threads\": {:.0f}}}\n",
        json_string(rules.table_name()), top, total, bytes, options.probes, threads, uniform_one,
        uniform_all, playout_one, playout_all);
    return;
  }
  fmt::print("{} tables 0..{} seeds: {} positions, {} bytes ({:.3f} bits/position)\n",
             rules.table_name(), top, total, bytes,
             8.0 * static_cast<double>(bytes) / static_cast<double>(total));
  fmt::print("{} probes, files in the page cache\n", options.probes);
  fmt::print("  uniform random   1 thread: {:>12.0f} probes/s   {} threads: {:>12.0f} probes/s\n",
             uniform_one, threads, uniform_all);
  fmt::print("  random playouts  1 thread: {:>12.0f} probes/s   {} threads: {:>12.0f} probes/s\n",
             playout_one, threads, playout_all);
}

}  // namespace

void add_db_command(CLI::App& app) {
  CLI::App* db = app.add_subcommand(
      "db", "Endgame databases: build, unpack, info, verify, query, stats, bench");
  db->require_subcommand(1);

  auto build = std::make_shared<BuildOptions>();
  CLI::App* cmd =
      db->add_subcommand("build", "Build a game's endgame tables (resumes an interrupted build)");
  cmd->add_option("GAME", build->game, "kalah[:H:N[:empty-capture]] (H <= 6) or oware[:N[:RULES]]")
      ->required();
  cmd->add_option("--max-seeds,-s", build->max_seeds,
                  "Build every layer up to this many seeds on the board")
      ->required();
  cmd->add_option("--out,-o", build->out,
                  "Database directory (default $MANCALA_DB or ~/.local/share/mancala/db)");
  cmd->add_option("--threads,-t", build->threads, "Threads (default: all cores)");
  cmd->add_option("--block-size", build->block_size, "Positions per compressed block");
  cmd->add_option("--level", build->level, "zstd compression level (1-22)");
  cmd->add_flag("--quiet,-q", build->quiet, "No progress bar");
  cmd->callback([build] { run_build(*build); });

  auto unpack = std::make_shared<UnpackOptions>();
  cmd = db->add_subcommand(
      "unpack",
      "Plain (uncompressed) copies of a game's tables, read in place by probes: faster solves, "
      "~1 byte a position on disk (resumes)");
  cmd->add_option("GAME", unpack->game, "Game whose tables to unpack, e.g. kalah, oware")
      ->required();
  CLI::Option* unpack_max_seeds =
      cmd->add_option("--max-seeds,-s", unpack->max_seeds,
                      "Unpack layers 0..S (default: every layer the directory has)");
  cmd->add_option("--db", unpack->db,
                  "Database directory (default $MANCALA_DB or ~/.local/share/mancala/db)");
  cmd->add_option("--threads,-t", unpack->threads, "Threads decoding (default: all cores)");
  cmd->add_flag("--quiet,-q", unpack->quiet, "No progress bar");
  cmd->callback([unpack, unpack_max_seeds] { run_unpack(*unpack, unpack_max_seeds->count() > 0); });

  auto info = std::make_shared<std::string>();
  cmd =
      db->add_subcommand("info", "What a table file or directory holds and how well it compressed");
  cmd->add_option("PATH", *info, "A layer file, a table directory or a database directory")
      ->required();
  cmd->callback([info] { run_info(*info); });

  struct VerifyOptions {
    std::string path;
    int threads = 0;
    bool quiet = false;
  };
  auto verify = std::make_shared<VerifyOptions>();
  cmd = db->add_subcommand("verify", "Check checksums and that every stored value is consistent");
  cmd->add_option("DIR", verify->path, "A table directory or a database directory")->required();
  cmd->add_option("--threads,-t", verify->threads, "Threads (default: all cores)");
  cmd->add_flag("--quiet,-q", verify->quiet, "No progress bar");
  cmd->callback([verify] { run_verify(verify->path, verify->threads, verify->quiet); });

  auto query = std::make_shared<QueryOptions>();
  cmd = db->add_subcommand("query", "A position's exact value and the value of every move");
  cmd->add_option("GAME", query->game, "Game and variant, e.g. kalah, oware")->required();
  cmd->add_option("POSITION", query->position, "Position string")->required();
  cmd->add_option("--db", query->db,
                  "Database directory (default $MANCALA_DB or ~/.local/share/mancala/db)");
  cmd->add_flag("--json", query->json, "Print one JSON object");
  cmd->callback([query] { run_query(*query); });

  auto bench = std::make_shared<ProbeBenchOptions>();
  cmd = db->add_subcommand("bench",
                           "Probes per second: uniform random positions and random playouts");
  cmd->add_option("GAME", bench->game, "Game whose tables to probe, e.g. kalah, oware")->required();
  cmd->add_option("--db", bench->db,
                  "Database directory (default $MANCALA_DB or ~/.local/share/mancala/db)");
  cmd->add_option("--probes,-n", bench->probes, "Probes per run (default 1000000)");
  cmd->add_option("--threads,-t", bench->threads,
                  "Threads for the all-threads run (default: all cores)");
  cmd->add_flag("--json", bench->json, "Print one JSON object");
  cmd->callback([bench] {
    set_threads(bench->threads);
    run_probe_bench(*bench);
  });

  auto stats = std::make_shared<StatsOptions>();
  cmd = db->add_subcommand("stats",
                           "Won, drawn and lost positions and the value histogram per layer");
  cmd->add_option("DIR", stats->path, "A table directory")->required();
  cmd->add_flag("--csv", stats->csv,
                "CSV: seeds,positions,wins,draws,losses,min_value,max_value,histogram");
  cmd->add_option("--plot", stats->plot, "Also write an SVG chart to this file");
  cmd->callback([stats] { run_stats(*stats); });
}

}  // namespace mancala::cli
