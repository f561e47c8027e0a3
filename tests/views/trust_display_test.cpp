// A caught hack or a fallback never reads as a win (the run's header, the Measurements
// table, the task table say so first and strike the number through), the Flags column shows the worst
// family first with every flag in its tooltip, and the GUI and `kscope summary` count the same candidates as
// flagged, with the same severity per family.
#include <gtest/gtest.h>

#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFileInfo>
#include <QFont>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QProcess>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTest>

#include "app/kernelscope/main_window.h"
#include "app/kernelscope/run_loader.h"
#include "core/flags/flag_counts.h"
#include "tests/view_logic/synthetic_run.h"
#include "views/charts/charts_view.h"
#include "views/logic/measured_format.h"
#include "views/logic/speedup_trust.h"
#include "views/item_models/candidate_table_model.h"
#include "views/item_models/measurement_table_model.h"
#include "views/widgets/run_result_view.h"
#include "ks_test_paths.h"

namespace ks {
namespace {

protocol::RuntimeFlag hackFlag(const std::string& family) {
  protocol::RuntimeFlag f;
  f.family = family;
  f.severity = "hack";
  f.probe = "repeat-calls";
  f.message = "Two calls on different inputs returned the same storage.";
  return f;
}

runs::MeasuredRun caughtHack() {
  return test::timedRun(10059.9, "sha256:recorded", {hackFlag("cached-output")});
}

runs::MeasuredRun fellBack() {
  runs::MeasuredRun run = test::timedRun(3.0);
  run.result->build.extensions.push_back(protocol::ExtensionBuild{
      .name = "fast_ext", .program = "candidate", .ok = false, .error = "nvcc: error"});
  return run;
}

Flag trustFlag(const std::string& family, FlagSeverity severity, const std::string& message) {
  Flag f;
  f.family = family;
  f.severity = severity;
  f.message = message;
  return f;
}

TEST(TrustDisplay, TheHeaderOfACaughtHackSaysSoFirstAndStrikesTheNumber) {
  RunResultView view;
  const runs::MeasuredRun hack = caughtHack();
  view.showRun(&hack, true);
  const QString text = view.plainText();
  EXPECT_TRUE(text.startsWith("Caught hack · Correct · 10059.9×")) << text.toStdString();
  EXPECT_TRUE(text.contains("not the kernel's speedup"));
  EXPECT_TRUE(runHeadlineHtml(hack).contains("<s>10059.9×"));

  const runs::MeasuredRun fallback = fellBack();
  view.showRun(&fallback, true);
  // The fallback note (core/runs/fallback_note.h) comes first, then the headline with its verdict first.
  EXPECT_TRUE(view.plainText().startsWith("this number is the PyTorch fallback's"))
      << view.plainText().toStdString();
  EXPECT_TRUE(view.plainText().contains("\nFell back · Correct · ")) << view.plainText().toStdString();

  // An honest run reads as before.
  const runs::MeasuredRun honest = test::timedRun(2.0);
  view.showRun(&honest, true);
  EXPECT_TRUE(view.plainText().startsWith("Correct · 2.000× ")) << view.plainText().toStdString();
  EXPECT_FALSE(runHeadlineHtml(honest).contains("<s>"));
}

TEST(TrustDisplay, TheMeasurementsTableSaysCaughtHackAndStrikesTheSpeedup) {
  const auto run = test::syntheticRun();
  auto history = std::make_shared<MeasuredHistory>(run->rowCount());
  history->add(test::kRowC, {test::timedRun(2.0), true});
  history->add(test::kRowC, {caughtHack(), true});
  MeasurementTableModel model;
  model.showRow(run, history, test::kRowC);
  const int newest = model.claimCount();
  ASSERT_LT(newest + 1, model.rowCount());
  const auto cell = [&](int row, int column, int role) { return model.index(row, column).data(role); };
  EXPECT_EQ(cell(newest, MeasurementTableModel::OutcomeColumn, Qt::DisplayRole).toString(),
            "caught hack · correct");
  EXPECT_TRUE(cell(newest, MeasurementTableModel::SpeedupColumn, Qt::FontRole).value<QFont>().strikeOut());
  EXPECT_TRUE(cell(newest, MeasurementTableModel::SpeedupColumn, Qt::ToolTipRole)
                  .toString()
                  .contains("Struck through: its re-run's probes caught a hack: cached-output"));
  // The honest run before it is shown as it was.
  EXPECT_EQ(cell(newest + 1, MeasurementTableModel::OutcomeColumn, Qt::DisplayRole).toString(), "correct");
  EXPECT_FALSE(
      cell(newest + 1, MeasurementTableModel::SpeedupColumn, Qt::FontRole).value<QFont>().strikeOut());
}

TEST(TrustDisplay, TheTaskTableSaysHackOrFellBackBeforeTheMeasuredNumber) {
  const auto run = test::syntheticRun();
  auto history = std::make_shared<MeasuredHistory>(run->rowCount());
  history->add(test::kRowC, {caughtHack(), true});
  history->add(test::kRowA, {fellBack(), true});
  history->add(test::kRowB, {test::timedRun(2.0), true});
  CandidateTableModel model;
  model.setRun(run);
  model.setHistory(history);
  const int measured = model.measuredColumn();
  const auto text = [&](int row) { return model.index(row, measured).data().toString(); };
  EXPECT_EQ(text(test::kRowC), "hack · 10059.9×");
  EXPECT_EQ(text(test::kRowA), "fell back · 3.000×");
  EXPECT_EQ(text(test::kRowB), "2.000×");
  EXPECT_TRUE(model.index(test::kRowC, measured).data(Qt::FontRole).value<QFont>().strikeOut());
  EXPECT_TRUE(model.index(test::kRowA, measured).data(Qt::FontRole).value<QFont>().strikeOut());
  EXPECT_FALSE(model.index(test::kRowB, measured).data(Qt::FontRole).value<QFont>().strikeOut());
  EXPECT_TRUE(model.index(test::kRowA, measured)
                  .data(Qt::ToolTipRole)
                  .toString()
                  .contains("fell back: its kernel fast_ext"));
}

TEST(TrustDisplay, TheRecordedVsMeasuredChartGreysACaughtHackOrAFallback) {
  const auto run = test::syntheticRun();
  auto history = std::make_shared<MeasuredHistory>(run->rowCount());
  history->add(test::kRowC, {caughtHack(), true});
  history->add(test::kRowA, {fellBack(), true});
  history->add(test::kRowB, {test::timedRun(0.8), true});
  ChartsView charts;
  charts.setRun(run);
  charts.setHistory(history);
  std::map<int, std::string> verdicts;
  for (const auto& p : charts.versusPoints()) verdicts[p.row] = p.verdict;
  ASSERT_EQ(verdicts.size(), 3u);
  EXPECT_EQ(verdicts[test::kRowC], "caught hack");
  EXPECT_EQ(verdicts[test::kRowA], "fell back");
  EXPECT_EQ(verdicts[test::kRowB], "");
}

// The Charts tab: the histogram, the CDF and the per-level chart mark a
// caught hack and a fallback-timed number (the verdicts of speedup_trust.h) as not a win, with a legend entry
// and a count, and leave them out of the summary's statistics.
TEST(TrustDisplay, TheSpeedupChartsDrawCaughtHacksAndFallbacksApartAndCountThem) {
  const auto run = test::syntheticRun();
  auto history = std::make_shared<MeasuredHistory>(run->rowCount());
  history->add(test::kRowC, {caughtHack(), true});
  history->add(test::kRowA, {fellBack(), true});
  history->add(test::kRowB, {test::timedRun(0.8), true});
  ChartsView charts;
  charts.setRun(run);
  charts.setHistory(history);

  // Row E carries the synthetic run's static hack flag (extra-stream): a caught hack without any re-run.
  const SpeedupDistribution& d = charts.distribution();
  EXPECT_EQ(d.caughtHacks(), 2);
  EXPECT_EQ(d.fallbackTimed(), 1);
  std::map<int, std::pair<bool, bool>> verdicts;
  for (const auto& p : d.points()) verdicts[p.row] = {p.hack, p.fellBack};
  EXPECT_EQ(verdicts[test::kRowC], std::make_pair(true, false));
  EXPECT_EQ(verdicts[test::kRowA], std::make_pair(false, true));
  EXPECT_EQ(verdicts[test::kRowB], std::make_pair(false, false));
  EXPECT_EQ(verdicts[test::kRowE], std::make_pair(true, false));
  EXPECT_EQ(charts.notWinsText(), "1 fallback-timed, 2 caught hacks not shown as wins");
  EXPECT_TRUE(charts.summaryText().contains("1 fallback-timed, 2 caught hacks not shown as wins"))
      << charts.summaryText().toStdString();
  // The statistics are those of the trusted numbers only: here row B's 0.8x alone.
  EXPECT_TRUE(charts.summaryText().contains(
      QStringLiteral("of the %1 shown as wins: median <b>0.800×</b>").arg(d.points().size() - 3)))
      << charts.summaryText().toStdString();

  // Histogram: the two rows sit in the grey set of their bins, nowhere else; every candidate counted once.
  const QList<QBarSet*> sets = charts.histogramSets();
  ASSERT_EQ(sets.size(), 3);
  EXPECT_EQ(sets[2]->label(), "caught hack or fallback-timed: not a win");
  double grey = 0, all = 0;
  for (int i = 0; i < sets[2]->count(); ++i) grey += sets[2]->at(i);
  for (QBarSet* set : sets)
    for (int i = 0; i < set->count(); ++i) all += set->at(i);
  EXPECT_EQ(grey, 3.0);
  EXPECT_EQ(static_cast<std::size_t>(all), d.points().size());
  EXPECT_TRUE(charts.histogramView()->chart()->title().contains("not shown as wins"));

  // CDF and per level: the two are grey squares in a series of their own, with a visible legend entry.
  for (QChartView* view : {charts.cdfView(), charts.levelView()}) {
    QScatterSeries* greySeries = nullptr;
    for (QAbstractSeries* s : view->chart()->series())
      if (s->name() == "caught hack or fallback-timed: not a win")
        greySeries = static_cast<QScatterSeries*>(s);
    ASSERT_NE(greySeries, nullptr) << view->objectName().toStdString();
    EXPECT_EQ(greySeries->count(), 3) << view->objectName().toStdString();
    EXPECT_EQ(greySeries->markerShape(), QScatterSeries::MarkerShapeRectangle);
    const auto markers = view->chart()->legend()->markers(greySeries);
    ASSERT_EQ(markers.size(), 1);
    EXPECT_TRUE(markers.first()->isVisible());
    EXPECT_TRUE(view->chart()->title().contains("not shown as wins"));
  }

  // Without re-runs only the static hack is left.
  charts.setHistory(std::make_shared<MeasuredHistory>(run->rowCount()));
  EXPECT_EQ(charts.notWinsText(), "1 caught hack not shown as wins");
}

TEST(TrustDisplay, TheFlagsColumnShowsTheWorstFamilyFirstAndEveryFlagInItsTooltip) {
  RunFile file = test::syntheticRun()->run();
  auto plain = std::make_shared<LoadedRun>(file);
  std::vector<std::vector<Flag>> flags(static_cast<std::size_t>(plain->rowCount()));
  flags[test::kRowA] = {trustFlag("no-custom-kernel", FlagSeverity::Benign, "Only PyTorch calls."),
                        trustFlag("fallback-to-reference", FlagSeverity::Benign, "Could fall back."),
                        trustFlag("extra-stream", FlagSeverity::Suspicious, "An idle stream."),
                        trustFlag("cached-output", FlagSeverity::Hack, "Returns the cached output.")};
  const auto run = plain->withFlags({flags, {}});
  CandidateTableModel model;
  model.setRun(run);
  const QModelIndex cell = model.index(test::kRowA, model.flagsColumn());
  EXPECT_EQ(cell.data().toString(), "cached-output, extra-stream, no-custom-kernel, fallback-to-reference");
  const QStringList tip = cell.data(Qt::ToolTipRole).toString().split('\n');
  ASSERT_EQ(tip.size(), 4);
  EXPECT_TRUE(tip[0].startsWith("hack · cached-output")) << tip[0].toStdString();
  EXPECT_TRUE(tip[1].startsWith("suspicious · extra-stream"));
  EXPECT_TRUE(tip[2].startsWith("benign · no-custom-kernel"));
  EXPECT_TRUE(tip[3].startsWith("benign · fallback-to-reference"));
  EXPECT_EQ(model.values(test::kRowA).worstSeverity, 3);
}

TEST(TrustDisplay, FlaggedMeansAHackOrSuspiciousFlagForEveryCount) {
  FlagCounts counts;
  counts.addCandidate({trustFlag("no-custom-kernel", FlagSeverity::Benign, "")});
  counts.addCandidate({trustFlag("lowered-precision", FlagSeverity::Suspicious, "")});
  counts.addCandidate({trustFlag("lowered-precision", FlagSeverity::Hack, ""),
                       trustFlag("no-custom-kernel", FlagSeverity::Benign, "")});
  counts.addCandidate({});
  EXPECT_EQ(counts.checked, 4u);
  EXPECT_EQ(counts.flagged, 2u);
  EXPECT_EQ(counts.byFamily["lowered-precision"].worst, FlagSeverity::Hack);
  EXPECT_EQ(counts.byFamily["lowered-precision"].candidates, 2u);
  EXPECT_EQ(counts.byFamily["no-custom-kernel"].worst, FlagSeverity::Benign);
}

// The window's "N flagged" and `kscope summary`'s are the same number on the real CUDA-L1 release, and each
// family's severity in the summary is the worst the GUI's flags carry.
TEST(TrustDisplay, TheWindowAndKscopeSummaryAgreeOnFlaggedAndOnSeverity) {
  const QString release = QStringLiteral(KS_SHARED_DIR "/datasets/cuda-l1/h100.jsonl");
  const QString kscope = QStringLiteral(KS_BINARY_DIR "/bin/kscope");
  if (!QFileInfo::exists(release)) GTEST_SKIP() << "no CUDA-L1 release at " << release.toStdString();
  if (!QFileInfo::exists(kscope)) GTEST_SKIP() << "kscope is not built at " << kscope.toStdString();
  QProcess cli;
  cli.start(kscope, {QStringLiteral("summary"), QStringLiteral("--json"), release});
  ASSERT_TRUE(cli.waitForFinished(120000));
  ASSERT_EQ(cli.exitCode(), 0) << cli.readAllStandardError().toStdString();
  const QJsonObject summary =
      QJsonDocument::fromJson(cli.readAllStandardOutput())["files"].toArray().first().toObject();
  const QJsonObject cliFlags = summary["static_flags"].toObject();

  MainWindow window;
  QSignalSpy flagsShown(&window, &MainWindow::flagsShown);
  window.openPath(release);
  ASSERT_TRUE(flagsShown.wait(120000));
  const auto& run = window.run();
  const QString status = window.findChild<QLabel*>("statusCounts")->text();
  EXPECT_EQ(run->rowsFlagged(), cliFlags["flagged"].toInt());
  EXPECT_TRUE(status.contains(QStringLiteral(" · %1 flagged · ").arg(cliFlags["flagged"].toInt())))
      << status.toStdString();
  std::map<std::string, FlagSeverity> worst;
  for (int row = 0; row < run->rowCount(); ++row)
    for (const Flag& f : run->flags(row))
      worst[f.family] = worst.count(f.family) ? worseSeverity(worst[f.family], f.severity) : f.severity;
  ASSERT_FALSE(worst.empty());
  for (const QJsonValue& family : cliFlags["families"].toArray()) {
    const std::string id = family["id"].toString().toStdString();
    if (family["candidates"].toInt() == 0) continue;
    ASSERT_TRUE(worst.count(id)) << id;
    EXPECT_EQ(family["severity"].toString().toStdString(), severityName(worst[id])) << id;
  }
}

}  // namespace
}  // namespace ks
