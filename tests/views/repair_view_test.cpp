// The repair flow in the explorer: a failed build's cause on the program's line and in a bar with a Repair button
// beside it; a result that fell back says so first, before any speedup, and is never shown as the kernel's;
// Repair shows the repair as a diff and, only when applied, makes an edited copy of the candidate (the
// recorded program untouched, the user's own edit one Undo away).
#include <gtest/gtest.h>

#include <QDir>
#include <QFileInfo>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "app/kernelscope/compile_command.h"
#include "app/kernelscope/main_window.h"
#include "app/kernelscope/run_controller.h"
#include "app/kernelscope/run_loader.h"
#include "core/hash/sha256.h"
#include "core/nvcc/nvcc_locator.h"
#include "core/protocol/json_codec.h"
#include "core/runs/record_result.h"
#include "core/store/result_store.h"
#include "core/store/store_path.h"
#include "tests/view_logic/synthetic_run.h"
#include "views/logic/code_problems.h"
#include "views/logic/loaded_run.h"
#include "views/logic/measured_format.h"
#include "views/logic/measured_history.h"
#include "views/logic/speedup_format.h"
#include "views/item_models/measurement_table_model.h"
#include "views/widgets/code_compare_view.h"
#include "views/widgets/code_editor.h"
#include "views/widgets/measurements_view.h"
#include "views/widgets/repair_dialog.h"
#include "views/widgets/run_result_view.h"
#include "views/widgets/run_settings_bar.h"
#include "views/widgets/task_table.h"
#include "ks_test_paths.h"
#include "tests/views/gui_test_support.h"

namespace ks {
namespace {

using guitest::kCudaL1Release;

// A program that binds its __global__ kernel with functions= (as CUDA-L1 L1/12 does): line 4 binds it.
const std::string kBoundKernelProgram =
    "from torch.utils.cpp_extension import load_inline\n"
    "src = '''extern \"C\" __global__ void diagonal_matmul_kernel(float* a) {}'''\n"
    "mod = load_inline(name='diagonal_matmul_cuda', cpp_sources='', cuda_sources=src,\n"
    "                  functions=[\"diagonal_matmul_kernel\"])\n";

// A correct result timed at 1.02x whose candidate extension did not build: the program caught it and ran
// its PyTorch fallback. The compiler's error is in torch's generated main.cpp (no Python line).
runs::MeasuredRun fellBackRun() {
  runs::MeasuredRun run = test::timedRun(1.02);
  protocol::ExtensionBuild b;
  b.name = "diagonal_matmul_cuda";
  b.program = "candidate";
  b.ok = false;
  b.error = "main.cpp:4:61: error: 'diagonal_matmul_kernel' was not declared in this scope";
  b.diagnostics = {{.file = "main.cpp",
                    .line = 4,
                    .column = 61,
                    .severity = "error",
                    .message = "'diagonal_matmul_kernel' was not declared in this scope"}};
  b.cause = "bound-kernel";
  b.causeEvidence = b.error;
  run.result->build.extensions = {b};
  return run;
}

TEST(BuildCauseOnTheLine, TheCauseIsAnnotatedOnTheLineThatBindsTheKernel) {
  const runs::MeasuredRun run = fellBackRun();
  const auto problems = candidateProblems(run, kBoundKernelProgram);
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems[0].line, 4);                                   // functions=["diagonal_matmul_kernel"]
  EXPECT_EQ(problems[0].severity, CodeProblem::Severity::Warning);  // caught: the program fell back
  EXPECT_TRUE(problems[0].message.startsWith(
      "this number is the PyTorch fallback's: cause: bound-kernel — functions= names a __global__ kernel"))
      << problems[0].message.toStdString();
  EXPECT_TRUE(problems[0].message.contains("Repair (Ctrl+Shift+R)"));

  CodeEditor editor;
  editor.showText(QString::fromStdString(kBoundKernelProgram), CodeEditor::Language::Python);
  editor.showProblems(problems);
  EXPECT_TRUE(editor.annotation(3).contains("bound-kernel")) << editor.annotation(3).toStdString();
  EXPECT_GE(editor.problemLineCount(), 1);

  // A build error that ended the run: its cause on the first compiler error's Python line.
  runs::MeasuredRun error;
  error.row.outcome = "error";
  error.row.errorKind = "build";
  error.error = protocol::ErrorInfo{.kind = protocol::ErrorKind::Build,
                                    .message =
                                        "building extension 'ext' failed (removed-tensor-api): "
                                        "cuda.cu(57): error: no suitable conversion function",
                                    .program = "candidate",
                                    .line = 12};
  error.error->diagnostics = {
      {.file = "cuda.cu", .line = 57, .severity = "error", .message = "no suitable", .pythonLine = 12}};
  const auto errorProblems = candidateProblems(error, kBoundKernelProgram);
  ASSERT_FALSE(errorProblems.empty());
  EXPECT_EQ(errorProblems[0].line, 12);
  EXPECT_EQ(errorProblems[0].severity, CodeProblem::Severity::Error);
  EXPECT_TRUE(errorProblems[0].message.startsWith("cause: removed-tensor-api — "))
      << errorProblems[0].message.toStdString();
}

TEST(FallbackFirst, TheResultSaysWhoseNumberItIsBeforeAnySpeedupAndOffersTheRepair) {
  const runs::MeasuredRun run = fellBackRun();
  EXPECT_TRUE(fellBack(run));
  EXPECT_EQ(speedupWithSpread(run).left(19), QStringLiteral("PyTorch fallback's "));

  RunResultView view;
  view.resize(600, 500);
  view.showRun(&run, true);
  const QString text = view.plainText();
  EXPECT_TRUE(
      text.startsWith("this number is the PyTorch fallback's: extension 'diagonal_matmul_cuda' did not "
                      "build (bound-kernel"))
      << text.left(200).toStdString();
  const auto speedupAt = text.indexOf(QStringLiteral("1.02"));
  ASSERT_GT(speedupAt, 0);
  EXPECT_GT(speedupAt, text.indexOf(QStringLiteral("this number is the PyTorch fallback's")));
  EXPECT_TRUE(text.contains(QStringLiteral("PyTorch fallback's 1.02")));
  EXPECT_TRUE(view.causeText().contains("bound-kernel"));
  ASSERT_TRUE(view.repairButton()->isVisibleTo(&view));
  QSignalSpy asked(&view, &RunResultView::repairRequested);
  QTest::mouseClick(view.repairButton(), Qt::LeftButton);
  EXPECT_EQ(asked.count(), 1);

  // A result whose extension built: no note, no cause, no Repair; its speedup is the kernel's.
  const runs::MeasuredRun built = test::timedRun(1.5);
  view.showRun(&built, true);
  EXPECT_FALSE(view.plainText().contains("fallback"));
  EXPECT_TRUE(view.causeText().isEmpty());
  EXPECT_FALSE(view.repairButton()->isVisibleTo(&view));
  EXPECT_FALSE(fellBack(built));
}

// Compile (F7) without a GPU: nvcc's errors on the program's Python lines, the failure's cause first, and
// each kernel's ptxas resources on the line that defines it (the compile-only result, as buildPythonSources
// returns it).
TEST(CompileProblems, ErrorsCauseAndPtxasResourcesOnTheProgramsLines) {
  const std::string program =
      "src = '''\n"
      "__global__ void scale_kernel(const float* x, float* y, float s, int n) {\n"
      "  y[i] = x[i] * s;\n"
      "}'''\n";
  nvcc::BuildResult failed;
  failed.ok = false;
  failed.log = "cuda_source.cu(2): error: identifier \"i\" is undefined\n";
  nvcc::Diagnostic d;
  d.file = "cuda_source.cu";
  d.line = 2;
  d.severity = nvcc::Severity::Error;
  d.message = "identifier \"i\" is undefined";
  d.tool = "nvcc";
  d.pythonLine = 3;
  failed.diagnostics = {d};
  const auto problems = compileProblems(failed, program);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].line, 3);
  EXPECT_TRUE(problems[0].message.startsWith("cause: source-error — ")) << problems[0].message.toStdString();
  EXPECT_EQ(problems[1].line, 3);
  EXPECT_TRUE(problems[1].message.contains("identifier \"i\" is undefined"));

  nvcc::BuildResult built;
  built.ok = true;
  nvcc::KernelResources k;
  k.name = "scale_kernel(float const*, float*, float, int)";
  k.arch = "sm_90a";
  k.registers = 12;
  built.kernels = {k};
  const auto resources = compileProblems(built, program);
  ASSERT_EQ(resources.size(), 1u);
  EXPECT_EQ(resources[0].line, 2);  // the __global__ definition
  EXPECT_EQ(resources[0].severity, CodeProblem::Severity::Note);
  EXPECT_TRUE(resources[0].message.startsWith("ptxas sm_90a: 12 registers, 0 B shared"))
      << resources[0].message.toStdString();
}


// The real L1/12 of the release (it binds diagonal_matmul_kernel itself), in a 1024×700 window.
TEST(RepairInTheWindow, RepairShowsADiffAndMakesAnEditedCopyKeepingTheOriginalAndTheUsersEdit) {
  if (!QFileInfo::exists(kCudaL1Release))
    GTEST_SKIP() << "the CUDA-L1 release is not at " << kCudaL1Release.toStdString();
  MainWindow window;
  window.resize(1024, 700);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  QSignalSpy shown(&window, &MainWindow::runShown);
  window.openPath(kCudaL1Release);
  for (int waited = 0; waited < 60000 && shown.isEmpty(); waited += 20) QTest::qWait(20);
  ASSERT_FALSE(shown.isEmpty());
  const auto run = window.run();
  const int row = run->findRow("L1/12", "");
  ASSERT_GE(row, 0);
  window.taskTable()->setCurrentRow(row);
  CodeCompareView* code = window.codeView();
  if (code->isEdited()) code->revertEdit();  // an autosaved edit of an earlier test
  const std::string original = *run->candidate(row)->code;
  ASSERT_EQ(code->candidateProgram().toStdString(), original);

  // The user's own edit first: a comment on top.
  code->setEditing(true);
  code->candidateEditor()->insertAt(QStringLiteral("# my note\n"), 0, 0);
  const QString mine = code->candidateProgram();
  ASSERT_TRUE(mine.startsWith("# my note\n"));
  ASSERT_TRUE(code->isEdited());

  QAction* repair = window.findChild<QAction*>("repairAction");
  ASSERT_NE(repair, nullptr);
  EXPECT_EQ(repair->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
  repair->trigger();
  auto* dialog = window.findChild<RepairDialog*>("repairDialog");
  ASSERT_NE(dialog, nullptr);
  EXPECT_LE(dialog->width(), 1024);
  EXPECT_LE(dialog->height(), 700);
  const QString diff = dialog->diffText();
  EXPECT_TRUE(diff.contains(QStringLiteral("--- "))) << diff.left(300).toStdString();
  EXPECT_TRUE(diff.contains(QStringLiteral("+++ ")));
  EXPECT_TRUE(diff.contains(QStringLiteral("functions=None"))) << diff.toStdString();
  // Nothing changed before the user applies it.
  EXPECT_EQ(code->candidateProgram(), mine);

  QTest::mouseClick(dialog->applyButton(), Qt::LeftButton);
  QTest::qWait(50);
  const QString repaired = code->candidateProgram();
  EXPECT_NE(repaired, mine);
  EXPECT_TRUE(repaired.startsWith("# my note\n"));  // the user's edit is in the copy
  EXPECT_TRUE(repaired.contains(QStringLiteral("functions=None")));
  EXPECT_TRUE(code->isEdited());
  EXPECT_EQ(*window.run()->candidate(row)->code, original);  // the file's program is untouched
  EXPECT_EQ(code->recordedProgram().toStdString(), original);
  code->candidateEditor()->undo();  // one step back: the user's edit
  EXPECT_EQ(code->candidateProgram(), mine);
  code->revertEdit();  // Revert Edit: the recorded program again, and no autosaved edit left for later tests
  EXPECT_EQ(code->candidateProgram().toStdString(), original);
}

// Run on a machine without a GPU, for a program that builds CUDA with load_inline,
// compiles the kernel with nvcc alone (the Compile path) instead of failing in torch's architecture
// detection and timing the fallback; it says what it did, with the compiler's errors on the program's lines.
protocol::Environment environmentOn(const std::string& device) {
  protocol::Environment e;
  e.runner = "kscope-runner test";
  e.device = device;
  e.deviceName = device == "cuda" ? "NVIDIA H100 80GB HBM3" : "Test CPU";
  return e;
}

TEST(RunWithoutGpu, OnlyAutoOnACpuRunnerCompilesAProgramThatBuildsCuda) {
  RunController runs({}, QDir::temp().filePath(QStringLiteral("kscope-nogpu-test.sqlite")).toStdString());
  const QString cuda = QString::fromStdString(*test::syntheticRun()->candidate(test::kRowE)->code);
  const QString plain = QStringLiteral("import torch\nclass ModelNew(torch.nn.Module):\n  pass\n");
  EXPECT_FALSE(runs.compilesInsteadOfRunning(cuda));  // nothing known about the runner yet: run it
  emit runs.environmentChanged(environmentOn("cpu"));
  EXPECT_TRUE(runs.compilesInsteadOfRunning(cuda));
  EXPECT_FALSE(runs.compilesInsteadOfRunning(plain));  // nothing to compile: it runs on the CPU
  runs.setChoices({.device = "cpu"}, {});              // cpu asked for: time the fallback there
  EXPECT_FALSE(runs.compilesInsteadOfRunning(cuda));
  runs.setChoices({}, {});
  emit runs.environmentChanged(environmentOn("cuda"));
  EXPECT_FALSE(runs.compilesInsteadOfRunning(cuda));
}

TEST(RunWithoutGpu, RunCompilesTheKernelAndShowsTheCompilersErrorOnItsLine) {
  if (!nvcc::findNvcc().found()) GTEST_SKIP() << "no nvcc on this machine";
  MainWindow window;
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  window.showRun(QStringLiteral("/tmp/synthetic-run.jsonl"), test::syntheticRun());
  window.taskTable()->setCurrentRow(test::kRowE);
  CodeCompareView* code = window.codeView();
  if (code->isEdited()) code->revertEdit();
  // An error in the kernel's body, on a line the test knows.
  const std::string broken = *window.run()->candidate(test::kRowE)->code;
  const std::string marker = "if (i < n) y[i] = x[i] * s;";
  ASSERT_NE(broken.find(marker), std::string::npos);
  std::string edited = broken;
  edited.replace(edited.find(marker), marker.size(), "if (i < n) y[i] = x[i] * s + not_declared_here;");
  code->applyEdit(QString::fromStdString(edited));
  const int line = test::lineContaining(edited, "not_declared_here");
  window.runSettings()->setChoices({});  // Device: Auto
  emit window.runController()->environmentChanged(environmentOn("cpu"));

  auto* compile = window.findChild<CompileCommand*>();
  ASSERT_NE(compile, nullptr);
  QSignalSpy finished(compile, &CompileCommand::finished);
  window.findChild<QAction*>("runAction")->trigger();
  EXPECT_FALSE(window.runController()->isBusy());  // nothing was queued for the runner
  ASSERT_TRUE(finished.wait(600000)) << "nvcc did not finish in 10 minutes";
  const QString summary = finished.first().first().toString();
  EXPECT_TRUE(
      summary.startsWith("No GPU here: Run compiled the kernel instead of running it: compiled for sm_"))
      << summary.toStdString();
  EXPECT_TRUE(summary.contains("not_declared_here")) << summary.toStdString();
  EXPECT_TRUE(summary.contains("choose Device cpu")) << summary.toStdString();
  EXPECT_TRUE(code->candidateEditor()->annotation(line - 1).contains("not_declared_here"))
      << code->candidateEditor()->annotation(line - 1).toStdString();
  code->revertEdit();  // no autosaved edit left for later tests
}

// The repair flow end to end: a `kscope run --repair` row (the store row kscope run records: the repaired
// program's end event with what was repaired, runs::recordResult) after an earlier run of the program
// as the file has it that fell back. The window's run history shows the repaired run as such, with its
// repairs, and its details put the recorded, fallback and repaired kernel numbers side by side, first.
TEST(RepairedRunInTheHistory, TheRunHistoryShowsTheRepairAndTheThreeNumbersSideBySide) {
  QTemporaryDir dir;  // a store of its own; the one the other tests use comes back at the end
  const QByteArray storeBefore = qgetenv("KSCOPE_RESULTS_DB");
  qputenv("KSCOPE_RESULTS_DB", dir.filePath(QStringLiteral("results.sqlite")).toUtf8());
  const QString sample = QStringLiteral(KS_SOURCE_DIR "/sample_runs/diag-matmul.kscope.jsonl");
  const QString absolute = QFileInfo(sample).absoluteFilePath();
  std::string original;
  std::optional<double> recorded;
  {
    MainWindow probe;
    QSignalSpy shown(&probe, &MainWindow::historyShown);
    probe.openPath(sample);
    ASSERT_TRUE(shown.wait(60000));
    const int row = probe.run()->findRow("L1/12", "r3");
    ASSERT_GE(row, 0);
    original = *probe.run()->candidate(row)->code;
    recorded = probe.run()->candidate(row)->speedup();
  }
  ASSERT_TRUE(recorded);
  const std::string repairedCode = original + "\n# repaired\n";
  const auto endEvent = [](const runs::MeasuredRun& run) {
    return store::fromEvaluateEnd({"1", *run.result});
  };
  {
    auto db = store::ResultStore::open(store::defaultStorePath());
    ASSERT_TRUE(db) << db.error;
    const runs::RunSubject asFiled{
        .sourceFile = absolute.toStdString(), .taskKey = "L1/12", .candidateId = "r3", .code = original};
    runs::MeasuredRun fallback = test::timedRun(1.02);
    fallback.result->build.extensions.push_back(protocol::ExtensionBuild{
        .name = "diag_ext", .program = "candidate", .ok = false, .error = "error", .cause = "bound-kernel"});
    ASSERT_TRUE(
        runs::recordResult(**db.value, endEvent(fallback), asFiled, "cpu", "kscope run").storeError.empty());
    runs::RunSubject repaired = asFiled;
    repaired.code = repairedCode;
    repaired.repair = store::StoredRepair{
        hash::codeHash(original), {{"bind-wrapper", "functions=None, binds a host wrapper", {40}}}, {}};
    ASSERT_TRUE(runs::recordResult(**db.value, endEvent(test::timedRun(3.2)), repaired, "cpu", "kscope run")
                    .storeError.empty());
  }

  MainWindow window;
  QSignalSpy history(&window, &MainWindow::historyShown);
  window.openPath(sample);
  ASSERT_TRUE(history.wait(60000));
  const int row = window.run()->findRow("L1/12", "r3");
  window.taskTable()->setCurrentRow(row);
  MeasurementsView* measurements = window.measurementsView();
  auto* model = static_cast<MeasurementTableModel*>(measurements->table()->model());
  const int first = model->claimCount();
  ASSERT_EQ(model->rowCount() - first, 2);  // the repaired run (newest), then the fallback's
  const auto cell = [&](int r, int column, int role = Qt::DisplayRole) {
    return model->index(r, column).data(role).toString();
  };
  EXPECT_EQ(cell(first, MeasurementTableModel::WhatColumn), "r3 (repaired: bind-wrapper)");
  EXPECT_TRUE(cell(first, MeasurementTableModel::WhatColumn, Qt::ToolTipRole)
                  .contains("bind-wrapper: functions=None, binds a host wrapper"));
  EXPECT_EQ(cell(first + 1, MeasurementTableModel::WhatColumn), "r3");
  EXPECT_EQ(cell(first + 1, MeasurementTableModel::OutcomeColumn), "fell back · correct");

  measurements->table()->setCurrentIndex(model->index(first, 0));
  const QString text = measurements->resultView()->plainText();
  const QString beside =
      QStringLiteral("Recorded %1 · PyTorch fallback 1.020× (").arg(formatSpeedup(*recorded));
  EXPECT_TRUE(text.startsWith(beside)) << text.toStdString();
  EXPECT_TRUE(text.contains(") · repaired kernel 3.200×\nrepaired: bind-wrapper")) << text.toStdString();
  EXPECT_TRUE(text.contains("the program repaired")) << text.toStdString();
  qputenv("KSCOPE_RESULTS_DB", storeBefore);
}

}  // namespace
}  // namespace ks
