// Re-running candidates from the window, end to end with the real kscope-runner on CPU: a pure-PyTorch
// sample candidate is timed and its result reaches the results store, the Measured column and the
// measurements pane, with what the runner's probes flag; an edit with a syntax error is annotated on its
// line; a hanging edit is stopped at its phase limit and the next run succeeds; a crashing edit is reported
// with its signal and stderr, and one that eats memory is stopped at the memory limit; Cancel kills the run
// in flight and drains the queue; Run All Visible charts one point per measured candidate; an autosaved edit
// is restored by a new window.
#include <gtest/gtest.h>

#include <QChart>
#include <QChartView>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QFont>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <csignal>
#include <functional>
#include <stdexcept>

#include "app/kernelscope/edit_autosave.h"
#include "app/kernelscope/main_window.h"
#include "app/kernelscope/run_controller.h"
#include "core/hash/sha256.h"
#include "core/store/result_store.h"
#include "core/store/store_path.h"
#include "tests/view_logic/synthetic_run.h"
#include "views/charts/charts_view.h"
#include "views/charts/flag_matrix_chart.h"
#include "views/logic/measured_history.h"
#include "views/logic/speedup_format.h"
#include "views/item_models/candidate_table_model.h"
#include "views/item_models/flag_matrix_model.h"
#include "views/item_models/flag_table_model.h"
#include "views/item_models/measurement_table_model.h"
#include "views/widgets/code_compare_view.h"
#include "views/widgets/code_editor.h"
#include "views/widgets/flags_view.h"
#include "views/widgets/measurements_view.h"
#include "views/widgets/run_result_view.h"
#include "views/widgets/run_settings_bar.h"
#include "views/widgets/task_table.h"
#include "ks_test_paths.h"
#include "tests/views/gui_test_support.h"

namespace ks {
namespace {

using guitest::waitUntil;

const QString kDiagMatmul = QStringLiteral(KS_SOURCE_DIR "/sample_runs/diag-matmul.kscope.jsonl");
constexpr int kRunMs = 120000;  // a CPU run of the sample takes seconds; the limit is for a slow machine

// Each test records into a store of its own and starts without autosaved edits. Constructed before the
// window, which reads both locations when it is created.
struct FreshState {
  FreshState() {
    qputenv("KSCOPE_RESULTS_DB", dir.filePath(QStringLiteral("results.sqlite")).toUtf8());
    QDir(EditAutosave().directory()).removeRecursively();
  }
  QTemporaryDir dir;
};

struct Finished {
  RunJob job;
  runs::MeasuredRun run;
  QString storeError;
};


class RerunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!window.runController()->runnerProblem().isEmpty())
      GTEST_SKIP() << "no kscope-runner: " << window.runController()->runnerProblem().toStdString();
    window.resize(1500, 940);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    window.runSettings()->setChoices({.device = "cpu", .trials = 2, .seeds = 1});
    QObject::connect(window.runController(), &RunController::finished,
                     [this](const RunJob& job, const runs::MeasuredRun& run, const QString& storeError) {
                       finished.push_back({job, run, storeError});
                     });
  }

  bool open(const QString& path) { return openIn(window, path); }
  static bool openIn(MainWindow& w, const QString& path) {
    QSignalSpy history(&w, &MainWindow::historyShown);
    w.openPath(path);
    return history.wait(60000);
  }
  int select(const std::string& candidate) {
    const int row = window.run()->findRow("L1/12", candidate);
    window.taskTable()->setCurrentRow(row);
    return row;
  }
  // F9, then the answer to that run.
  const Finished& runSelected() {
    const std::size_t before = finished.size();
    QTest::keyClick(&window, Qt::Key_F9);
    EXPECT_TRUE(waitUntil([&] { return finished.size() > before; }, kRunMs));
    if (finished.size() <= before) throw std::runtime_error("the run did not finish");
    return finished.back();
  }
  CodeEditor* editor() const { return window.codeView()->candidateEditor(); }
  // Turns editing on with Ctrl+E and types `text` in place of 1-based program line `line`'s text.
  void replaceLine(int line, const QString& text) {
    // Edit is enabled once the selected row's program is shown; press Ctrl+E only then, as a user would.
    auto* edit = window.codeView()->findChild<QAbstractButton*>(QStringLiteral("editToggle"));
    ASSERT_TRUE(edit);
    ASSERT_TRUE(waitUntil([&] { return edit->isEnabled(); }, 5000));
    QTest::keyClick(&window, Qt::Key_E, Qt::ControlModifier);
    ASSERT_TRUE(waitUntil([&] { return window.codeView()->isEditing(); }, 2000));
    const QString old = editor()->text(line - 1);
    const int indent = static_cast<int>(old.size() - old.trimmed().size() - 1);  // the line ends in '\n'
    editor()->setSelection(line - 1, indent, line - 1, static_cast<int>(old.size()) - 1);
    QTest::keyClicks(editor(), text);
  }
  std::vector<store::StoredResult> stored() const {
    auto db = store::ResultStore::open(store::defaultStorePath());
    EXPECT_TRUE(db) << db.error;
    auto rows = (*db.value)->history({});
    EXPECT_TRUE(rows) << rows.error;
    return rows.value.value_or(std::vector<store::StoredResult>{});
  }
  QString measuredCell(int row) const {
    CandidateTableModel* model = window.taskTable()->model();
    return model->data(model->index(row, model->measuredColumn()), Qt::DisplayRole).toString();
  }

  FreshState state;
  MainWindow window;
  std::vector<Finished> finished;
};

int programLine(const MainWindow& w, int row, const std::string& needle) {
  return test::lineContaining(*w.run()->candidate(row)->code, needle);
}

TEST_F(RerunTest, RunningACandidateRecordsItAndShowsItInTheTableAndTheMeasurementsPane) {
  ASSERT_TRUE(open(kDiagMatmul));
  const int row = select("r2");
  QStringList progress;
  QObject::connect(window.runController(), &RunController::progressChanged,
                   [&](int, int, const QString& text) { progress << text; });
  const Finished& f = runSelected();

  ASSERT_TRUE(f.run.correct()) << f.run.row.outcome << " " << (f.run.error ? f.run.error->message : "");
  ASSERT_TRUE(f.run.row.speedup);
  EXPECT_TRUE(f.storeError.isEmpty()) << f.storeError.toStdString();
  EXPECT_TRUE(progress.contains(QStringLiteral("1/1 · L1/12 r2 · timing")));
  EXPECT_FALSE(window.findChild<QProgressBar*>("runProgress")->isVisible());  // gone once the queue is empty

  // Appended to the store, as the recorded program of r2, by the GUI.
  const auto rows = stored();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].id, f.run.row.id);
  EXPECT_EQ(rows[0].taskKey, "L1/12");
  EXPECT_EQ(rows[0].candidateId, "r2");
  EXPECT_EQ(rows[0].codeHash, hash::codeHash(*window.run()->candidate(row)->code));
  EXPECT_EQ(rows[0].outcome, "correct");
  EXPECT_EQ(rows[0].origin, "kernelscope");
  EXPECT_EQ(rows[0].sourceFile, QFileInfo(kDiagMatmul).absoluteFilePath().toStdString());
  EXPECT_EQ(rows[0].speedup, f.run.row.speedup);

  // The task table's Measured column, the measurements pane and its details.
  EXPECT_EQ(measuredCell(row), formatSpeedup(*f.run.row.speedup));
  EXPECT_EQ(measuredCell(window.run()->findRow("L1/12", "r1")), QStringLiteral("—"));
  const MeasurementsView* pane = window.measurementsView();
  ASSERT_EQ(pane->model()->claimCount(), 1);  // the H100 speedup the sample records
  ASSERT_EQ(pane->model()->rowCount(), 2);
  EXPECT_EQ(pane->model()->entry(0), nullptr);
  ASSERT_NE(pane->model()->entry(1), nullptr);
  EXPECT_EQ(pane->model()->entry(1)->run.row.id, f.run.row.id);
  EXPECT_TRUE(pane->headline().startsWith(
      QStringLiteral("recorded <b>%1</b> (NVIDIA H100 80GB HBM3, diag-matmul.kscope.jsonl) · measured <b")
          .arg(formatSpeedup(*window.run()->candidate(row)->speedup()))))
      << pane->headline().toStdString();
  EXPECT_TRUE(pane->headline().contains(QStringLiteral("cpu")));
  EXPECT_TRUE(pane->resultView()->plainText().startsWith(QStringLiteral("Correct")));
  EXPECT_TRUE(pane->resultView()->plainText().contains(QStringLiteral("results row %1").arg(f.run.row.id)));

  // Another window reads it back from the store, next to the recorded number.
  MainWindow second;
  ASSERT_TRUE(openIn(second, kDiagMatmul));
  ASSERT_NE(second.history()->latestOfRecorded(row), nullptr);
  EXPECT_EQ(second.history()->latestOfRecorded(row)->row.id, f.run.row.id);
}

TEST_F(RerunTest, WhatTheRunnersProbesFlagIsShownWithTheResult) {
  // r2 of this sample memoises its product by the operands' data pointers: correct, and caught at run time.
  ASSERT_TRUE(open(QStringLiteral(KS_SOURCE_DIR "/sample_runs/cached-output-hack.kscope.jsonl")));
  window.taskTable()->setCurrentRow(window.run()->findRow("L1/901", "r2"));
  const Finished& f = runSelected();
  ASSERT_TRUE(f.run.result) << (f.run.error ? f.run.error->message : f.run.unreadable);
  ASSERT_FALSE(f.run.result->runtimeFlags.empty());
  const QString shown = window.measurementsView()->resultView()->plainText();
  EXPECT_TRUE(shown.contains(QStringLiteral("Runtime flags"))) << shown.toStdString();
  for (const auto& flag : f.run.result->runtimeFlags)
    EXPECT_TRUE(shown.contains(QString::fromStdString(flag.message))) << flag.message;

  // The Flags pane lists them beside the static flags, as measured on cpu, with the probes' numbers.
  const int row = window.run()->findRow("L1/901", "r2");
  const FlagTableModel* flags = window.flagsView()->model();
  int runtime = 0;
  for (int i = 0; i < flags->rowCount(); ++i) {
    if (!flags->isRuntime(i)) continue;
    ++runtime;
    EXPECT_EQ(flags->index(i, FlagTableModel::SourceColumn).data().toString(), "runtime · cpu");
    EXPECT_TRUE(flags->index(i, FlagTableModel::EvidenceColumn).data().toString().startsWith("probe: "));
  }
  EXPECT_EQ(runtime, static_cast<int>(f.run.result->runtimeFlags.size()));
  EXPECT_EQ(flags->rowCount() - runtime, static_cast<int>(window.run()->flags(row).size()));
  EXPECT_TRUE(window.flagsView()->sourceText().contains("(cpu)"))
      << window.flagsView()->sourceText().toStdString();

  // A hack caught at run time strikes the Measured number out; the matrix marks the task's cells measured.
  const bool hack = std::any_of(f.run.result->runtimeFlags.begin(), f.run.result->runtimeFlags.end(),
                                [](const protocol::RuntimeFlag& fl) { return fl.severity == "hack"; });
  CandidateTableModel* model = window.taskTable()->model();
  EXPECT_EQ(model->data(model->index(row, model->measuredColumn()), Qt::FontRole).value<QFont>().strikeOut(),
            hack);
  EXPECT_GT(window.chartsView()->flagMatrix()->model()->matrix().runtimeTaskCount(), 0);
}

TEST_F(RerunTest, ASyntaxErrorInAnEditIsAnnotatedOnItsLineAndKeptApartFromTheRecordedProgram) {
  ASSERT_TRUE(open(kDiagMatmul));
  const int row = select("r2");
  const int line = programLine(window, row, "return A.unsqueeze(1) * B");
  ASSERT_GT(line, 0);
  replaceLine(line, QStringLiteral("return A.unsqueeze(1) * * B"));
  EXPECT_TRUE(window.codeView()->isEdited());
  EXPECT_TRUE(
      window.findChild<QLabel*>("candidateTitle")->toolTip().startsWith(QStringLiteral("r2 (edited) · ")));
  const QString edited = window.codeView()->candidateProgram();
  EXPECT_TRUE(edited.contains(QStringLiteral("* * B")));

  const Finished& f = runSelected();
  EXPECT_TRUE(f.job.edited);
  ASSERT_TRUE(f.run.error);
  EXPECT_EQ(f.run.error->kind, protocol::ErrorKind::Load);
  EXPECT_EQ(f.run.error->program, "candidate");
  EXPECT_EQ(f.run.error->line, line);

  // On the editor: an annotation under that line and only there.
  EXPECT_TRUE(editor()->annotation(line - 1).contains(QStringLiteral("SyntaxError")))
      << editor()->annotation(line - 1).toStdString();
  EXPECT_EQ(editor()->problemLineCount(), 1);
  // In the list, and a double-click on it goes to the line.
  QListWidget* problems = window.measurementsView()->resultView()->problems();
  ASSERT_GE(problems->count(), 1);
  QListWidgetItem* item = problems->item(problems->count() - 1);
  EXPECT_TRUE(item->text().startsWith(QStringLiteral("line %1: ").arg(line)));
  editor()->setCursorPosition(0, 0);
  emit problems->itemActivated(item);
  int cursorLine = -1, index = -1;
  editor()->getCursorPosition(&cursorLine, &index);
  EXPECT_EQ(cursorLine, line - 1);

  // Recorded under r2 with the edit's hash: history, not r2's measured number.
  const auto rows = stored();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].candidateId, "r2");
  EXPECT_EQ(rows[0].codeHash, hash::codeHash(edited.toStdString()));
  EXPECT_EQ(rows[0].errorKind, "load");
  EXPECT_EQ(measuredCell(row), QStringLiteral("—"));
  const MeasurementTableModel* table = window.measurementsView()->model();
  ASSERT_EQ(table->rowCount(), 2);  // the recorded claim, then the edit's run
  EXPECT_EQ(table->data(table->index(1, MeasurementTableModel::WhatColumn), Qt::DisplayRole).toString(),
            QStringLiteral("r2 (edited)"));
}

TEST_F(RerunTest, AHangingEditTimesOutAtItsPhaseLimitAndTheNextRunSucceeds) {
  ASSERT_TRUE(open(kDiagMatmul));
  const int row = select("r2");
  // The limit caps every phase, loading included, and loading (constructing both models, timing the
  // reference alone for the probes) takes 1.7 s on the idle 2-core machine and passed 3 s on a loaded one:
  // the limit leaves loading room to finish on a loaded machine and still stops the hang long before the
  // runner's own deadline would.
  constexpr int kLimit = 12;
  window.runSettings()->setPhaseLimitSeconds(kLimit);
  replaceLine(programLine(window, row, "return A.unsqueeze(1) * B"), QStringLiteral("while True: pass"));
  QElapsedTimer timer;
  timer.start();
  const Finished& hung = runSelected();
  const double seconds = static_cast<double>(timer.elapsed()) / 1000;
  ASSERT_TRUE(hung.run.error);
  EXPECT_EQ(hung.run.error->kind, protocol::ErrorKind::Timeout);
  EXPECT_EQ(hung.run.error->message, "timed out after 12 s while checking correctness");
  EXPECT_LT(seconds, kLimit + 45);  // the limit, plus starting a runner and loading both programs, loaded
  EXPECT_TRUE(window.measurementsView()->resultView()->plainText().startsWith(
      QStringLiteral("Timed out during correctness")));

  QTest::mouseClick(window.findChild<QToolButton*>("revertEdit"), Qt::LeftButton);
  EXPECT_FALSE(window.codeView()->isEdited());
  window.runSettings()->setPhaseLimitSeconds(0);  // the runner's own deadlines: this run must not be rushed
  const Finished& next = runSelected();
  EXPECT_TRUE(next.run.correct()) << (next.run.error ? next.run.error->message : next.run.row.outcome);
  EXPECT_FALSE(next.job.edited);
  EXPECT_EQ(stored().size(), 2u);
}

TEST_F(RerunTest, ACrashingEditIsReportedWithItsSignalAndTheRunnersLastWords) {
  ASSERT_TRUE(open(kDiagMatmul));
  const int row = select("r2");
  replaceLine(programLine(window, row, "return A.unsqueeze(1) * B"),
              QStringLiteral("import os, signal, sys; print('about to crash', file=sys.stderr, flush=True); "
                             "os.kill(os.getpid(), signal.SIGSEGV)"));
  const Finished& f = runSelected();
  ASSERT_TRUE(f.run.error);
  EXPECT_EQ(f.run.error->kind, protocol::ErrorKind::Crash);
  EXPECT_EQ(f.run.error->signal, SIGSEGV);
  const QString shown = window.measurementsView()->resultView()->plainText();
  EXPECT_TRUE(shown.startsWith(QStringLiteral("The runner crashed during correctness")))
      << shown.toStdString();
  EXPECT_TRUE(shown.contains(QStringLiteral("killed by signal %1").arg(SIGSEGV)));
  EXPECT_TRUE(shown.contains(QStringLiteral("about to crash")));
  EXPECT_TRUE(window.isVisible());
}

TEST_F(RerunTest, AnEditThatEatsMemoryIsStoppedAtTheMemoryLimit) {
  ASSERT_TRUE(open(kDiagMatmul));
  const int row = select("r2");
  window.runSettings()->setMemoryLimitGiB(1);
  replaceLine(programLine(window, row, "return A.unsqueeze(1) * B"),
              QStringLiteral("return torch.ones(2**29) * B.sum()  # 2 GiB"));
  const Finished& f = runSelected();
  ASSERT_TRUE(f.run.error);
  EXPECT_EQ(f.run.error->kind, protocol::ErrorKind::Memory);
  EXPECT_TRUE(f.run.error->message.find("more than the memory limit of 1024 MiB") != std::string::npos)
      << f.run.error->message;
  EXPECT_TRUE(
      window.measurementsView()->resultView()->plainText().startsWith(QStringLiteral("Out of memory")));
  EXPECT_EQ(stored().size(), 1u);
}

TEST_F(RerunTest, CancelKillsTheRunInFlightAndDrainsTheQueue) {
  ASSERT_TRUE(open(kDiagMatmul));
  const int row = select("r2");
  replaceLine(programLine(window, row, "return A.unsqueeze(1) * B"), QStringLiteral("while True: pass"));
  QString lastProgress;
  QObject::connect(window.runController(), &RunController::progressChanged,
                   [&](int, int, const QString& text) { lastProgress = text; });
  QSignalSpy idle(window.runController(), &RunController::idle);
  QTest::keyClick(&window, Qt::Key_F9);
  QTest::keyClick(&window, Qt::Key_F9, Qt::ShiftModifier);  // Run All Visible: three more behind it
  ASSERT_TRUE(waitUntil(
      [&] { return lastProgress.startsWith(QStringLiteral("1/4 · L1/12 r2 (edited) · correctness")); },
      kRunMs))
      << lastProgress.toStdString();
  auto* cancel = window.findChild<QPushButton*>("runCancel");
  ASSERT_TRUE(cancel->isVisible());
  QElapsedTimer timer;
  timer.start();
  QTest::mouseClick(cancel, Qt::LeftButton);
  ASSERT_TRUE(idle.wait(10000));
  EXPECT_LT(timer.elapsed(), 10000);
  EXPECT_EQ(idle.first().at(0).toInt(), 0);  // none ran to an answer
  EXPECT_EQ(idle.first().at(1).toInt(), 4);
  ASSERT_EQ(finished.size(), 1u);
  ASSERT_TRUE(finished[0].run.error);
  EXPECT_EQ(finished[0].run.error->kind, protocol::ErrorKind::Cancelled);
  EXPECT_TRUE(stored().empty());  // a run the user stopped is not a result
  EXPECT_FALSE(cancel->isVisible());
}

TEST_F(RerunTest, RunAllVisibleChartsOnePointPerCandidateMeasuredAgainstItsRecordedSpeedup) {
  // The sample records H100 speedups for its three candidates; r3 needs CUDA, which this machine lacks.
  ASSERT_TRUE(open(kDiagMatmul));
  QStringList progress;
  QObject::connect(window.runController(), &RunController::progressChanged,
                   [&](int, int, const QString& text) { progress << text; });
  QSignalSpy idle(window.runController(), &RunController::idle);
  QTest::keyClick(&window, Qt::Key_F9, Qt::ShiftModifier);
  ASSERT_TRUE(idle.wait(3 * kRunMs));
  ASSERT_EQ(finished.size(), 3u);
  EXPECT_TRUE(progress.contains(QStringLiteral("1/3 · L1/12 r1 · starting")));
  EXPECT_TRUE(progress.contains(QStringLiteral("3/3 · L1/12 r3 · load")));
  EXPECT_TRUE(finished[0].run.correct());
  EXPECT_TRUE(finished[1].run.correct());
  EXPECT_EQ(finished[2].run.row.outcome, "error");  // no CUDA here
  EXPECT_EQ(stored().size(), 3u);

  ChartsView* charts = window.chartsView();
  const auto& points = charts->versusPoints();
  ASSERT_EQ(points.size(), 2u);
  int dots = 0;
  for (QAbstractSeries* s : charts->versusView()->chart()->series())
    if (auto* scatter = qobject_cast<QScatterSeries*>(s)) dots += static_cast<int>(scatter->count());
  EXPECT_EQ(dots, 2);
  for (const auto& p : points) {
    const runs::MeasuredRun* measured = window.history()->latestOfRecorded(p.row);
    ASSERT_NE(measured, nullptr);
    EXPECT_EQ(p.at.x(), *window.run()->candidate(p.row)->speedup());
    EXPECT_EQ(p.at.y(), *measured->row.speedup);
  }
  EXPECT_TRUE(charts->versusView()->chart()->title().contains(QStringLiteral("1 failed or untimed here")));

  // Clicking a point selects its candidate.
  window.showPane(MainWindow::Pane::Charts);
  charts->tabs()->setCurrentWidget(charts->versusView());
  QTest::qWait(50);
  QChart* chart = charts->versusView()->chart();
  QAbstractSeries* anyDots = nullptr;
  for (QAbstractSeries* s : chart->series())
    if (qobject_cast<QScatterSeries*>(s)) anyDots = s;
  const auto& target = points.front();
  const QPoint at =
      charts->versusView()->mapFromScene(chart->mapToScene(chart->mapToPosition(target.at, anyDots)));
  QTest::mouseClick(charts->versusView()->viewport(), Qt::LeftButton, {}, at);
  EXPECT_EQ(window.taskTable()->selectedRows(), QList<int>{target.row});
}

TEST_F(RerunTest, AnAutosavedEditIsRestoredByANewWindowAndRevertDiscardsIt) {
  ASSERT_TRUE(open(kDiagMatmul));
  const int row = select("r2");
  replaceLine(programLine(window, row, "return A.unsqueeze(1) * B"), QStringLiteral("return B * A[:, None]"));
  const QString edited = window.codeView()->candidateProgram();
  const EditAutosave::Key key{QFileInfo(kDiagMatmul).absoluteFilePath(), QStringLiteral("L1/12"),
                              QStringLiteral("r2")};
  const QString file = window.editAutosave()->pathOf(key);
  EXPECT_FALSE(QFileInfo::exists(file));  // not at once: a second after the last keystroke
  ASSERT_TRUE(waitUntil([&] { return QFileInfo::exists(file); }, 3 * EditAutosave::kDelayMs));

  // As after a crash: this window never closes, a new one opens the same file.
  MainWindow second;
  second.show();
  ASSERT_TRUE(openIn(second, kDiagMatmul));
  second.taskTable()->setCurrentRow(row);
  EXPECT_EQ(second.codeView()->candidateProgram(), edited);
  EXPECT_TRUE(second.codeView()->isEdited());
  EXPECT_TRUE(second.codeView()->isEditing());
  auto* notice = second.findChild<QLabel*>("editNotice");
  ASSERT_NE(notice, nullptr);
  EXPECT_TRUE(notice->isVisible());
  EXPECT_TRUE(notice->text().startsWith(QStringLiteral("Restored unsaved edit from ")));
  EXPECT_TRUE(notice->text().contains(QRegularExpression(QStringLiteral("\\d\\d:\\d\\d"))));

  QTest::mouseClick(second.findChild<QToolButton*>("revertEdit"), Qt::LeftButton);
  EXPECT_EQ(second.codeView()->candidateProgram().toStdString(), *second.run()->candidate(row)->code);
  EXPECT_FALSE(notice->isVisible());
  EXPECT_FALSE(QFileInfo::exists(file));
  MainWindow third;
  ASSERT_TRUE(openIn(third, kDiagMatmul));
  third.taskTable()->setCurrentRow(row);
  EXPECT_FALSE(third.codeView()->isEdited());
}

}  // namespace
}  // namespace ks
