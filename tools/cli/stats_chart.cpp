#include "tools/cli/stats_chart.h"

#include <utility>

#include <fmt/core.h>

namespace mancala::cli {

std::string svg_chart(const std::string& title, const std::vector<LayerStats>& layers) {
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

}  // namespace mancala::cli
