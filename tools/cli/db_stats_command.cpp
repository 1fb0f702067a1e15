// mancala db stats DIR: won, drawn and lost positions and the value histogram per layer, and
// the bits a position its file takes against its values' entropy.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "db/file_io.h"
#include "db/table_file.h"
#include "db/table_set.h"
#include "db/value_code.h"
#include "solver/util/thread_count.h"
#include "tools/cli/commands.h"
#include "tools/cli/stats_chart.h"
#include "tools/command_line/command_line.h"
#include "tools/command_line/endgame_tables.h"
#include "tools/service/validation.h"

namespace mancala::cli {

using namespace command_line;  // the helpers every command line shares

namespace {

namespace fs = std::filesystem;

double bits_per_position(const LayerStats& layer) {
  return static_cast<double>(layer.file_bytes) * 8 / static_cast<double>(layer.positions);
}

struct StatsOptions {
  std::string path;
  bool csv = false;
  std::string plot;
};

void run_stats(const StatsOptions& options) {
  Expected<std::vector<std::string>> tables = db::table_directories(options.path);
  if (!tables) throw Failure(tables.error());
  if (tables->empty()) throw Failure(options.path + ": no tables found (no seeds-00.mtb)");
  if (tables->size() > 1)
    throw UsageError(options.path + " holds several tables; name one of them");
  const std::string& dir = tables->front();
  // The chart is written over whatever is at --plot: never over a table layer (of these tables
  // or any others), nor into the table directory it reads, where a file named like a layer would
  // become one.
  if (!options.plot.empty()) {
    std::error_code ec;
    const fs::path plot_dir = fs::path(options.plot).parent_path();
    if (db::is_table_file(options.plot))
      throw Failure("--plot " + printable(options.plot) +
                    " is a table layer file: the chart is not written over it");
    if (fs::equivalent(plot_dir.empty() ? fs::path(".") : plot_dir, dir, ec))
      throw Failure("--plot " + printable(options.plot) + " is in the table directory " +
                    printable(dir) + ": write the chart elsewhere");
  }
  Expected<db::LayerScan> scan = db::scan_layers(dir);
  if (!scan) throw Failure(scan.error());
  warn_layer_gap(scan->gap_message(dir));
  std::vector<LayerStats> layers;
  std::string name;
  int houses = -1;
  // The file TableSet would read for each layer, which must hold the table and houses of layer
  // 0 and the layer its name says. Every one is opened (its header and index checked) before
  // any is read.
  std::vector<std::shared_ptr<const db::TableFile>> files;
  for (int s = 0; s <= scan->covered; ++s) {
    const bool plain = scan->layers[static_cast<size_t>(s)].plain;
    Expected<std::shared_ptr<const db::TableFile>> file = db::TableFile::open(
        dir + "/" + (plain ? db::plain_layer_file_name(s) : db::layer_file_name(s)), name, houses,
        s);
    if (!file) throw Failure(file.error());
    name = (*file)->table_name();
    houses = static_cast<int>((*file)->header().houses);
    files.push_back(*file);
  }
  // One layer's values are held at a time: the largest must fit in nine tenths of the machine's
  // memory (its control group's limit when lower), checked before the first is read.
  uint64_t largest = 0;
  for (const auto& file : files) largest = std::max(largest, file->size());
  const uint64_t room = service::machine_memory_bytes() / 10 * 9;
  if (largest > room)
    throw Failure(fmt::format(
        "{}: a layer of {} positions needs {} MB to be read, more than the {} MB of memory "
        "there is room for",
        dir, largest, (largest + (1 << 20) - 1) >> 20, room >> 20));
  for (int s = 0; s <= scan->covered; ++s) {
    const std::shared_ptr<const db::TableFile>& file = files[static_cast<size_t>(s)];
    Expected<std::vector<int8_t>> values = file->read_all({}, all_cores());
    if (!values) throw Failure(values.error());
    std::vector<uint64_t> counts(256, 0);
    for (int8_t v : *values) ++counts[static_cast<uint8_t>(v)];
    LayerStats stats;
    stats.seeds = s;
    stats.positions = values->size();
    stats.file_bytes = file->header().file_size;
    // The entropy given the previous value in blocks of the coded format's size (the file's own
    // when it is coded), whatever this file's encoding: the bound the coded format works to.
    const uint32_t block_size =
        file->is_coded() ? file->header().block_size : db::kDefaultCodedBlockSize;
    const db::ValueEntropy entropy =
        db::value_entropy(values->data(), values->size(), block_size, s);
    stats.entropy_order0 = entropy.order0;
    stats.entropy_given_previous = entropy.given_previous;
    for (int v = -128; v < 128; ++v) {
      const uint64_t c = counts[static_cast<uint8_t>(static_cast<int8_t>(v))];
      if (!c) continue;
      stats.histogram[v] = c;
      (v > 0 ? stats.wins : v < 0 ? stats.losses : stats.draws) += c;
    }
    layers.push_back(std::move(stats));
  }
  if (options.csv) {
    fmt::print(
        "seeds,positions,wins,draws,losses,min_value,max_value,histogram,file_bytes,"
        "bits_per_position,entropy_order0,entropy_given_previous\n");
    for (const LayerStats& l : layers) {
      std::string histogram;
      for (auto [v, c] : l.histogram)
        histogram += fmt::format("{}{}:{}", histogram.empty() ? "" : " ", v, c);
      fmt::print("{},{},{},{},{},{},{},\"{}\",{},{:.4f},{:.4f},{:.4f}\n", l.seeds, l.positions,
                 l.wins, l.draws, l.losses, l.histogram.begin()->first, l.histogram.rbegin()->first,
                 histogram, l.file_bytes, bits_per_position(l), l.entropy_order0,
                 l.entropy_given_previous);
    }
  } else {
    fmt::print("table {} ({})\n", name, dir);
    fmt::print("{:>5} {:>14} {:>8} {:>8} {:>8} {:>9} {:>6} {:>7}  values (value:share%)\n", "seeds",
               "positions", "won%", "drawn%", "lost%", "bits/pos", "H0", "H|prev");
    uint64_t positions = 0, bytes = 0;
    double order0 = 0, given_previous = 0;  // bits, over every position
    for (const LayerStats& l : layers) {
      const double n = static_cast<double>(l.positions) / 100.0;
      std::string histogram;
      for (auto [v, c] : l.histogram)
        if (static_cast<double>(c) / n >= 0.5)
          histogram += fmt::format(" {}:{:.0f}", v, static_cast<double>(c) / n);
      fmt::print("{:>5} {:>14} {:>8.2f} {:>8.2f} {:>8.2f} {:>9.3f} {:>6.3f} {:>7.3f} {}\n", l.seeds,
                 l.positions, static_cast<double>(l.wins) / n, static_cast<double>(l.draws) / n,
                 static_cast<double>(l.losses) / n, bits_per_position(l), l.entropy_order0,
                 l.entropy_given_previous, histogram);
      positions += l.positions;
      bytes += l.file_bytes;
      order0 += l.entropy_order0 * static_cast<double>(l.positions);
      given_previous += l.entropy_given_previous * static_cast<double>(l.positions);
    }
    const double all = static_cast<double>(positions);
    fmt::print("{:>5} {:>14} {:>8} {:>8} {:>8} {:>9.3f} {:>6.3f} {:>7.3f}\n", "all", positions, "",
               "", "", static_cast<double>(bytes) * 8 / all, order0 / all, given_previous / all);
    fmt::print(
        "bits/pos: the layer file's bytes (header, index and code included) a position; H0: the "
        "entropy of a value; H|prev: given the value before it in its block\n");
  }
  if (!options.plot.empty()) {
    Expected<bool> written = db::write_file_atomically(options.plot, svg_chart(name, layers));
    if (!written) throw Failure(written.error());
    if (!options.csv) fmt::print("plot written to {}\n", options.plot);
  }
}

}  // namespace

void add_db_stats_command(CLI::App& db) {
  auto stats = std::make_shared<StatsOptions>();
  CLI::App* cmd =
      db.add_subcommand("stats", "Won, drawn and lost positions and the value histogram per layer");
  cmd->add_option("DIR", stats->path, "A table directory")->required()->check(path_name());
  cmd->add_flag("--csv", stats->csv,
                "CSV: seeds,positions,wins,draws,losses,min_value,max_value,histogram");
  cmd->add_option("--plot", stats->plot, "Also write an SVG chart to this file")
      ->check(path_name());
  set_command(cmd, [stats] { run_stats(*stats); });
}

}  // namespace mancala::cli
