#pragma once
// A ReportContent as one self-contained HTML page: styles inline, code coloured, charts as inline
// SVG, nothing fetched from a network. The same writer serves Qt's rich text for the PDF (report_pdf.h),
// which understands a subset of HTML: there charts are <img> names the PDF writer provides as resources
// and code lines are plain blocks. Where the trust rule speaks against a number, its verdict comes first
// and the number is struck through.
#include <string>

namespace ks {

struct ReportContent;

struct ReportHtmlOptions {
  enum class Flavour { Browser, QtRichText };
  Flavour flavour = Flavour::Browser;
  std::string generatedBy;  // "kscope 0.9.0"; shown in the page's header
  std::string generatedAt;  // "2026-11-25 14:00 UTC"
  int codePointSize = 7;    // QtRichText: the code's font size (presentation mode shows it larger)
};

// The resource names QtRichText pages use for the charts (SVG text from report_charts_svg.h).
inline constexpr const char* kHistogramResource = "chart-histogram.svg";
inline constexpr const char* kLevelResource = "chart-levels.svg";

std::string reportHtml(const ReportContent& content, const ReportHtmlOptions& options);

// One section's body (no page around it): presentation mode shows it as a slide.
std::string sectionHtml(const ReportContent& content, std::size_t section, const ReportHtmlOptions& options);

}  // namespace ks
