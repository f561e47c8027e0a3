// Flags as evidence for a person, on a synthetic run and history (no runner) and on the real CUDA-L1
// release: the task × flag family matrix (rows, order, worst severity and its colour, counts, the runtime
// corner, tooltips, clicks that filter the task list and select), the Flags pane listing a re-run's runtime
// flags beside the static ones (source, measured numbers, jump to line, editor margin), and the Measured
// column struck out when the re-run's probes caught a hack.
#include <gtest/gtest.h>

#include <QBrush>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QFont>
#include <QHeaderView>
#include <QIcon>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <map>

#include "app/kernelscope/main_window.h"
#include "core/flags/flag_families.h"
#include "tests/view_logic/synthetic_run.h"
#include "views/charts/charts_view.h"
#include "views/charts/flag_matrix_chart.h"
#include "views/logic/flag_matrix.h"
#include "views/logic/measured_history.h"
#include "views/logic/open_run.h"
#include "views/item_models/candidate_filter_proxy.h"
#include "views/item_models/candidate_table_model.h"
#include "views/item_models/flag_matrix_model.h"
#include "views/item_models/flag_table_model.h"
#include "views/widgets/code_compare_view.h"
#include "views/widgets/code_editor.h"
#include "views/widgets/flags_view.h"
#include "views/widgets/task_table.h"
#include "ks_test_paths.h"
#include "tests/views/gui_test_support.h"

namespace ks {
namespace {

using guitest::kCudaL1Release;

// CodeEditor's flag markers (HackFlag, SuspiciousFlag, BenignFlag: markers 6, 7, 8).
constexpr unsigned kFlagMarkers = (1u << 6) | (1u << 7) | (1u << 8);

Flag flag(const std::string& family, FlagSeverity severity, const std::string& message,
          std::vector<int> lines = {}) {
  Flag f;
  f.family = family;
  f.severity = severity;
  f.confidence = 0.8;
  f.message = message;
  f.lines = std::move(lines);
  return f;
}

protocol::RuntimeFlag runtimeFlag(const std::string& family, const std::string& severity,
                                  const std::string& message, std::vector<int> lines = {}) {
  protocol::RuntimeFlag f;
  f.family = family;
  f.severity = severity;
  f.confidence = 0.95;
  f.probe = "repeat-calls";
  f.message = message;
  f.lines = std::move(lines);
  f.evidence = {{"same_storage_calls", 5}, {"max_abs_diff", 0.0}};
  return f;
}

// A correct, timed re-run of the recorded program on cpu whose probes raised `flags`.
MeasuredHistory::Entry measured(double speedup, std::vector<protocol::RuntimeFlag> flags) {
  return {test::timedRun(speedup, "sha256:recorded", std::move(flags)), true};
}

// The synthetic run with more static flags:
//   L1/1 a: lowered-precision suspicious, no-custom-kernel benign; b: lowered-precision suspicious,
//   cached-output suspicious · L1/2 c: no-custom-kernel benign only · L2/9 e: extra-stream hack (the
//   synthetic run's own). Its tasks are stored L3 first, so that the matrix has to sort them.
std::shared_ptr<const LoadedRun> flaggedRun() {
  RunFile file = test::syntheticRun()->run();
  std::reverse(file.tasks.begin(), file.tasks.end());
  auto run = std::make_shared<LoadedRun>(file);
  std::vector<std::vector<Flag>> flags(static_cast<std::size_t>(run->rowCount()));
  const auto at = [&](const char* task, const char* id) -> std::vector<Flag>& {
    const int row = run->findRow(task, id);
    EXPECT_GE(row, 0) << task << " " << id;
    return flags[static_cast<std::size_t>(row)];
  };
  at("L1/1", "a") = {flag("lowered-precision", FlagSeverity::Suspicious, "Casts the inputs to half.", {6}),
                     flag("no-custom-kernel", FlagSeverity::Benign, "Only PyTorch calls.")};
  at("L1/1", "b") = {flag("lowered-precision", FlagSeverity::Suspicious, "Enables TF32 matmuls."),
                     flag("cached-output", FlagSeverity::Suspicious, "Keeps the last output in a global.")};
  at("L1/2", "c") = {flag("no-custom-kernel", FlagSeverity::Benign, "Only PyTorch calls.")};
  at("L2/9", "e") = test::syntheticRun()->flags(test::kRowE);
  return run->withFlags({flags, {}});
}

// L1/2 c re-run: its probes caught a cached output (hack); L1/1 a re-run: a suspicious runtime flag only.
std::shared_ptr<MeasuredHistory> flaggedHistory(const LoadedRun& run) {
  auto h = std::make_shared<MeasuredHistory>(run.rowCount());
  h->add(run.findRow("L1/2", "c"),
         measured(40.0, {runtimeFlag("cached-output", "hack",
                                     "Two calls on different inputs returned the same storage.", {4})}));
  h->add(run.findRow("L1/1", "a"),
         measured(1.4, {runtimeFlag("lowered-precision", "suspicious", "Error of fp16 size.")}));
  return h;
}

int column(const FlagMatrix& m, const std::string& family) {
  const auto it = std::find(m.families().begin(), m.families().end(), family);
  return it == m.families().end() ? -1 : static_cast<int>(it - m.families().begin());
}

std::string taskKey(const LoadedRun& run, const FlagMatrix& m, int row) {
  return run.run().tasks[static_cast<std::size_t>(m.tasks()[static_cast<std::size_t>(row)].task)].key();
}

TEST(FlagMatrix, TasksWithANonBenignFlagByLevelWithWorstSeverityCountsAndRuntimeCells) {
  const auto run = flaggedRun();
  const auto history = flaggedHistory(*run);
  FlagMatrixModel model;
  model.setRun(run, history);
  const FlagMatrix& m = model.matrix();
  ASSERT_EQ(model.columnCount(), static_cast<int>(flagFamilies().size()));
  EXPECT_EQ(model.headerData(0, Qt::Horizontal, Qt::DisplayRole).toString().toStdString(),
            std::string(flagFamilies()[0].id));
  // L1/2 is there only because its re-run raised a hack; L2/5 and L3/7 have no flag. Sorted by level.
  ASSERT_EQ(model.rowCount(), 3);
  EXPECT_EQ(taskKey(*run, m, 0), "L1/1");
  EXPECT_EQ(taskKey(*run, m, 1), "L1/2");
  EXPECT_EQ(taskKey(*run, m, 2), "L2/9");
  EXPECT_TRUE(
      model.headerData(0, Qt::Vertical, Qt::DisplayRole).toString().startsWith("L1/1  Square_matrix"));

  const auto cell = [&](int row, const std::string& family, int role) {
    return model.data(model.index(row, column(m, family)), role);
  };
  const auto severity = [&](int row, const std::string& family) {
    return cell(row, family, FlagMatrixModel::SeverityRole).toInt();
  };
  const auto colour = [&](int row, const std::string& family) {
    return cell(row, family, Qt::BackgroundRole).value<QBrush>().color();
  };
  // L1/1: two candidates lower the precision (one of them measured so too), one caches, one is benign.
  EXPECT_EQ(severity(0, "lowered-precision"), FlagMatrix::Suspicious);
  EXPECT_EQ(cell(0, "lowered-precision", Qt::DisplayRole).toString(), "2");
  EXPECT_TRUE(cell(0, "lowered-precision", FlagMatrixModel::RuntimeRole).toBool());
  EXPECT_EQ(colour(0, "lowered-precision"), FlagMatrixModel::severityColor(FlagMatrix::Suspicious));
  EXPECT_EQ(severity(0, "cached-output"), FlagMatrix::Suspicious);
  EXPECT_EQ(cell(0, "cached-output", Qt::DisplayRole).toString(), "1");
  EXPECT_FALSE(cell(0, "cached-output", FlagMatrixModel::RuntimeRole).toBool());
  EXPECT_EQ(severity(0, "no-custom-kernel"), FlagMatrix::Benign);
  EXPECT_EQ(colour(0, "no-custom-kernel"), FlagMatrixModel::severityColor(FlagMatrix::Benign));
  EXPECT_EQ(severity(0, "extra-stream"), FlagMatrix::None);
  EXPECT_EQ(cell(0, "extra-stream", Qt::DisplayRole).toString(), "");
  EXPECT_FALSE(cell(0, "extra-stream", Qt::BackgroundRole).isValid());
  // L1/2: the runtime hack is the worst, over the static benign flag of another family.
  EXPECT_EQ(severity(1, "cached-output"), FlagMatrix::Hack);
  EXPECT_TRUE(cell(1, "cached-output", FlagMatrixModel::RuntimeRole).toBool());
  EXPECT_EQ(colour(1, "cached-output"), FlagMatrixModel::severityColor(FlagMatrix::Hack));
  EXPECT_EQ(cell(1, "cached-output", Qt::ForegroundRole).value<QBrush>().color(), QColor(Qt::white));
  EXPECT_EQ(severity(1, "no-custom-kernel"), FlagMatrix::Benign);
  // L2/9: the static hack.
  EXPECT_EQ(severity(2, "extra-stream"), FlagMatrix::Hack);
  EXPECT_FALSE(cell(2, "extra-stream", FlagMatrixModel::RuntimeRole).toBool());
  // Three distinct colours, one per severity.
  EXPECT_NE(FlagMatrixModel::severityColor(FlagMatrix::Hack),
            FlagMatrixModel::severityColor(FlagMatrix::Suspicious));
  EXPECT_NE(FlagMatrixModel::severityColor(FlagMatrix::Suspicious),
            FlagMatrixModel::severityColor(FlagMatrix::Benign));

  EXPECT_EQ(m.hackTaskCount(), 2);
  EXPECT_EQ(m.runtimeTaskCount(), 2);
  EXPECT_EQ(m.familyTaskCount(column(m, "cached-output")), 2);
  EXPECT_EQ(m.familyTaskCount(column(m, "timer-patch")), 0);

  // Tooltips: the sentences, static and runtime, with candidate and device.
  const QString lowered = cell(0, "lowered-precision", Qt::ToolTipRole).toString();
  EXPECT_TRUE(lowered.contains("Casts the inputs to half.")) << lowered.toStdString();
  EXPECT_TRUE(lowered.contains("Enables TF32 matmuls."));
  EXPECT_TRUE(lowered.contains("Error of fp16 size."));
  EXPECT_TRUE(lowered.contains("runtime, cpu"));
  EXPECT_TRUE(lowered.contains("raised by 2 of 2 candidates"));
  const QString cached = cell(1, "cached-output", Qt::ToolTipRole).toString();
  EXPECT_TRUE(cached.contains("Two calls on different inputs returned the same storage."))
      << cached.toStdString();
  EXPECT_TRUE(cached.contains("line 4"));

  // Rows of a cell, of a task.
  EXPECT_EQ(m.rowsOf(*run, history.get(), 0, column(m, "cached-output")),
            std::vector<int>{run->findRow("L1/1", "b")});
  EXPECT_EQ(m.rowsOf(*run, history.get(), 0, column(m, "lowered-precision")),
            (std::vector<int>{run->findRow("L1/1", "a"), run->findRow("L1/1", "b")}));
  EXPECT_EQ(m.rowsOf(*run, history.get(), 0, -1).size(), 2u);

  // Without the history, L1/2 has only a benign flag and leaves the matrix.
  model.setRun(run, nullptr);
  EXPECT_EQ(model.rowCount(), 2);
  EXPECT_EQ(model.matrix().runtimeTaskCount(), 0);
}

TEST(FlagMatrix, CountsAHundredThousandRows) {
  const auto run = test::largeRun(100000);
  QElapsedTimer timer;
  timer.start();
  const FlagMatrix m(*run, nullptr);
  const qint64 ms = timer.elapsed();
  // Printed, not asserted: bench_gui times it against its target; a test on a loaded machine cannot.
  std::cout << "flag matrix of 100 000 rows: " << ms << " ms, " << m.rowCount() << " tasks\n";
  // largeRun flags every 13th row: suspicious cached-output or extra-stream.
  int expected = 0;
  for (const auto& t : m.tasks()) expected += t.worst == FlagMatrix::Suspicious;
  EXPECT_EQ(expected, m.rowCount());
  EXPECT_GT(m.rowCount(), 5000);
}

TEST(FlagMatrix, ClickingACellFiltersTheTaskListByTheFamilyAndSelectsThoseCandidates) {
  const auto run = flaggedRun();
  MainWindow window;
  window.resize(1500, 940);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  QSignalSpy history(&window, &MainWindow::historyShown);
  window.showRun(QStringLiteral("/tmp/flagged-run.jsonl"), run);
  ASSERT_TRUE(history.wait(10000));  // the (empty) results history, read off the GUI thread
  window.showPane(MainWindow::Pane::Charts);
  FlagMatrixChart* chart = window.chartsView()->flagMatrix();
  window.chartsView()->tabs()->setCurrentWidget(chart);
  QTest::qWait(50);
  const FlagMatrix& m = chart->model()->matrix();
  ASSERT_EQ(m.rowCount(), 2);  // no re-run here: L1/1 and L2/9
  EXPECT_TRUE(chart->summary().contains("<b>2</b> of 5 tasks")) << chart->summary().toStdString();

  QTableView* view = chart->view();
  const QRect rect = view->visualRect(chart->model()->index(0, column(m, "cached-output")));
  ASSERT_TRUE(rect.isValid());
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
  TaskTable* tasks = window.taskTable();
  EXPECT_TRUE(window.findChild<QComboBox*>("filterFlags")->currentText().startsWith("cached-output"));
  ASSERT_EQ(tasks->shownCount(), 1);
  EXPECT_EQ(tasks->proxy()->sourceRow(0), run->findRow("L1/1", "b"));
  EXPECT_EQ(tasks->currentRow(), run->findRow("L1/1", "b"));
  EXPECT_EQ(tasks->selectedRows(), QList<int>{run->findRow("L1/1", "b")});
  EXPECT_EQ(window.flagsView()->model()->rowCount(), 2);  // b's flags on show

  // The lowered-precision cell of the same task: both candidates, the filter follows.
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                    view->visualRect(chart->model()->index(0, column(m, "lowered-precision"))).center());
  EXPECT_EQ(tasks->shownCount(), 2);
  EXPECT_EQ(tasks->selectedRows(), (QList<int>{run->findRow("L1/1", "a"), run->findRow("L1/1", "b")}));

  // An empty cell selects the task's candidates that the filter shows and leaves the filter alone.
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                    view->visualRect(chart->model()->index(1, column(m, "timer-patch"))).center());
  EXPECT_TRUE(window.findChild<QComboBox*>("filterFlags")->currentText().startsWith("lowered-precision"));
  tasks->clearFilters();
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                    view->visualRect(chart->model()->index(1, column(m, "timer-patch"))).center());
  EXPECT_EQ(tasks->selectedRows(), QList<int>{run->findRow("L2/9", "e")});
  EXPECT_EQ(tasks->shownCount(), run->rowCount());
}

TEST(FlagMatrix, RuntimeOnlyFamiliesFilterTheTaskTableToo) {
  const auto run = flaggedRun();
  auto history = std::make_shared<MeasuredHistory>(run->rowCount());
  TaskTable table;
  table.setRun(run);
  table.setHistory(history);
  EXPECT_FALSE(table.filterByFamily("timer-patch"));  // nobody raises it
  // A re-run of e patches the timer: a family no static rule raised on this run.
  history->add(run->findRow("L2/9", "e"),
               measured(17.0, {runtimeFlag("timer-patch", "hack", "time.perf_counter was replaced.")}));
  table.refreshMeasured();
  ASSERT_TRUE(table.filterByFamily("timer-patch"));
  ASSERT_EQ(table.shownCount(), 1);
  EXPECT_EQ(table.proxy()->sourceRow(0), run->findRow("L2/9", "e"));
  CandidateTableModel* model = table.model();
  const int row = run->findRow("L2/9", "e");
  EXPECT_EQ(model->data(model->index(row, model->flagsColumn()), Qt::DisplayRole).toString(),
            "extra-stream, timer-patch");
  EXPECT_TRUE(model->data(model->index(row, model->flagsColumn()), Qt::ToolTipRole)
                  .toString()
                  .contains("hack · timer-patch (runtime, cpu): time.perf_counter was replaced."));
}

TEST(MeasuredColumn, IsStruckOutWithAWarningWhenTheReRunsProbesCaughtAHack) {
  const auto run = flaggedRun();
  const auto history = flaggedHistory(*run);
  CandidateTableModel model;
  model.setRun(run);
  model.setHistory(history);
  const int column = model.measuredColumn();
  const auto cell = [&](int row, int role) { return model.data(model.index(row, column), role); };

  const int hacked = run->findRow("L1/2", "c");  // measured 40×, cached-output caught at run time
  EXPECT_EQ(model.runtimeHackFamilies(hacked), std::vector<std::string>{"cached-output"});
  EXPECT_TRUE(cell(hacked, Qt::FontRole).value<QFont>().strikeOut());
  EXPECT_EQ(cell(hacked, Qt::BackgroundRole).value<QBrush>().color(), QColor(0xf8, 0xd7, 0xda));
  EXPECT_FALSE(cell(hacked, Qt::DecorationRole).value<QIcon>().isNull());
  const QString tip = cell(hacked, Qt::ToolTipRole).toString();
  EXPECT_TRUE(tip.contains("Struck out: its re-run's probes caught a hack: cached-output"))
      << tip.toStdString();
  EXPECT_EQ(model.values(hacked).worstSeverity, 3);  // the runtime hack counts as the row's worst flag

  const int suspicious = run->findRow("L1/1", "a");  // measured 1.4× against 1.5×, a suspicious flag only
  EXPECT_TRUE(model.runtimeHackFamilies(suspicious).empty());
  EXPECT_FALSE(cell(suspicious, Qt::FontRole).isValid());
  EXPECT_FALSE(cell(suspicious, Qt::BackgroundRole).isValid());
  EXPECT_FALSE(cell(suspicious, Qt::DecorationRole).isValid());
  EXPECT_FALSE(cell(suspicious, Qt::ToolTipRole).toString().contains("caught a hack"));

  const int unmeasured = run->findRow("L2/9", "e");  // a static hack only: the Measured cell says nothing
  EXPECT_FALSE(cell(unmeasured, Qt::FontRole).isValid());
  EXPECT_EQ(cell(unmeasured, Qt::DisplayRole).toString(), "—");
}

TEST(FlagsView, ListsTheNewestReRunsRuntimeFlagsWithTheirNumbersBesideTheStaticOnes) {
  const auto run = test::syntheticRun();
  auto history = std::make_shared<MeasuredHistory>(run->rowCount());
  const int line = test::lineContaining(*run->candidate(test::kRowE)->code, "def forward");
  history->add(
      test::kRowE,
      measured(17.0, {runtimeFlag("cached-output", "hack",
                                  "Two calls on different inputs returned the same storage.", {line})}));
  FlagsView view;
  view.resize(1200, 240);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  view.setHistory(history);
  view.showRow(run, test::kRowE);
  const FlagTableModel* model = view.model();
  ASSERT_EQ(model->rowCount(), 2);
  // Both hacks; the measured one first.
  EXPECT_TRUE(model->isRuntime(0));
  EXPECT_FALSE(model->isRuntime(1));
  const auto text = [&](int row, int column) { return model->index(row, column).data().toString(); };
  EXPECT_EQ(text(0, FlagTableModel::FamilyColumn).toStdString(), findFlagFamily("cached-output")->title);
  EXPECT_EQ(text(0, FlagTableModel::SourceColumn), "runtime · cpu");
  EXPECT_EQ(text(1, FlagTableModel::SourceColumn), "static");
  EXPECT_EQ(text(0, FlagTableModel::SeverityColumn), "hack");
  EXPECT_EQ(text(0, FlagTableModel::LinesColumn), QString::number(line));
  EXPECT_EQ(text(0, FlagTableModel::EvidenceColumn),
            "probe: repeat-calls · same_storage_calls: 5 · max_abs_diff: 0");
  EXPECT_TRUE(model->index(0, FlagTableModel::MessageColumn)
                  .data(Qt::ToolTipRole)
                  .toString()
                  .contains("What the probe measured:\nprobe: repeat-calls\nsame_storage_calls: 5"));
  EXPECT_TRUE(view.sourceText().contains("1 static flag")) << view.sourceText().toStdString();
  EXPECT_TRUE(view.sourceText().contains("1 runtime flag"));
  EXPECT_TRUE(view.sourceText().contains("AMD EPYC (cpu)"));

  // A click on the runtime flag asks for its line.
  QSignalSpy requested(&view, &FlagsView::lineRequested);
  QTest::mouseClick(view.view()->viewport(), Qt::LeftButton, {},
                    view.view()->visualRect(model->index(0, FlagTableModel::MessageColumn)).center());
  ASSERT_EQ(requested.count(), 1);
  EXPECT_EQ(requested.first().first().toInt(), line);

  // An edit's run is not the recorded program's: its flags are not shown.
  runs::MeasuredRun edit = measured(2.0, {runtimeFlag("timer-patch", "hack", "patched")}).run;
  edit.row.codeHash = "sha256:edited";
  history->add(test::kRowE, {edit, false});
  view.refreshMeasured();
  EXPECT_EQ(model->rowCount(), 2);
  // A row that was never re-run: static flags only, no source line.
  view.showRow(run, test::kRowA);
  EXPECT_EQ(model->rowCount(), 0);
  EXPECT_TRUE(view.sourceText().isEmpty());
}

TEST(FlagsView, RuntimeFlagsAreMarkedInTheEditorMarginOfTheWindow) {
  const auto run = test::syntheticRun();
  MainWindow window;
  window.resize(1500, 940);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  QSignalSpy shown(&window, &MainWindow::historyShown);
  window.showRun(QStringLiteral("/tmp/synthetic-run.jsonl"), run);
  ASSERT_TRUE(shown.wait(10000));
  const std::string& code = *run->candidate(test::kRowC)->code;
  const int line = test::lineContaining(code, "return x.clamp_min(0)");
  ASSERT_GT(line, 0);
  window.openRun()->addRun(test::kRowC,
                           measured(3.0, {runtimeFlag("cached-output", "hack", "cached", {line})}));
  window.taskTable()->setCurrentRow(test::kRowA);
  window.taskTable()->setCurrentRow(test::kRowC);
  EXPECT_NE(window.codeView()->candidateEditor()->markersAtLine(line - 1) & kFlagMarkers, 0u);
  EXPECT_EQ(window.flagsView()->model()->rowCount(), 1);
  EXPECT_TRUE(window.flagsView()->model()->isRuntime(0));
  // Another row: its margin has no flag of c's.
  window.taskTable()->setCurrentRow(test::kRowA);
  for (int l = 0; l < window.codeView()->candidateEditor()->lines(); ++l)
    EXPECT_EQ(window.codeView()->candidateEditor()->markersAtLine(l) & kFlagMarkers, 0u) << l;
}

TEST(FlagMatrix, OnTheCudaL1ReleaseEveryCellAgreesWithTheFlagsOfItsTask) {
  if (!QFileInfo::exists(kCudaL1Release))
    GTEST_SKIP() << "the CUDA-L1 release is not at " << kCudaL1Release.toStdString();
  MainWindow window;
  window.resize(1500, 940);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  QSignalSpy flagged(&window, &MainWindow::flagsShown);
  window.openPath(kCudaL1Release);
  ASSERT_TRUE(flagged.wait(60000));
  const LoadedRun& run = *window.run();
  const FlagMatrixModel* model = window.chartsView()->flagMatrix()->model();
  const FlagMatrix& m = model->matrix();

  // Independently: per task key, per family, the worst severity and the candidates raising it.
  std::map<std::string, std::map<std::string, std::pair<int, int>>> expected;  // worst rank, candidates
  std::map<std::string, bool> nonBenign;
  for (int r = 0; r < run.rowCount(); ++r) {
    std::map<std::string, int> worst;
    for (const Flag& f : run.flags(r)) {
      const int rank = f.severity == FlagSeverity::Hack ? 3 : f.severity == FlagSeverity::Suspicious ? 2 : 1;
      worst[f.family] = std::max(worst[f.family], rank);
      if (rank > 1) nonBenign[run.task(r).key()] = true;
    }
    for (const auto& [family, rank] : worst) {
      auto& cell = expected[run.task(r).key()][family];
      cell.first = std::max(cell.first, rank);
      ++cell.second;
    }
  }
  ASSERT_GT(nonBenign.size(), 10u);  // the release has dozens of flagged tasks (docs/cuda-l1-review.md)
  ASSERT_EQ(model->rowCount(), static_cast<int>(nonBenign.size()));
  ASSERT_EQ(model->columnCount(), static_cast<int>(flagFamilies().size()));
  int hacks = 0;
  for (int r = 0; r < m.rowCount(); ++r) {
    const std::string key = taskKey(run, m, r);
    ASSERT_TRUE(nonBenign.count(key)) << key;
    if (r > 0) {  // by level, then task number
      const Task& prev = run.run().tasks[static_cast<std::size_t>(m.tasks()[r - 1].task)];
      const Task& cur = run.run().tasks[static_cast<std::size_t>(m.tasks()[r].task)];
      EXPECT_TRUE(std::tie(prev.level, prev.number) < std::tie(cur.level, cur.number)) << key;
    }
    for (int c = 0; c < m.columnCount(); ++c) {
      const auto it = expected[key].find(m.families()[static_cast<std::size_t>(c)]);
      const int rank = it == expected[key].end() ? 0 : it->second.first;
      const QModelIndex index = model->index(r, c);
      EXPECT_EQ(index.data(FlagMatrixModel::SeverityRole).toInt(), rank) << key << " " << m.families()[c];
      EXPECT_EQ(index.data().toString(), rank ? QString::number(it->second.second) : QString()) << key;
      if (rank) {
        EXPECT_EQ(index.data(Qt::BackgroundRole).value<QBrush>().color(),
                  FlagMatrixModel::severityColor(static_cast<FlagMatrix::Severity>(rank)));
        EXPECT_FALSE(index.data(FlagMatrixModel::RuntimeRole).toBool());
      }
      hacks += rank == 3;
    }
  }
  EXPECT_GT(hacks, 0);
  std::cout << "CUDA-L1: " << m.rowCount() << " of " << run.run().tasks.size() << " tasks in the matrix, "
            << m.hackTaskCount() << " with a hack\n";
}

// The status bar's "N flagged" counts what the Flags column shows: static flags, and the runtime flags of
// each row's newest re-run (L1/2 c has only a benign static flag until its re-run caught a cached output).
TEST(FlagCounts, TheFlaggedCountIncludesRowsFlaggedOnlyByARerun) {
  const auto run = flaggedRun();
  TaskTable table;
  table.setRun(run);
  EXPECT_TRUE(table.summaryText().contains(QStringLiteral(" · 3 flagged · ")))
      << table.summaryText().toStdString();
  EXPECT_EQ(table.model()->flaggedRows(), run->rowsFlagged());
  table.setHistory(flaggedHistory(*run));
  EXPECT_EQ(table.model()->flaggedRows(), 4);
  EXPECT_TRUE(table.summaryText().contains(QStringLiteral(" · 4 flagged · ")))
      << table.summaryText().toStdString();
}

}  // namespace
}  // namespace ks
