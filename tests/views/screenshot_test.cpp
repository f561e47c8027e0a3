// Screenshots of the main views for a person to look at: the window on the real CUDA-L1 release with a
// flagged (or else the fastest) candidate selected, code compare, the three charts, the task × flag family
// matrix, flags and analysis; on the synthetic run, a recorded analysis and an extracted CUDA source; and
// re-runs with the real kscope-runner on CPU: a result, an edit's error on its line, the flags pane with the
// runtime flags of the cached-output hack, recorded against measured. They are written into the build tree
// (<build>/screenshots), so that running the tests leaves the sources alone; docs/screenshots/update.sh runs
// these tests and copies them into docs/screenshots.
#include <gtest/gtest.h>

#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "app/kernelscope/main_window.h"
#include "app/kernelscope/run_controller.h"
#include "app/kernelscope/run_loader.h"
#include "core/hash/sha256.h"
#include "tests/view_logic/synthetic_run.h"
#include "tests/views/joined_samples.h"
#include "views/charts/charts_view.h"
#include "views/charts/flag_matrix_chart.h"
#include "views/logic/open_run.h"
#include "views/item_models/flag_matrix_model.h"
#include "views/item_models/flag_table_model.h"
#include "views/widgets/analysis_view.h"
#include "views/widgets/code_compare_view.h"
#include "views/widgets/code_editor.h"
#include "views/widgets/flags_view.h"
#include "views/widgets/measurements_view.h"
#include "views/widgets/run_settings_bar.h"
#include "views/widgets/task_table.h"
#include "ks_test_paths.h"
#include "tests/views/gui_test_support.h"

namespace ks {
namespace {

using guitest::kCudaL1Release;
using guitest::kScreenshotDir;
using guitest::saveScreenshot;


// Every screenshot starts from the default layout, whatever tests before it left in the settings.
void clearSettings() { QSettings().clear(); }


// The candidate a reviewer would look at first: the most flags (hack before suspicious), else the fastest.
int mostInterestingRow(const LoadedRun& run) {
  int best = -1;
  auto score = [&](int r) {
    double s = 0;
    for (const Flag& f : run.flags(r)) s += f.severity == FlagSeverity::Hack ? 100 : 10;
    const Candidate* c = run.candidate(r);
    if (c && c->speedup()) s += std::min(*c->speedup(), 9.0);
    return c && c->code ? s : -1.0;
  };
  for (int r = 0; r < run.rowCount(); ++r)
    if (best < 0 || score(r) > score(best)) best = r;
  return best;
}

TEST(Screenshots, MainViewsOnTheCudaL1Release) {
  if (!QFileInfo::exists(kCudaL1Release))
    GTEST_SKIP() << "the CUDA-L1 release is not at " << kCudaL1Release.toStdString();
  ASSERT_TRUE(QDir().mkpath(kScreenshotDir));
  clearSettings();
  MainWindow window;  // at its default size, 1500 × 940
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  QSignalSpy flagged(&window, &MainWindow::flagsShown);
  window.openPath(kCudaL1Release);
  ASSERT_TRUE(flagged.wait(60000));
  const int row = mostInterestingRow(*window.run());
  ASSERT_GE(row, 0);
  window.taskTable()->setCurrentRow(row);
  window.showPane(MainWindow::Pane::Code);
  QTest::qWait(100);
  saveScreenshot(&window, QStringLiteral("main_window.png"));
  saveScreenshot(window.codeView(), QStringLiteral("code_compare.png"));
  saveScreenshot(window.flagsView(), QStringLiteral("flags.png"));
  saveScreenshot(window.analysisView(), QStringLiteral("analysis.png"));
  // The smallest window the layout is made for: every pane still usable.
  window.resize(MainWindow::kSmallestScreen);
  QTest::qWait(100);
  saveScreenshot(&window, QStringLiteral("main_window_1024x700.png"));
  window.resize(1500, 940);
  QTest::qWait(50);

  window.showPane(MainWindow::Pane::Charts);
  auto* tabs = window.chartsView()->tabs();
  const QStringList names{QStringLiteral("charts_histogram.png"), QStringLiteral("charts_cdf.png"),
                          QStringLiteral("charts_by_level.png")};
  for (int t = 0; t < names.size(); ++t) {  // the recorded-vs-measured tab has nothing measured here
    tabs->setCurrentIndex(t);
    QTest::qWait(50);
    saveScreenshot(window.chartsView(), names[t]);
  }
  tabs->setCurrentWidget(window.chartsView()->flagMatrix());
  QTest::qWait(50);
  ASSERT_GT(window.chartsView()->flagMatrix()->model()->rowCount(), 0);
  saveScreenshot(window.chartsView(), QStringLiteral("flag_matrix.png"));
}

// A re-run whose probes caught the cached-output hack (a result made here, no runner needed): the header,
// the Measurements table and the task table say so before the struck-through number.
TEST(Screenshots, ACaughtHackNeverReadsAsAWin) {
  ASSERT_TRUE(QDir().mkpath(kScreenshotDir));
  clearSettings();
  MainWindow window;
  window.resize(MainWindow::kSmallestScreen);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  QSignalSpy history(&window, &MainWindow::historyShown);
  window.showRun(QStringLiteral("/tmp/synthetic-run.jsonl"), test::syntheticRun());
  ASSERT_TRUE(history.wait(10000));
  window.taskTable()->setCurrentRow(test::kRowC);
  protocol::RuntimeFlag hack;
  hack.family = "cached-output";
  hack.severity = "hack";
  hack.probe = "repeat-calls";
  hack.message = "Two calls on different inputs returned the same storage: the output is cached.";
  window.openRun()->addRun(test::kRowC, {test::timedRun(10059.9, "sha256:recorded", {hack}), true});
  QTest::qWait(100);
  saveScreenshot(&window, QStringLiteral("main_window_caught_hack_1024x700.png"));
  saveScreenshot(window.measurementsView(), QStringLiteral("measurements_caught_hack.png"));
}

TEST(Screenshots, RecordedAnalysisAndFlagsOnASyntheticRun) {
  ASSERT_TRUE(QDir().mkpath(kScreenshotDir));
  clearSettings();
  MainWindow window;
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  window.showRun(QStringLiteral("/tmp/synthetic-run.jsonl"), test::syntheticRun());
  window.taskTable()->setCurrentRow(test::kRowC);
  saveScreenshot(window.analysisView(), QStringLiteral("analysis_recorded.png"));
  window.taskTable()->setCurrentRow(test::kRowE);
  window.flagsView()->view()->setFocus();
  saveScreenshot(&window, QStringLiteral("main_window_flagged.png"));
  // The CUDA source extracted from the program, numbered with the program's lines, flags in the margin.
  auto* choice = window.codeView()->findChild<QComboBox*>(QStringLiteral("candidateChoice"));
  ASSERT_GT(choice->count(), 1);
  choice->setCurrentIndex(choice->findText(QStringLiteral("cuda_source"), Qt::MatchStartsWith));
  saveScreenshot(window.codeView(), QStringLiteral("code_compare_cuda_source.png"));
}

TEST(Screenshots, RerunResultsAnEditsErrorAndRecordedVsMeasured) {
  // Real re-runs on this machine's CPU of the candidates of two samples (the CUDA ones fail here, which shows
  // too), next to the speedups the samples record on an H100. fused-elementwise is left out: its 2048 x 4096
  // chain takes 0.6 s a call on a 2-core CPU, so its three candidates cost minutes and show nothing here that
  // the other two samples do not.
  QTemporaryDir dir;
  qputenv("KSCOPE_RESULTS_DB", dir.filePath(QStringLiteral("results.sqlite")).toUtf8());
  ASSERT_TRUE(QDir().mkpath(kScreenshotDir));
  clearSettings();
  MainWindow window;
  if (!window.runController()->runnerProblem().isEmpty()) GTEST_SKIP() << "no kscope-runner";
  window.resize(1600, 1000);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  const QString path =
      test::writeJoinedSamples(dir.path(), {QStringLiteral("diag-matmul.kscope.jsonl"),
                                            QStringLiteral("cached-output-hack.kscope.jsonl")});
  ASSERT_FALSE(path.isEmpty());
  QSignalSpy history(&window, &MainWindow::historyShown);
  window.openPath(path);
  ASSERT_TRUE(history.wait(60000));
  window.runSettings()->setChoices({.device = "cpu", .trials = 5, .seeds = 2});
  QSignalSpy idle(window.runController(), &RunController::idle);
  window.runAllVisible();
  ASSERT_TRUE(idle.wait(600000));

  // The cached-output hack memoises on data pointers: the runtime probes catch it on CPU too.
  window.taskTable()->setCurrentRow(window.run()->findRow("L1/901", "r2"));
  window.showPane(MainWindow::Pane::Flags);
  QTest::qWait(100);
  const FlagTableModel* flags = window.flagsView()->model();
  bool runtime = false;
  for (int f = 0; f < flags->rowCount(); ++f) runtime = runtime || flags->isRuntime(f);
  EXPECT_TRUE(runtime) << "no runtime flag on L1/901 r2";
  saveScreenshot(window.flagsView(), QStringLiteral("flags_runtime.png"));

  const int row = window.run()->findRow("L1/12", "r2");
  window.taskTable()->setCurrentRow(row);
  window.showPane(MainWindow::Pane::Code);
  window.showPane(MainWindow::Pane::Measurements);
  QTest::qWait(100);
  saveScreenshot(&window, QStringLiteral("run_result.png"));

  // An edit with a syntax error: annotated on its line, listed in the result pane.
  QSignalSpy finished(&window, &MainWindow::runFinished);
  window.codeView()->setEditing(true);
  CodeEditor* editor = window.codeView()->candidateEditor();
  const int line = test::lineContaining(*window.run()->candidate(row)->code, "return A.unsqueeze(1) * B") - 1;
  const QString old = editor->text(line);
  editor->setSelection(line, 0, line, static_cast<int>(old.size()) - 1);
  editor->replaceSelectedText(QStringLiteral("        return A.unsqueeze(1) * * B"));
  window.runSelected();
  ASSERT_TRUE(finished.wait(120000));
  QTest::qWait(100);
  saveScreenshot(&window, QStringLiteral("run_error.png"));

  window.showPane(MainWindow::Pane::Charts);
  window.chartsView()->tabs()->setCurrentWidget(window.chartsView()->versusView());
  QTest::qWait(100);
  saveScreenshot(window.chartsView(), QStringLiteral("recorded_vs_measured.png"));
  window.codeView()->revertEdit();  // leaves no autosaved edit behind
}

}  // namespace
}  // namespace ks

namespace ks {
namespace {

// The Charts tab, at the smallest window the layout is made for and at
// the default size: the release's caught hacks (static hack flags) and a few fallback-timed re-runs (results
// made here: each candidate's kernel did not build and its program timed the PyTorch fallback) are grey and
// counted, never wins. Then a repaired run's details with the three numbers side by side.
TEST(Screenshots, ChartsNeverDrawACaughtHackOrAFallbackAsAWin) {
  if (!QFileInfo::exists(kCudaL1Release))
    GTEST_SKIP() << "the CUDA-L1 release is not at " << kCudaL1Release.toStdString();
  ASSERT_TRUE(QDir().mkpath(kScreenshotDir));
  clearSettings();
  MainWindow window;
  window.resize(MainWindow::kSmallestScreen);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  QSignalSpy flagged(&window, &MainWindow::flagsShown);
  window.openPath(kCudaL1Release);
  ASSERT_TRUE(flagged.wait(60000));
  int added = 0;
  for (int row = 0; row < window.run()->rowCount() && added < 6; ++row) {
    const Candidate* c = window.run()->candidate(row);
    if (!c || !c->code || !c->speedup() || c->code->find("load_inline") == std::string::npos) continue;
    runs::MeasuredRun fallback = test::timedRun(*c->speedup() * 0.7);
    fallback.result->build.extensions.push_back(protocol::ExtensionBuild{
        .name = "ext", .program = "candidate", .ok = false, .error = "error", .cause = "bound-kernel"});
    window.openRun()->addRun(row, {fallback, true});
    ++added;
  }
  ASSERT_EQ(added, 6);
  window.showPane(MainWindow::Pane::Charts);
  auto* tabs = window.chartsView()->tabs();
  tabs->setCurrentIndex(0);
  QTest::qWait(100);
  // A re-run that fell back of a candidate with a static hack flag counts as a caught hack.
  const QString notWins = window.chartsView()->notWinsText();
  EXPECT_TRUE(notWins.contains(" fallback-timed, ") && notWins.contains(" caught hacks not shown as wins"))
      << notWins.toStdString();
  saveScreenshot(&window, QStringLiteral("charts_not_wins_1024x700.png"));
  window.resize(1500, 940);
  QTest::qWait(100);
  const QStringList names{QStringLiteral("charts_not_wins_histogram.png"),
                          QStringLiteral("charts_not_wins_cdf.png"),
                          QStringLiteral("charts_not_wins_by_level.png")};
  for (int t = 0; t < names.size(); ++t) {
    tabs->setCurrentIndex(t);
    QTest::qWait(50);
    saveScreenshot(window.chartsView(), names[t]);
  }

  // A repaired program's run (as kscope run --repair records it) after the fallback's: the Measurements pane.
  const int row = window.run()->findRow("L1/12", "");
  ASSERT_GE(row, 0);
  window.taskTable()->setCurrentRow(row);
  const std::string original = *window.run()->candidate(row)->code;
  runs::MeasuredRun fallback = test::timedRun(1.02, hash::codeHash(original));
  fallback.result->build.extensions.push_back(protocol::ExtensionBuild{.name = "diagonal_matmul_cuda",
                                                                       .program = "candidate",
                                                                       .ok = false,
                                                                       .error = "error",
                                                                       .cause = "bound-kernel"});
  window.openRun()->addRun(row, {fallback, true});
  runs::MeasuredRun repaired = test::timedRun(2.91, "sha256:repaired");
  repaired.repair =
      store::StoredRepair{hash::codeHash(original),
                          {{"bind-wrapper",
                            "functions=[\"diagonal_matmul_kernel\"] binds a __global__ kernel: a "
                            "host wrapper that launches it is bound instead",
                            {40}}},
                          {}};
  window.openRun()->addRun(row, {repaired, false});
  window.showPane(MainWindow::Pane::Measurements);
  QTest::qWait(100);
  saveScreenshot(window.measurementsView(), QStringLiteral("measurements_repaired.png"));
}

}  // namespace
}  // namespace ks
