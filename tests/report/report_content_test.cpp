// The report's content model and its HTML on the synthetic run: which sections a choice gives, the verdict
// before a caught hack's struck-through number, the diff's line marks, coloured code, inline SVG charts, and
// the slide deck's sidecar round trip.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <algorithm>

#include "tests/view_logic/synthetic_run.h"
#include "views/report/code_highlight.h"
#include "views/logic/measured_history.h"
#include "views/report/report_content.h"
#include "views/report/report_html.h"
#include "views/report/slide_deck.h"

namespace ks {
namespace {

TEST(ReportContent, WholeFileHasEveryRowAndTheSummary) {
  const auto run = test::syntheticRun();
  const ReportContent c = buildReport(*run, nullptr, {});
  EXPECT_TRUE(c.wholeFile);
  ASSERT_EQ(static_cast<int>(c.sections.size()), run->rowCount());
  EXPECT_EQ(c.summary.overall.count, run->run().candidateCount());
  EXPECT_EQ(c.rowsFlagged, run->rowsFlagged());
  EXPECT_TRUE(c.problems.empty());
  // Anchors are unique, also for the two candidates of L1/1.
  EXPECT_EQ(c.sections[test::kRowA].anchor, "t-L1-1-a");
  EXPECT_EQ(c.sections[test::kRowB].anchor, "t-L1-1-b");
  const std::string html = reportHtml(c, {});
  EXPECT_NE(html.find("href=\"#t-L1-1-a\""), std::string::npos);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
}

TEST(ReportContent, ChosenTasksAndCandidateAndWhatTheRunLacks) {
  const auto run = test::syntheticRun();
  ReportContent c = buildReport(*run, nullptr, {{"L1/1", "L9/9"}, "b", "default"});
  ASSERT_EQ(c.sections.size(), 1u);
  EXPECT_EQ(c.sections[0].candidateId, "b");
  ASSERT_EQ(c.problems.size(), 1u);
  EXPECT_NE(c.problems[0].find("L9/9"), std::string::npos);
  c = buildReport(*run, nullptr, {{"L1/2"}, "zz", "default"});
  EXPECT_TRUE(c.sections.empty());
  EXPECT_FALSE(c.problems.empty());
}

TEST(ReportContent, ACaughtHackSaysSoFirstAndItsNumberIsStruckThrough) {
  const auto run = test::syntheticRun();
  const ReportContent c = buildReport(*run, nullptr, {{"L2/9"}, "", "default"});
  ASSERT_EQ(c.sections.size(), 1u);
  const ReportSection& s = c.sections[0];
  EXPECT_TRUE(s.trust.hack);
  EXPECT_EQ(s.verdict, "caught hack");
  ASSERT_FALSE(s.flags.empty());
  EXPECT_FALSE(s.flags[0].lines.empty()) << "the flag's evidence lines with their text";
  EXPECT_TRUE(std::any_of(s.diff.begin(), s.diff.end(), [](const ReportCodeLine& l) { return l.evidence; }));
  const std::string html = reportHtml(c, {});
  const auto verdict = html.find("Caught hack");
  const auto number = html.find("<s>17");
  ASSERT_NE(verdict, std::string::npos);
  ASSERT_NE(number, std::string::npos);
  EXPECT_LT(verdict, number);
}

TEST(ReportContent, TheDiffInterleavesOldAndNewLinesAgainstTheReference) {
  const auto run = test::syntheticRun();
  const ReportSection s = buildSection(*run, nullptr, test::kRowC);
  EXPECT_EQ(s.comparedWith, "the reference");
  int added = 0, removed = 0, same = 0;
  for (const ReportCodeLine& l : s.diff) {
    if (l.side == ReportCodeLine::Side::New) ++added;
    if (l.side == ReportCodeLine::Side::Old) ++removed;
    if (l.side == ReportCodeLine::Side::Both) ++same;
  }
  EXPECT_EQ(added, s.insertions);
  EXPECT_EQ(removed, s.deletions);
  const std::string& code = *run->candidate(test::kRowC)->code;
  EXPECT_EQ(added + same, static_cast<int>(std::count(code.begin(), code.end(), '\n')) +
                              (code.empty() || code.back() == '\n' ? 0 : 1));
}

TEST(ReportContent, ARerunCarriesItsMethodDeviceAndDate) {
  const auto run = test::syntheticRun();
  MeasuredHistory history(run->rowCount());
  runs::MeasuredRun measured = test::timedRun(2.5);
  measured.row.recordedAt = "2026-11-25T10:02:03Z";
  history.setEntries(test::kRowC, {{measured, true}});
  const ReportSection s = buildSection(*run, &history, test::kRowC);
  ASSERT_EQ(s.measured.size(), 1u);
  EXPECT_EQ(s.measured[0].when, "2026-11-25 10:02 UTC");
  EXPECT_NE(s.measured[0].method.find("trials"), std::string::npos) << s.measured[0].method;
  EXPECT_NE(s.measured[0].speedup.find("2.500"), std::string::npos) << s.measured[0].speedup;
  EXPECT_FALSE(s.measured[0].device.empty());
}

TEST(CodeHighlight, ColoursKeywordsStringsAndCommentsAcrossLines) {
  const auto lines = highlightLines("def f(x):  # <note>\n    s = '''a\nb'''\n    return 1\n", CodeLanguage::Python);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_NE(lines[0].find(">def</span>"), std::string::npos);
  EXPECT_NE(lines[0].find("# &lt;note&gt;"), std::string::npos);
  EXPECT_NE(lines[2].find("color:#2e7d32\">b'''"), std::string::npos) << lines[2];
  const auto cuda = highlightLines("/* a\n b */ __global__ void k() {}\n", CodeLanguage::Cuda);
  EXPECT_NE(cuda[1].find("font-style:italic\"> b */"), std::string::npos) << cuda[1];
  EXPECT_NE(cuda[1].find(">__global__</span>"), std::string::npos);
}

TEST(SlideDeck, SidecarRoundTripAndRowsTheRunHas) {
  QTemporaryDir dir;
  const QString runPath = dir.filePath(QStringLiteral("run.jsonl"));
  SlideDeck deck;
  EXPECT_TRUE(deck.add({"L2/9", "e"}));
  EXPECT_TRUE(deck.add({"L1/1", "b"}));
  EXPECT_FALSE(deck.add({"L1/1", "b"}));
  EXPECT_TRUE(deck.add({"L7/7", "gone"}));
  ASSERT_TRUE(deck.save(runPath));
  EXPECT_TRUE(QFile::exists(dir.filePath(QStringLiteral("run.jsonl.slides.json"))));
  QString error;
  const SlideDeck read = SlideDeck::load(runPath, &error);
  EXPECT_TRUE(error.isEmpty()) << error.toStdString();
  EXPECT_EQ(read.slides(), deck.slides());
  const auto run = test::syntheticRun();
  EXPECT_EQ(read.rows(*run), (std::vector<int>{test::kRowE, test::kRowB}));
  EXPECT_EQ(SlideDeck::slideOf(*run, test::kRowE), (Slide{"L2/9", "e"}));

  QFile other(SlideDeck::sidecarPath(runPath));
  ASSERT_TRUE(other.open(QIODevice::WriteOnly));
  other.write(R"({"kscope_slides": 2, "slides": []})");
  other.close();
  EXPECT_TRUE(SlideDeck::load(runPath, &error).empty());
  EXPECT_NE(error.indexOf(QStringLiteral("version 1")), -1);
}

}  // namespace
}  // namespace ks
