#include "views/report/report_charts_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "views/report/code_highlight.h"
#include "views/logic/speedup_distribution.h"
#include "views/logic/speedup_format.h"

namespace ks {
namespace {

constexpr int kWidth = 720, kHeight = 300, kLeft = 56, kRight = 16, kTop = 34, kBottom = 44;
constexpr const char* kWin = "#3b75af";
constexpr const char* kNotWin = "#a0a0a0";

std::string num(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  return buffer;
}

std::string text(double x, double y, const std::string& s, const char* anchor = "middle", int size = 11) {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"" +
         std::to_string(size) + "\" text-anchor=\"" + anchor + "\" fill=\"#222\">" + htmlEscape(s) + "</text>";
}

std::string line(double x1, double y1, double x2, double y2, const char* stroke, const char* extra = "") {
  return "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) +
         "\" stroke=\"" + stroke + "\" stroke-width=\"1\"" + extra + "/>";
}

std::string rect(double x, double y, double w, double h, const char* fill) {
  return "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(w) + "\" height=\"" + num(h) +
         "\" fill=\"" + fill + "\"/>";
}

std::string open(const std::string& title) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + std::to_string(kWidth) +
         "\" height=\"" + std::to_string(kHeight) + "\" viewBox=\"0 0 " + std::to_string(kWidth) + " " +
         std::to_string(kHeight) + "\">" + rect(0, 0, kWidth, kHeight, "#ffffff") +
         text(kWidth / 2.0, 20, title, "middle", 13);
}

std::string legend(double x, double y) {
  return rect(x, y - 9, 10, 10, kWin) + text(x + 14, y, "counted as a win", "start", 10) +
         rect(x + 130, y - 9, 10, 10, kNotWin) +
         text(x + 144, y, "caught hack or fallback-timed: not a win", "start", 10);
}

}  // namespace

std::string histogramSvg(const SpeedupDistribution& distribution, const std::string& baseline) {
  const auto bins = distribution.log2Bins();
  if (bins.empty()) return {};
  std::size_t most = 1;
  for (const auto& b : bins) most = std::max(most, b.rows.size());
  const double plotW = kWidth - kLeft - kRight, plotH = kHeight - kTop - kBottom;
  const double barW = plotW / static_cast<double>(bins.size());
  std::string svg = open("Recorded speedup vs " + baseline + " (log2 bins)");
  // count axis: whole steps
  const int step = std::max(1, static_cast<int>(std::ceil(static_cast<double>(most) / 5.0)));
  for (int c = 0; c <= static_cast<int>(most); c += step) {
    const double y = kTop + plotH - plotH * c / static_cast<double>(most);
    svg += line(kLeft, y, kLeft + plotW, y, "#e4e4e4");
    svg += text(kLeft - 6, y + 4, std::to_string(c), "end");
  }
  // about 48 px per label ("11.31×"), so that neighbours never overlap
  const int labelEvery = std::max(1, static_cast<int>(std::ceil(48.0 / barW)));
  for (std::size_t i = 0; i < bins.size(); ++i) {
    const auto& b = bins[i];
    const double x = kLeft + barW * static_cast<double>(i);
    const double wins = static_cast<double>(b.rows.size()) - b.notWins;
    const double hWins = plotH * wins / static_cast<double>(most);
    const double hNot = plotH * b.notWins / static_cast<double>(most);
    if (hWins > 0) svg += rect(x + 1, kTop + plotH - hWins, barW - 2, hWins, kWin);
    if (hNot > 0) svg += rect(x + 1, kTop + plotH - hWins - hNot, barW - 2, hNot, kNotWin);
    if (i % static_cast<std::size_t>(labelEvery) == 0)
      svg += text(x, kTop + plotH + 14, formatSpeedup(b.low).toStdString(), "middle", 10);
    if (b.low <= 1.0 && 1.0 < b.high) {
      const double x1 = x + barW * std::log2(1.0 / b.low) / std::log2(b.high / b.low);
      svg += line(x1, kTop, x1, kTop + plotH, "#c62828", " stroke-dasharray=\"4 3\"");
    }
  }
  svg += line(kLeft, kTop + plotH, kLeft + plotW, kTop + plotH, "#444");
  svg += line(kLeft, kTop, kLeft, kTop + plotH, "#444");
  svg += legend(kLeft, kHeight - 8);
  svg += "</svg>";
  return svg;
}

std::string levelChartSvg(const SpeedupDistribution& distribution, const std::string& baseline) {
  const auto& points = distribution.points();
  const auto levels = distribution.levels();
  if (points.empty() || levels.empty()) return {};
  double lo = std::floor(std::log2(points.front().speedup)), hi = std::ceil(std::log2(points.back().speedup));
  if (hi <= lo) hi = lo + 1;
  const double plotW = kWidth - kLeft - kRight, plotH = kHeight - kTop - kBottom;
  auto xOf = [&](double v) { return kLeft + plotW * (std::log2(v) - lo) / (hi - lo); };
  const double rowH = plotH / static_cast<double>(levels.size());
  std::string svg = open("Recorded speedup vs " + baseline + " by level (log scale)");
  const int tickEvery = std::max(1, static_cast<int>((hi - lo) / 8));
  for (int e = static_cast<int>(lo); e <= static_cast<int>(hi); e += tickEvery) {
    const double v = std::pow(2.0, e);
    svg += line(xOf(v), kTop, xOf(v), kTop + plotH, "#e4e4e4");
    svg += text(xOf(v), kTop + plotH + 14, formatSpeedup(v).toStdString(), "middle", 10);
  }
  if (lo <= 0 && 0 <= hi)
    svg += line(xOf(1.0), kTop, xOf(1.0), kTop + plotH, "#c62828", " stroke-dasharray=\"4 3\"");
  for (std::size_t l = 0; l < levels.size(); ++l) {
    const double y0 = kTop + rowH * static_cast<double>(l);
    svg += text(kLeft - 6, y0 + rowH / 2 + 4, levels[l] > 0 ? "L" + std::to_string(levels[l]) : "—", "end");
    const auto ofLevel = distribution.pointsOfLevel(levels[l]);
    for (std::size_t i = 0; i < ofLevel.size(); ++i) {
      const auto& p = ofLevel[i];
      const double jitter = (static_cast<double>((i * 37) % 17) / 16.0 - 0.5) * rowH * 0.6;
      const double x = xOf(p.speedup), y = y0 + rowH / 2 + jitter;
      if (p.trusted())
        svg += "<circle cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"3\" fill=\"" + kWin +
               "\" fill-opacity=\"0.7\"/>";
      else
        svg += rect(x - 3, y - 3, 6, 6, kNotWin);
    }
  }
  svg += line(kLeft, kTop + plotH, kLeft + plotW, kTop + plotH, "#444");
  svg += legend(kLeft, kHeight - 8);
  svg += "</svg>";
  return svg;
}

}  // namespace ks
