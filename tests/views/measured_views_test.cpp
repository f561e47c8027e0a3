// The views of re-run results, on a synthetic run and history (no runner): the task table's Measured column
// and its colours, the order of a history, the recorded-vs-measured points, the measurements table, and the
// problems of a run on the candidate's lines — a compiler diagnostic at its Python line, traceback frames, in
// the program and in an extracted source.
#include <gtest/gtest.h>

#include <QBrush>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QLineSeries>
#include <QTest>

#include "core/model/control_characters.h"
#include "tests/view_logic/synthetic_run.h"
#include "views/charts/charts_view.h"
#include "views/logic/code_problems.h"
#include "views/logic/measured_format.h"
#include "views/logic/measured_history.h"
#include "views/logic/phase_estimate.h"
#include "views/logic/speedup_format.h"
#include "views/item_models/candidate_filter_proxy.h"
#include "views/item_models/candidate_table_model.h"
#include "views/item_models/measurement_table_model.h"
#include "views/widgets/code_compare_view.h"
#include "views/widgets/code_editor.h"
#include "views/widgets/run_result_view.h"

namespace ks {
namespace {

runs::MeasuredRun timed(double speedup, const std::string& hash = "sha256:recorded") {
  return test::timedRun(speedup, hash);
}

runs::MeasuredRun failed(protocol::ErrorKind kind, const std::string& message) {
  runs::MeasuredRun run;
  run.row.id = test::nextResultId();
  run.row.codeHash = "sha256:recorded";
  run.row.outcome = "error";
  run.row.errorKind = protocol::errorKindName(kind);
  run.error = protocol::ErrorInfo{.kind = kind, .message = message};
  return run;
}

// Row a (recorded 1.5×) measured 1.45×: agrees. Row c (recorded 3×) measured 1.2×: disagrees. Row e (17×)
// crashed. Row b: only an edited version was run.
std::shared_ptr<MeasuredHistory> history() {
  auto h = std::make_shared<MeasuredHistory>(6);
  h->add(test::kRowA, {timed(1.45), true});
  h->add(test::kRowC, {timed(1.2), true});
  h->add(test::kRowE, {timed(16.0), true});
  h->add(test::kRowE, {failed(protocol::ErrorKind::Crash, "kscope-runner was killed by SIGSEGV"), true});
  h->add(test::kRowB, {timed(9.0, "sha256:edited"), false});
  return h;
}

TEST(MeasuredHistory, NewestFirstByStoreIdAndMergeAddsOnlyWhatIsMissing) {
  MeasuredHistory h(1);
  auto older = timed(1.0), newer = timed(2.0);
  h.add(0, {newer, true});
  h.add(0, {older, true});  // read late: still below the newer one
  runs::MeasuredRun unrecorded = timed(3.0);
  unrecorded.row.id = 0;  // the store did not take it
  h.add(0, {unrecorded, true});
  ASSERT_EQ(h.entries(0).size(), 3u);
  EXPECT_EQ(h.entries(0)[0].run.row.id, 0);
  EXPECT_EQ(h.entries(0)[1].run.row.id, newer.row.id);
  EXPECT_EQ(h.entries(0)[2].run.row.id, older.row.id);
  MeasuredHistory other(1);
  other.add(0, {newer, true});
  other.add(0, {timed(4.0), false});
  h.merge(other);
  EXPECT_EQ(h.entries(0).size(), 4u);
  EXPECT_EQ(h.latestOfRecorded(0)->row.id, 0);
  EXPECT_EQ(h.latestOfCode(0, "sha256:recorded")->row.id, 0);
  EXPECT_EQ(h.entries(5).size(), 0u);  // out of range: none
}

TEST(MeasuredColumn, ShowsTheNewestRunOfTheRecordedProgramColouredByAgreement) {
  CandidateTableModel model;
  const auto run = test::syntheticRun();
  model.setRun(run);
  model.setHistory(history());
  const int column = model.measuredColumn();
  EXPECT_EQ(model.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString(), "Measured");
  EXPECT_EQ(model.headerData(model.flagsColumn(), Qt::Horizontal, Qt::DisplayRole).toString(), "Flags");
  const auto cell = [&](int row, int role) { return model.data(model.index(row, column), role); };

  EXPECT_EQ(cell(test::kRowA, Qt::DisplayRole).toString(), formatSpeedup(1.45));
  EXPECT_EQ(model.agreement(test::kRowA), MeasuredHistory::Agreement::Agrees);
  EXPECT_FALSE(cell(test::kRowA, Qt::BackgroundRole).isValid());

  EXPECT_EQ(cell(test::kRowC, Qt::DisplayRole).toString(), formatSpeedup(1.2));
  EXPECT_EQ(model.agreement(test::kRowC), MeasuredHistory::Agreement::Disagrees);
  EXPECT_EQ(cell(test::kRowC, Qt::BackgroundRole).value<QBrush>().color(), QColor(0xff, 0xf0, 0xc2));
  EXPECT_TRUE(cell(test::kRowC, Qt::ToolTipRole).toString().contains("measured is 60% lower"));

  EXPECT_EQ(cell(test::kRowE, Qt::DisplayRole).toString(), "✗ crash");  // the newest run, not the 16×
  EXPECT_EQ(model.agreement(test::kRowE), MeasuredHistory::Agreement::Failed);
  EXPECT_EQ(cell(test::kRowE, Qt::BackgroundRole).value<QBrush>().color(), QColor(0xf8, 0xd7, 0xda));

  EXPECT_EQ(cell(test::kRowB, Qt::DisplayRole).toString(), "—");  // an edit's run is not b's number
  EXPECT_EQ(model.agreement(test::kRowB), MeasuredHistory::Agreement::NotMeasured);

  // Sorted by it, highest first: the measured speedups, then every row without one.
  CandidateFilterProxy proxy(&model);
  proxy.sort(column, Qt::DescendingOrder);
  EXPECT_EQ(proxy.sourceRow(0), test::kRowA);
  EXPECT_EQ(proxy.sourceRow(1), test::kRowC);
}

TEST(RecordedVsMeasured, OnePointPerCandidateWithBothNumbersAndTheRestCountedInTheTitle) {
  ChartsView charts;
  charts.setRun(test::syntheticRun());
  charts.setHistory(history());
  const auto& points = charts.versusPoints();
  ASSERT_EQ(points.size(), 2u);  // a and c; e's newest run crashed, b's was of an edit
  EXPECT_EQ(points[0].row, test::kRowA);
  EXPECT_EQ(points[0].at, QPointF(1.5, 1.45));
  EXPECT_EQ(points[1].row, test::kRowC);
  EXPECT_EQ(points[1].at, QPointF(3.0, 1.2));
  const QString title = charts.versusView()->chart()->title();
  EXPECT_TRUE(title.contains("2 candidates, 1 outside ±20%")) << title.toStdString();
  EXPECT_TRUE(title.contains("1 failed or untimed here")) << title.toStdString();
}

TEST(RecordedVsMeasured, AMeasuredSpeedupWithAnIntervalGetsABarThroughItsDot) {
  auto h = std::make_shared<MeasuredHistory>(6);
  runs::MeasuredRun withInterval = timed(1.45);
  withInterval.result->timing->speedupCi95 = protocol::Timing::Interval{1.3, 1.6};
  h->add(test::kRowA, {withInterval, true});
  h->add(test::kRowC, {timed(1.2), true});  // an older result: no interval, no bar
  ChartsView charts;
  charts.setRun(test::syntheticRun());
  charts.setHistory(h);
  const auto& points = charts.versusPoints();
  ASSERT_EQ(points.size(), 2u);
  ASSERT_TRUE(points[0].interval);
  EXPECT_EQ(*points[0].interval, std::make_pair(1.3, 1.6));
  EXPECT_FALSE(points[1].interval);
  int bars = 0;
  for (QAbstractSeries* s : charts.versusView()->chart()->series()) {
    auto* line = qobject_cast<QLineSeries*>(s);
    if (!line || line->count() != 2 || line->at(0).x() != line->at(1).x()) continue;  // the diagonal slopes
    ++bars;
    EXPECT_EQ(line->at(0), QPointF(1.5, 1.3));
    EXPECT_EQ(line->at(1), QPointF(1.5, 1.6));
  }
  EXPECT_EQ(bars, 1);
}

TEST(RunResult, SlowTrialsAreNamedWithTheirPlaceInTheRun) {
  runs::MeasuredRun run = test::timedRun(2.0);
  auto& candidate = run.result->timing->candidate;
  candidate.medianMs = 1.0;
  candidate.maxMs = 9.0;
  candidate.trialsMs = {1.0, 1.1, 9.0, 0.9};
  RunResultView view;
  view.showRun(&run, true);
  const QString text = view.plainText();
  EXPECT_TRUE(text.contains(QStringLiteral("max"))) << text.toStdString();
  EXPECT_TRUE(
      text.contains(QStringLiteral("candidate: 1 of 4 trials took over twice the median: trial 3 (9 ms)")))
      << text.toStdString();
  EXPECT_FALSE(text.contains(QStringLiteral("reference: "))) << "the reference has no trial list";
}

TEST(RunResult, TheIntervalAndAHostBoundModelAreSaid) {
  runs::MeasuredRun run = test::timedRun(2.0);
  auto& timing = *run.result->timing;
  timing.reference.medianMs = 4.0;
  timing.reference.kernelMs = 1.0;  // 25 % busy: host-bound
  timing.candidate.medianMs = 2.0;
  timing.candidate.kernelMs = 1.9;  // 95 %
  timing.speedupCi95 = protocol::Timing::Interval{1.9, 2.1};
  RunResultView view;
  view.showRun(&run, true);
  const QString text = view.plainText();
  EXPECT_TRUE(text.contains(QStringLiteral("95% interval of the speedup over these trials 1.900× to 2.100×")))
      << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("GPU busy"))) << text.toStdString();
  EXPECT_TRUE(
      text.contains(QStringLiteral("The reference is host-bound: its kernels kept the GPU busy 25.0%")))
      << text.toStdString();
  EXPECT_FALSE(text.contains(QStringLiteral("The candidate is host-bound"))) << text.toStdString();
  EXPECT_FALSE(text.contains(QStringLiteral("cudnn.benchmark"))) << text.toStdString();
  run.result->torchSettingsChanged = {"torch.backends.cudnn.benchmark: False -> True"};
  view.showRun(&run, true);
  EXPECT_TRUE(view.plainText().contains(QStringLiteral("A program turned on cudnn.benchmark: cuDNN picked")))
      << view.plainText().toStdString();
  EXPECT_EQ(speedupWithSpread(run), formatSpeedup(2.0) + QStringLiteral(" [1.900–2.100×]"));
}

// An error text a candidate wrote shows its control and bidirectional characters written out, as the CLI
// does: a right-to-left override cannot reorder the message, an escape sequence is text.
TEST(RunResult, ACandidatesControlCharactersAreShownWrittenOut) {
  runs::MeasuredRun run;
  run.row.outcome = "error";
  run.row.errorKind = "runtime";
  run.error = protocol::ErrorInfo{.kind = protocol::ErrorKind::Runtime,
                                  .message = "failed\x1b]0;title\x07 at \xe2\x80\xae" "txt.exe",
                                  .program = "candidate",
                                  .line = 3};
  run.error->stderrTail = "\x1b[2Jcleared";
  RunResultView view;
  view.showRun(&run, true);
  const QString text = view.plainText();
  EXPECT_TRUE(text.contains(QStringLiteral("failed\\x1b]0;title\\x07 at \\u202etxt.exe")))
      << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("\\x1b[2Jcleared"))) << text.toStdString();
  EXPECT_FALSE(text.contains(QChar(0x1b))) << text.toStdString();
  EXPECT_FALSE(text.contains(QChar(0x202e))) << text.toStdString();
}

// A program's bidirectional overrides and isolates show in the code as named marks, not as nothing.
TEST(CodeEditorText, BidiControlsInAProgramShowAsNamedMarks) {
  CodeEditor editor;
  editor.showText(QString::fromUtf8("access = \"user\xe2\x80\xae \xe2\x81\xa6// admin\xe2\x81\xa9\"\n"),
                  CodeEditor::Language::Python);
  for (const BidiControl& c : kBidiControls) {
    char shown[16] = {};
    const long length = editor.SendScintilla(QsciScintillaBase::SCI_GETREPRESENTATION, c.utf8, shown);
    EXPECT_EQ(std::string(shown, static_cast<std::size_t>(std::max(0L, length))), c.name) << c.name;
  }
  EXPECT_EQ(editor.text().count(QChar(0x202e)), 1);  // the text itself is unchanged
}

TEST(RunResult, TheCpuTheTimingWasPinnedToIsSaid) {
  runs::MeasuredRun run = test::timedRun(2.0);
  RunResultView view;
  view.showRun(&run, true);
  EXPECT_FALSE(view.plainText().contains(QStringLiteral("pinned"))) << view.plainText().toStdString();
  run.result->timing->cpuPin = protocol::CpuPinScope::Thread;
  run.result->timing->pinnedCpu = 3;
  view.showRun(&run, true);
  EXPECT_TRUE(view.plainText().contains(
      QStringLiteral("order seed 0; the timing thread pinned to CPU 3; on the host")))
      << view.plainText().toStdString();
  run.result->timing->cpuPin = protocol::CpuPinScope::Process;
  view.showRun(&run, true);
  EXPECT_TRUE(view.plainText().contains(QStringLiteral("every runner thread pinned to CPU 3")))
      << view.plainText().toStdString();
}

TEST(MeasurementTable, ClaimsFirstThenRunsNewestFirst) {
  MeasurementTableModel model;
  const auto run = test::syntheticRun();
  model.showRow(run, history(), test::kRowE);
  ASSERT_EQ(model.claimCount(), 1);
  ASSERT_EQ(model.rowCount(), 3);
  const auto text = [&](int row, int column) {
    return model.data(model.index(row, column), Qt::DisplayRole).toString();
  };
  // Row E's program was caught as a hack: its claim row says so before the word "claimed".
  EXPECT_EQ(text(0, MeasurementTableModel::OutcomeColumn), "caught hack · claimed");
  EXPECT_EQ(text(0, MeasurementTableModel::SpeedupColumn), formatSpeedup(17.0));
  EXPECT_EQ(text(1, MeasurementTableModel::OutcomeColumn), "error: crash");
  EXPECT_EQ(text(2, MeasurementTableModel::OutcomeColumn), "correct");
  EXPECT_EQ(text(2, MeasurementTableModel::SpeedupColumn), formatSpeedup(16.0) + " ± 3.1%");
  EXPECT_EQ(text(2, MeasurementTableModel::MaxErrorColumn), "2e-06");
  EXPECT_EQ(text(2, MeasurementTableModel::ClockGapColumn), "0.02 ms");
  EXPECT_EQ(text(2, MeasurementTableModel::WhatColumn), "e");
  model.showRow(run, history(), test::kRowB);
  EXPECT_EQ(model.data(model.index(1, MeasurementTableModel::WhatColumn), Qt::DisplayRole).toString(),
            "b (edited)");
}

TEST(CodeProblems, DiagnosticsAtTheirPythonLineTracebackFramesAndTheRestInTheListOnly) {
  runs::MeasuredRun build = failed(protocol::ErrorKind::Build, "identifier \"x\" is undefined");
  build.error->program = "candidate";
  build.error->line = 14;
  build.error->diagnostics = {{.file = "cuda.cu",
                               .line = 3,
                               .column = 5,
                               .severity = "error",
                               .message = "identifier \"x\" is undefined",
                               .pythonLine = 14},
                              {.file = "ptxas", .severity = "error", .message = "too many resources"}};
  const auto problems = candidateProblems(build);
  ASSERT_EQ(problems.size(), 3u);   // the error's own line is the first diagnostic's: said once
  EXPECT_EQ(problems[0].line, 14);  // first, the failed build's cause on the first error's line
  EXPECT_TRUE(problems[0].message.startsWith("cause: source-error — ")) << problems[0].message.toStdString();
  EXPECT_EQ(problems[1].line, 14);
  EXPECT_EQ(problems[1].message, "cuda.cu:3:5: identifier \"x\" is undefined");
  EXPECT_EQ(problems[2].line, 0);

  runs::MeasuredRun runtime = failed(protocol::ErrorKind::Runtime, "ValueError: no kernel for this shape");
  runtime.error->program = "candidate";
  runtime.error->line = 11;
  runtime.error->traceback = {{.file = "candidate.py",
                               .line = 30,
                               .function = "forward",
                               .text = "return self.f(x)",
                               .program = "candidate"},
                              {.file = "candidate.py",
                               .line = 11,
                               .function = "f",
                               .text = "raise ValueError(...)",
                               .program = "candidate"},
                              {.file = "module.py", .line = 1194, .function = "_call_impl"}};
  const auto frames = candidateProblems(runtime);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].line, 30);
  EXPECT_EQ(frames[0].severity, CodeProblem::Severity::Note);
  EXPECT_EQ(frames[1].line, 11);
  EXPECT_EQ(frames[1].message, "runtime error: ValueError: no kernel for this shape");

  runs::MeasuredRun reference = failed(protocol::ErrorKind::Runtime, "RuntimeError: shape");
  reference.error->program = "reference";
  reference.error->line = 7;
  ASSERT_EQ(candidateProblems(reference).size(), 1u);
  EXPECT_EQ(candidateProblems(reference)[0].line, 0);  // not a line of the candidate
}

// One naming rule for the device of every run, "<name> (<kind>)", the name "—" when the run
// reported none (an error before any result).
TEST(DeviceText, EveryRunIsNamedTheSameWay) {
  runs::MeasuredRun result = test::timedRun(2.0);  // AMD EPYC, cpu
  EXPECT_EQ(deviceText(result), "AMD EPYC (cpu)");
  runs::MeasuredRun error;
  error.row.device = "cpu";  // the device asked for: the error carries no environment
  error.row.outcome = "error";
  EXPECT_EQ(deviceText(error), "— (cpu)");
  error.row.device = "default";
  EXPECT_EQ(deviceText(error), "— (the runner's default device)");
  runs::MeasuredRun unnamed = test::timedRun(2.0);
  unnamed.row.device = "cpu";  // a runner that reported no device name
  EXPECT_EQ(deviceText(unnamed), "— (cpu)");
  // Measured by one runner of several, each on its own GPU: which one, after the kind.
  result.gpu = "1";
  EXPECT_EQ(deviceText(result), "AMD EPYC (cpu, GPU 1)");
  error.gpu = "GPU-3c4d";
  EXPECT_EQ(deviceText(error), "— (the runner's default device, GPU GPU-3c4d)");
}

// A long phase says how long it has run and, once a step ended, about how long is left.
TEST(PhaseEstimate, TheFinishedStepsTimeTheStepsLeft) {
  EXPECT_EQ(phaseEstimate(2, 0, 0, 5), "0/5");                 // just begun
  EXPECT_EQ(phaseEstimate(40, 0, 0, 5), "0/5 · 40 s so far");  // a long first seed: no guess yet
  EXPECT_EQ(phaseEstimate(180, 0, 1, 5), "1/5 · 3 min so far · about 12 min left");
  EXPECT_EQ(phaseEstimate(60, 2, 4, 10), "4/10 · 60 s so far · about 3 min left");  // resumed at 2
  EXPECT_EQ(phaseEstimate(300, 0, 5, 5), "5/5 · 5 min so far");                     // done: nothing left
  EXPECT_EQ(roughDuration(5400), "1 h 30 min");
}

// A queue worked by one runner per GPU; each waiting job goes to the runner that frees up first.
TEST(PhaseEstimate, AQueueOnSeveralRunnersIsDealtToTheFirstOneFree) {
  EXPECT_LT(queueSecondsLeft(-1, {}, 5, 2), 0);             // no job ended: nothing known
  EXPECT_DOUBLE_EQ(queueSecondsLeft(10, {}, 4, 1), 40);      // one runner: one after another
  EXPECT_DOUBLE_EQ(queueSecondsLeft(10, {}, 4, 2), 20);      // two: half as long
  EXPECT_DOUBLE_EQ(queueSecondsLeft(10, {}, 5, 2), 30);      // the odd one out runs alone at the end
  EXPECT_DOUBLE_EQ(queueSecondsLeft(10, {4, 25}, 1, 2), 10);  // 6 s left on one; the other is due: it takes it
  EXPECT_DOUBLE_EQ(queueSecondsLeft(10, {4, 25}, 0, 3), 6);   // only what is in flight
}

// The problems of an edit's run go when Revert shows the recorded program again, in the program
// and in the extracted source alike.
TEST(CodeProblems, RevertTakesTheEditsProblemsAway) {
  const auto run = test::syntheticRun();
  CodeCompareView view;
  view.resize(1000, 500);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  view.showRow(run, test::kRowE);
  const std::string& code = *run->candidate(test::kRowE)->code;
  view.applyEdit(QString::fromStdString(code + "\n# edited\n"));
  ASSERT_TRUE(view.isEdited());
  const int line = test::lineContaining(code, "if (i < n) y[i]");
  view.showProblems({{line, CodeProblem::Severity::Error, "cuda.cu:6:21: expected ';'"}});
  ASSERT_EQ(view.candidateEditor()->problemLineCount(), 1);
  view.revertEdit();
  EXPECT_FALSE(view.isEdited());
  EXPECT_EQ(view.candidateEditor()->problemLineCount(), 0);
  auto* choice = view.findChild<QComboBox*>("candidateChoice");
  choice->setCurrentIndex(choice->findText("cuda_source", Qt::MatchStartsWith));
  const int sourceLine = view.sourceEditor()->lineNumbered(line);
  ASSERT_GE(sourceLine, 0);
  EXPECT_EQ(view.sourceEditor()->annotation(sourceLine), "");
}

TEST(CodeProblems, AnnotatedInTheProgramAndInTheExtractedSourceThatHoldsTheLine) {
  const auto run = test::syntheticRun();
  CodeCompareView view;
  view.resize(1000, 500);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  view.showRow(run, test::kRowE);
  const std::string& code = *run->candidate(test::kRowE)->code;
  const int line = test::lineContaining(code, "if (i < n) y[i]");
  view.showProblems({{line, CodeProblem::Severity::Error, "cuda.cu:6:21: expected ';'"},
                     {0, CodeProblem::Severity::Error, "ptxas: too many resources"}});
  EXPECT_EQ(view.candidateEditor()->annotation(line - 1), "cuda.cu:6:21: expected ';'");
  EXPECT_EQ(view.candidateEditor()->problemLineCount(), 1);
  EXPECT_NE(view.candidateEditor()->markersAtLine(line - 1), 0u);

  auto* choice = view.findChild<QComboBox*>("candidateChoice");
  choice->setCurrentIndex(choice->findText("cuda_source", Qt::MatchStartsWith));
  const int sourceLine = view.sourceEditor()->lineNumbered(line);
  ASSERT_GE(sourceLine, 0);
  EXPECT_EQ(view.sourceEditor()->annotation(sourceLine), "cuda.cu:6:21: expected ';'");

  view.showRow(run, test::kRowA);  // another candidate: nothing left over
  EXPECT_EQ(view.candidateEditor()->problemLineCount(), 0);
}

}  // namespace
}  // namespace ks
