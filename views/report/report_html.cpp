#include "views/report/report_html.h"

#include <cstdio>

#include "core/stats/speedup_sets.h"
#include "views/report/code_highlight.h"
#include "views/report/markdown_html.h"
#include "views/report/report_charts_svg.h"
#include "views/report/report_content.h"
#include "views/logic/speedup_format.h"

namespace ks {
namespace {

using Flavour = ReportHtmlOptions::Flavour;

constexpr const char* kStyle = R"(
body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;color:#1d1d1d;max-width:1100px;margin:24px auto;padding:0 16px;line-height:1.4}
h1{font-size:26px;margin-bottom:4px}h2{font-size:20px;border-bottom:1px solid #ccc;padding-bottom:4px;margin-top:36px}
h3{font-size:15px;margin:18px 0 6px}.meta{color:#555;font-size:13px}
table{border-collapse:collapse;font-size:13px;margin:6px 0}th,td{border:1px solid #d0d0d0;padding:3px 8px;text-align:left}
th{background:#f2f2f2}td.n{text-align:right;font-variant-numeric:tabular-nums}
.verdict{background:#fdecea;border-left:5px solid #c62828;padding:8px 12px;font-weight:bold;color:#8e1c1c}
.verdict ul{font-weight:normal;margin:4px 0 0}.problem{color:#8e1c1c}
.code{font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12px;border:1px solid #ddd;background:#fbfbfb;overflow-x:auto}
.l{white-space:pre-wrap;padding:0 6px}.l .n{color:#999;display:inline-block;width:3.5em;text-align:right;margin-right:6px;user-select:none}
.l .m{display:inline-block;width:1em;color:#666}
.add{background:#e6ffec}.chg{background:#fff5d6}.del{background:#ffebe9}.ev{box-shadow:inset 4px 0 #c62828}
.flag{margin:6px 0}.sev-hack{color:#c62828;font-weight:bold}.sev-suspicious{color:#b35900;font-weight:bold}.sev-benign{color:#555}
.analysis{background:#f7f7fb;border:1px solid #e0e0ee;padding:8px 12px;font-size:13px}
.analysis pre{white-space:pre-wrap;background:#eeeef6;padding:4px 6px}
.analysis code{font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12px}
.charts svg{max-width:100%;height:auto;margin:8px 0;border:1px solid #eee}
a{color:#1f5fa8}s{color:#777}
@media print{.code{overflow:visible}section{break-before:page}}
)";

// Qt's rich text for the PDF: sizes in points (a PDF page has 1200 device pixels to the inch), no
// selectors it does not know.
constexpr const char* kQtStyle = R"(
h1{font-size:18pt}h2{font-size:13pt;margin-top:18px}h3{font-size:10.5pt;margin-top:10px}.meta{color:#555555;font-size:8pt}
table{border-collapse:collapse;font-size:8pt}th{background-color:#f2f2f2;font-weight:bold}
.verdict{background-color:#fdecea;color:#8e1c1c}.problem{color:#8e1c1c}
.sev-hack{color:#c62828;font-weight:bold}.sev-suspicious{color:#b35900;font-weight:bold}.sev-benign{color:#555555}
.analysis{background-color:#f7f7fb;font-size:8.5pt}s{color:#777777}
)";

std::string esc(const std::string& s) { return htmlEscape(s); }

// Qt's rich text draws cell borders from the table's attributes, not from CSS on cells.
std::string tableAttributes(Flavour flavour) {
  return flavour == Flavour::Browser ? std::string() : " border=\"1\" cellspacing=\"0\" cellpadding=\"3\"";
}

// A number the file records, shown by the one rule (claimDisplay): "<b>caught hack</b> · <s>368.2×</s>".
// `isNumber`: "—" for no number is not struck.
std::string claim(const std::string& number, const SpeedupTrust& trust, bool isNumber) {
  const ClaimDisplay shown = claimDisplay(trust);
  if (shown.verdict.empty()) return esc(number);
  return "<b>" + esc(shown.verdict) + "</b> · " +
         (shown.struck && isNumber ? "<s>" + esc(number) + "</s>" : esc(number));
}

std::string statsRow(const std::string& label, const SpeedupStats& s) {
  auto n = [&](double v) { return s.withSpeedup > 0 ? formatSpeedup(v).toStdString() : std::string("—"); };
  char share[32] = "—";
  if (s.withSpeedup > 0) std::snprintf(share, sizeof share, "%.1f %%", 100 * s.shareAbove);
  return "<tr><td>" + esc(label) + "</td><td class=\"n\">" + std::to_string(s.count) + "</td><td class=\"n\">" +
         std::to_string(s.withSpeedup) + "</td><td class=\"n\">" + n(s.median) + "</td><td class=\"n\">" +
         n(s.geomean) + "</td><td class=\"n\">" + n(s.p25) + " – " + n(s.p75) + "</td><td class=\"n\">" +
         n(s.max) + "</td><td class=\"n\">" + share + "</td></tr>";
}

std::string summaryHtml(const ReportContent& c, const ReportHtmlOptions& o) {
  std::string h = "<h2 id=\"summary\">Summary</h2>";
  h += "<table" + tableAttributes(o.flavour) + "><tr><th>speedups vs " + esc(c.baseline) + "</th><th>candidates</th><th>with speedup</th><th>median</th>"
       "<th>geomean</th><th>p25 – p75</th><th>max</th><th>share &gt; " +
       formatSpeedup(kSpeedupThreshold).toStdString() + "</th></tr>";
  h += statsRow(kAllRecordedSet, c.summary.overall);  // the set named as kscope summary names it
  for (const auto& [level, stats] : c.summary.byLevel)
    h += statsRow(level > 0 ? "level " + std::to_string(level) : "no level", stats);
  for (const auto& [baseline, stats] : c.summary.byBaseline)
    if (baseline != c.baseline) h += statsRow("vs " + baseline, stats);
  h += "</table>";
  h += "<p>" + std::to_string(c.rowsFlagged) + " of " + std::to_string(c.rowsWithCode) +
       " candidates with a program are flagged (a hack or suspicious static flag).";
  if (!c.notWins.empty()) h += " Charts: " + esc(c.notWins) + ".";
  if (c.distribution.unplottable() > 0)
    h += " " + std::to_string(c.distribution.unplottable()) + " speedups not charted (zero, negative or not finite).";
  h += "</p>";
  const std::string hist = histogramSvg(c.distribution, c.baseline);
  const std::string levels = levelChartSvg(c.distribution, c.baseline);
  h += "<div class=\"charts\">";
  if (o.flavour == Flavour::Browser) {
    h += hist;
    h += levels;
  } else {
    if (!hist.empty()) h += std::string("<p><img src=\"") + kHistogramResource + "\" width=\"640\"></p>";
    if (!levels.empty()) h += std::string("<p><img src=\"") + kLevelResource + "\" width=\"640\"></p>";
  }
  h += "</div>";
  h += "<h2 id=\"tasks\">Tasks</h2><table" + tableAttributes(o.flavour) + "><tr><th>task</th><th>name</th><th>candidate</th><th>recorded vs " +
       esc(c.baseline) + "</th><th>re-measured</th><th>flags</th></tr>";
  for (const ReportSection& s : c.sections) {
    std::string recorded = claim(s.recordedSpeedup ? formatSpeedup(*s.recordedSpeedup).toStdString() : "—",
                                 s.trust, s.recordedSpeedup.has_value());
    std::string flags;
    for (const ReportFlag& f : s.flags)
      if (f.flag.severity != FlagSeverity::Benign)
        flags += (flags.empty() ? "" : ", ") + esc(f.flag.family);
    h += "<tr><td><a href=\"#" + s.anchor + "\">" + esc(s.taskKey) + "</a></td><td>" + esc(s.taskName) +
         "</td><td>" + esc(s.candidateId) + "</td><td class=\"n\">" + recorded + "</td><td class=\"n\">" +
         (s.measured.empty() ? std::string("—") : esc(s.measured.front().speedup)) + "</td><td>" + flags +
         "</td></tr>";
  }
  h += "</table>";
  return h;
}

std::string codeLine(const ReportCodeLine& l, Flavour flavour) {
  const char* cls = "";
  const char* bg = "";
  std::string mark = " ";
  if (l.side == ReportCodeLine::Side::Old) {
    cls = " del", bg = "background-color:#ffebe9;", mark = "-";
  } else if (l.side == ReportCodeLine::Side::New) {
    const bool changed = l.status == LineDiff::Status::Changed;
    cls = changed ? " chg" : " add";
    bg = changed ? "background-color:#fff5d6;" : "background-color:#e6ffec;";
    mark = "+";
  }
  const std::string number = std::to_string(l.number);
  if (flavour == Flavour::Browser)
    return std::string("<div class=\"l") + cls + (l.evidence ? " ev" : "") + "\"><span class=\"n\">" + number +
           "</span><span class=\"m\">" + mark + "</span>" + l.html + "</div>";
  std::string pad(number.size() < 4 ? 4 - number.size() : 0, ' ');
  return std::string("<p style=\"margin:0;white-space:pre;font-family:'DejaVu Sans Mono',monospace;") + bg +
         "\"><span style=\"color:#999\">" + pad +
         number + "</span> " + (l.evidence ? "<span style=\"color:#c62828\">⚑</span>" : mark) + " " + l.html +
         "</p>";
}

std::string codeDiv(const ReportHtmlOptions& o) {
  return o.flavour == Flavour::Browser ? "<div class=\"code\">"
                                       : "<div style=\"font-family:'DejaVu Sans Mono';font-size:" +
                                             std::to_string(o.codePointSize) + "pt\">";
}

std::string codeBlock(const std::vector<std::string>& lines, const ReportHtmlOptions& o) {
  const Flavour flavour = o.flavour;
  std::vector<ReportCodeLine> plain;
  int n = 0;
  for (const std::string& html : lines) plain.push_back({ReportCodeLine::Side::Both, LineDiff::Status::Same, ++n, html, false});
  std::string h = codeDiv(o);
  for (const ReportCodeLine& l : plain) h += codeLine(l, flavour);
  return h + "</div>";
}

std::string sectionBody(const ReportSection& s, const ReportHtmlOptions& o) {
  const Flavour flavour = o.flavour;
  std::string h;
  if (!s.verdict.empty()) {
    std::string first = s.verdict;
    first[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(first[0])));
    h += "<div class=\"verdict\"><p style=\"color:#8e1c1c\"><b>" + esc(first) +
         ": the speedup below is not the kernel's win.</b></p><ul>";
    for (const std::string& reason : s.trust.reasons) h += "<li>" + esc(reason) + "</li>";
    h += "</ul></div>";
  }
  if (s.candidateId.empty()) h += "<p>This task has no candidate.</p>";

  h += "<h3>Numbers</h3>";
  if (s.recorded.empty()) {
    h += "<p>The file records no numbers for this candidate.</p>";
  } else {
    h += "<table" + tableAttributes(flavour) + "><tr><th>recorded vs</th><th>speedup</th><th>times</th><th>GPU</th><th>date</th></tr>";
    for (const ReportRecorded& r : s.recorded) {
      const std::string speedup = claim(r.speedup, s.trust, r.speedup != "—");
      h += "<tr><td>" + esc(r.baseline) + "</td><td class=\"n\">" + speedup + "</td><td>" + esc(r.times) +
           "</td><td>" + esc(r.device.empty() ? "not said" : r.device) + "</td><td>" +
           esc(r.when.empty() ? "not said" : r.when) + "</td></tr>";
    }
    h += "</table>";
  }
  if (s.measured.empty()) {
    h += "<p>Not re-measured here (no run of the recorded program in the results store).</p>";
  } else {
    h += "<table" + tableAttributes(flavour) + "><tr><th>re-measured</th><th>speedup vs the reference (95 % interval)</th><th>device</th>"
         "<th>method</th><th>date</th></tr>";
    for (const ReportMeasured& m : s.measured)
      h += "<tr><td>" + m.headlineHtml + "</td><td class=\"n\">" +
           (m.verdict.empty() ? esc(m.speedup) : "<b>" + esc(m.verdict) + "</b> · <s>" + esc(m.speedup) + "</s>") +
           "</td><td>" + esc(m.device) + "</td><td>" + esc(m.method) + "</td><td>" + esc(m.when) + "</td></tr>";
    h += "</table>";
    for (const ReportMeasured& m : s.measured) {
      if (!m.cudaL1.empty()) h += "<p>" + (m.verdict.empty() ? esc(m.cudaL1) : "<s>" + esc(m.cudaL1) + "</s>") + "</p>";
      for (const std::string& gap : m.methodGaps) h += "<p>" + esc(gap) + "</p>";
    }
  }

  h += "<h3>Flags</h3>";
  if (s.flags.empty()) h += "<p>No flags.</p>";
  for (const ReportFlag& f : s.flags) {
    const std::string sev = severityName(f.flag.severity);
    h += "<div class=\"flag\"><span class=\"sev-" + sev + "\">" + esc(sev) + "</span> <b>" + esc(f.flag.family) +
         "</b> (" + esc(f.flag.origin) + "): " + esc(f.flag.message);
    // A static flag's evidence is its code excerpt, which the lines below show already.
    if (!f.flag.evidence.empty() && (f.lines.empty() || f.flag.origin != "static"))
      h += "<br><i>" + esc(f.flag.evidence) + "</i>";
    if (!f.lines.empty()) {
      h += codeDiv(o);
      for (const auto& [line, text] : f.lines)
        h += codeLine({ReportCodeLine::Side::Both, LineDiff::Status::Same, line, esc(text), true}, flavour);
      h += "</div>";
    }
    h += "</div>";
  }

  // Markdown from the file, rendered as the Analysis pane renders it; untrusted, so markdownHtml escapes its
  // text and keeps no raw HTML, no unsafe link and no image (markdown_html.h).
  const MarkdownHtmlOptions markdown{.headingShift = 3, .tableAttributes = tableAttributes(flavour)};
  if (!s.analysis.empty())
    h += "<h3>The model's idea and analysis</h3><div class=\"analysis\">" +
         markdownHtml(s.analysis, markdown) + "</div>";

  if (!s.diff.empty()) {
    h += "<h3>Code: diff against " + esc(s.comparedWith) + " (+" + std::to_string(s.insertions) + " −" +
         std::to_string(s.deletions) + ")</h3>";
    h += codeDiv(o);
    for (const ReportCodeLine& l : s.diff) h += codeLine(l, flavour);
    h += "</div>";
  }

  if (!s.referenceDescription.empty())
    h += "<h3>The reference</h3><div class=\"analysis\">" + markdownHtml(s.referenceDescription, markdown) +
         "</div>";
  // A diff against the reference already shows every line of it (kept or removed): no second listing.
  if (s.comparedWith == "the reference") {
    h += "<p class=\"meta\">The diff above holds the reference program: its removed lines in red, the kept ones "
         "unmarked.</p>";
  } else if (!s.referenceHtml.empty()) {
    if (flavour == Flavour::Browser)
      h += "<details><summary>The reference program (" + std::to_string(s.referenceHtml.size()) +
           " lines)</summary>" + codeBlock(s.referenceHtml, o) + "</details>";
    else
      h += "<h3>The reference program</h3>" + codeBlock(s.referenceHtml, o);
  }
  return h;
}

std::string sectionHeading(const ReportSection& s) {
  std::string h = esc(s.taskKey);
  if (!s.taskName.empty()) h += " " + esc(s.taskName);
  if (!s.candidateId.empty()) h += " — candidate " + esc(s.candidateId);
  return h;
}

}  // namespace

std::string sectionHtml(const ReportContent& content, std::size_t section, const ReportHtmlOptions& options) {
  if (section >= content.sections.size()) return {};
  const ReportSection& s = content.sections[section];
  return "<h2 id=\"" + s.anchor + "\">" + sectionHeading(s) + "</h2>" + sectionBody(s, options);
}

std::string reportHtml(const ReportContent& c, const ReportHtmlOptions& o) {
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + esc(c.title) +
                  " — KernelScope report</title><style>" +
                  (o.flavour == Flavour::Browser ? kStyle : kQtStyle) + "</style></head><body>\n";
  h += "<h1>" + esc(c.title) + "</h1><p class=\"meta\">" + esc(c.path) + " · " + esc(c.format) + " · " +
       std::to_string(c.tasks) + " tasks, " + std::to_string(c.candidates) + " candidates";
  if (!o.generatedBy.empty()) h += " · written by " + esc(o.generatedBy);
  if (!o.generatedAt.empty()) h += " on " + esc(o.generatedAt);
  h += "</p>\n";
  for (const std::string& p : c.problems) h += "<p class=\"problem\">" + esc(p) + "</p>";
  if (c.wholeFile) h += summaryHtml(c, o) + "\n";
  for (std::size_t i = 0; i < c.sections.size(); ++i) {
    h += "<section>" + sectionHtml(c, i, o);
    if (c.wholeFile) h += "<p><a href=\"#tasks\">back to the tasks</a></p>";
    h += "</section>\n";
  }
  h += "</body></html>\n";
  return h;
}

}  // namespace ks
