#include "tools/cli/board_view.h"

#include <fmt/format.h>

namespace mancala::cli {

namespace {

constexpr const char* kReset = "\x1b[0m";
constexpr const char* kBold = "\x1b[1m";
constexpr const char* kDim = "\x1b[2m";
constexpr const char* kMoved = "\x1b[1;33m";     // the house the last move emptied
constexpr const char* kCaptured = "\x1b[1;31m";  // houses emptied by a capture
constexpr const char* kLastSeed = "\x1b[4m";     // where the last seed fell

std::string paint(const std::string& text, const char* style, bool color) {
  return color && style ? std::string(style) + text + kReset : text;
}

}  // namespace

std::string render_board(const Position& p, const std::optional<LastMove>& last, bool color) {
  const int h = p.houses;
  auto cell_style = [&](int slot) -> const char* {
    if (!last) return nullptr;
    if (last->effect.captured_slots & (1u << slot)) return kCaptured;
    if (slot == p.house_slot(last->mover, last->move)) return kMoved;
    if (slot == last->effect.last_slot) return kLastSeed;
    return nullptr;
  };
  auto cell = [&](int slot) {
    return paint(fmt::format("{:>3}", p.slots[slot]), cell_style(slot), color);
  };
  const std::string rule = "+" + [&] {
    std::string s;
    for (int i = 0; i < h; ++i) s += "----+";
    return s;
  }();
  const std::string pad(8, ' ');  // the width of the store and name columns
  auto label = [&](Side side) {
    std::string name = side == Side::South ? "South" : "North";
    if (p.side_to_move == side) return paint("> " + name, kBold, color) + " ";
    return paint("  " + name, kDim, color) + " ";
  };

  std::string out;
  // North's letters and counts, from its last house down to its first.
  out += label(Side::North);
  for (int i = h - 1; i >= 0; --i) out += fmt::format("   {} ", static_cast<char>('a' + i));
  out += "\n" + pad + rule + "\n" + pad + "|";
  for (int i = h - 1; i >= 0; --i) out += cell(p.house_slot(Side::North, i)) + " |";
  out += "\n";
  const int north_store = p.store_slot(Side::North), south_store = p.store_slot(Side::South);
  auto store_style = [&](int slot) {
    return last && last->effect.last_slot == slot ? kLastSeed : kBold;
  };
  out +=
      "  " + paint(fmt::format("[{:>3}]", p.slots[north_store]), store_style(north_store), color) +
      " " + rule + " " +
      paint(fmt::format("[{:>3}]", p.slots[south_store]), store_style(south_store), color) + "\n";
  out += pad + "|";
  for (int i = 0; i < h; ++i) out += cell(p.house_slot(Side::South, i)) + " |";
  out += "\n" + pad + rule + "\n";
  out += label(Side::South);
  for (int i = 0; i < h; ++i) out += fmt::format("   {} ", static_cast<char>('A' + i));
  out += "\n";
  return out;
}

}  // namespace mancala::cli
