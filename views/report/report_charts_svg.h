#pragma once
// The report's charts as SVG text: the speedup histogram on log2 bins and the speedups by level, drawn from
// SpeedupDistribution so that they mark the same points as "not a win" as the Charts tab does (grey: a caught
// hack or a fallback-timed number). Plain SVG 1.1 (rect, line, circle, text), which a browser shows inline
// and Qt SVG renders for the PDF.
#include <string>

namespace ks {

class SpeedupDistribution;

// Empty when the distribution has no points.
std::string histogramSvg(const SpeedupDistribution& distribution, const std::string& baseline);
std::string levelChartSvg(const SpeedupDistribution& distribution, const std::string& baseline);

}  // namespace ks
