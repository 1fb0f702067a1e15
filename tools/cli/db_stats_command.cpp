// mancala db stats DIR: won, drawn and lost positions and the value histogram per layer.
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
#include "tools/cli/commands.h"
#include "tools/cli/stats_chart.h"
#include "tools/command_line/cli.h"
#include "tools/command_line/endgame_tables.h"

namespace mancala::cli {

namespace {

namespace fs = std::filesystem;

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
  // 0 and the layer its name says.
  for (int s = 0; s <= scan->covered; ++s) {
    const bool plain = scan->layers[static_cast<size_t>(s)].plain;
    Expected<std::shared_ptr<const db::TableFile>> file = db::TableFile::open(
        dir + "/" + (plain ? db::plain_layer_file_name(s) : db::layer_file_name(s)), name, houses,
        s);
    if (!file) throw Failure(file.error());
    name = (*file)->table_name();
    houses = static_cast<int>((*file)->header().houses);
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
