// mancala db info PATH: what a layer file, a table directory or a database directory holds.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "db/file_io.h"
#include "db/table_blocks.h"
#include "db/table_file.h"
#include "db/table_set.h"
#include "tools/cli/commands.h"
#include "tools/command_line/command_line.h"
#include "tools/command_line/endgame_tables.h"

namespace mancala::cli {

using namespace command_line;  // the helpers every command line shares

namespace {

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
    if (file.is_coded()) {
      fmt::print("value encoding  Huffman codes in context of the previous value, small blocks\n");
      fmt::print("block size      {} positions ({} blocks, {} index groups)\n", h.block_size,
                 h.block_count, db::coded_group_count(h.block_count));
      fmt::print("code            {} bytes\n", h.dictionary_size);
    } else {
      fmt::print("value encoding  zigzag byte, zstd blocks\n");
      fmt::print("block size      {} positions ({} blocks)\n", h.block_size, h.block_count);
      fmt::print("dictionary      {} bytes\n", h.dictionary_size);
    }
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
  Expected<db::PathKind> kind = db::path_kind(path);
  if (!kind) throw Failure(kind.error());
  if (*kind == db::PathKind::Missing) throw Failure(path + ": no such file or directory");
  if (*kind != db::PathKind::Directory) {
    // One file. A layer file's name says which layer it must hold.
    Expected<std::shared_ptr<const db::TableFile>> file =
        db::TableFile::open(path, "", -1, db::layer_of_file_name(path));
    if (!file) throw Failure(file.error());
    print_file_info(**file, true);
    return;
  }
  Expected<std::vector<std::string>> found = db::table_directories(path);
  if (!found) throw Failure(found.error());
  if (found->empty()) throw Failure(path + ": no tables found (no seeds-00.mtb)");
  for (const std::string& dir : *found) {
    Expected<db::LayerScan> scan = db::scan_layers(dir);
    if (!scan) throw Failure(scan.error());
    warn_layer_gap(scan->gap_message(dir));
    // A row per file: a layer with a plain copy has two (the copy is what probes read). Every
    // file must hold the table and houses of the first, and the layer its name says.
    uint64_t positions = 0, bytes = 0, plain_positions = 0, plain_bytes = 0;
    int plain_layers = 0, houses = -1;
    std::string name;
    fmt::print("{}\n{:>5} {:>14} {:>7} {:>13} {:>9}  {}\n", dir, "seeds", "positions", "blocks",
               "bytes", "bits/pos", "encoding");
    for (int s = 0; s <= scan->top; ++s) {
      const db::LayerFiles& files = scan->layers[static_cast<size_t>(s)];
      for (const bool plain : {false, true}) {
        if (!(plain ? files.plain : files.compressed)) continue;
        Expected<std::shared_ptr<const db::TableFile>> file = db::TableFile::open(
            dir + "/" + (plain ? db::plain_layer_file_name(s) : db::layer_file_name(s)), name,
            houses, s);
        if (!file) throw Failure(file.error());
        print_file_info(**file, false);
        const db::TableHeader& h = (*file)->header();
        ((*file)->is_plain() ? plain_positions : positions) += h.position_count;
        ((*file)->is_plain() ? plain_bytes : bytes) += h.file_size;
        plain_layers += (*file)->is_plain();
        name = (*file)->table_name();
        houses = static_cast<int>(h.houses);
      }
    }
    if (positions)
      fmt::print("table {}: {} positions in {} bytes, {:.3f} bits/position\n", name, positions,
                 bytes, 8.0 * static_cast<double>(bytes) / static_cast<double>(positions));
    if (plain_layers)
      fmt::print(
          "plain copies of {} layers (read instead of the compressed files): {} positions in {} "
          "bytes\n",
          plain_layers, plain_positions, plain_bytes);
    fmt::print("\n");
  }
}

}  // namespace

void add_db_info_command(CLI::App& db) {
  auto info = std::make_shared<std::string>();
  CLI::App* cmd =
      db.add_subcommand("info", "What a table file or directory holds and how well it compressed");
  cmd->add_option("PATH", *info, "A layer file, a table directory or a database directory")
      ->required()
      ->check(path_name());
  set_command(cmd, [info] { run_info(*info); });
}

}  // namespace mancala::cli
