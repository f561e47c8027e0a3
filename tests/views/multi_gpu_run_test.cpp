// Run All Visible keeps one timing runner per GPU, as `kscope batch --gpus` does. On the CPU
// with a fake device list (KSCOPE_GPU_LIST, as the CLI's tests use): three runners work one queue at once,
// each entry runs once, each result names the GPU whose runner measured it (checked against what that
// runner's program saw in CUDA_VISIBLE_DEVICES), the queue's progress says what each GPU does and how long
// the queue has left, the window never stops answering, and Cancel stops every runner and drains the queue.
// The GPU setting is remembered with the Run settings, read back from a state of before it, and cleared to
// "every GPU found".
#include <gtest/gtest.h>

#include <QDir>
#include <QElapsedTimer>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QDataStream>
#include <QStatusBar>
#include <cmath>
#include <fstream>
#include <iostream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "app/kernelscope/edit_autosave.h"
#include "app/kernelscope/main_window.h"
#include "app/kernelscope/run_controller.h"
#include "core/store/result_store.h"
#include "core/store/store_path.h"
#include "views/logic/measured_history.h"
#include "views/logic/measured_format.h"
#include "views/item_models/measurement_table_model.h"
#include "views/widgets/elided_label.h"
#include "views/widgets/measurements_view.h"
#include "views/widgets/run_settings_bar.h"
#include "views/widgets/task_table.h"
#include "tests/views/gui_test_support.h"

namespace ks {
namespace {

using guitest::waitUntil;

constexpr int kMultiGpuRunMs = 180000;  // six CPU runs on three runners sharing a loaded 2-core machine


// A program for the fake GPUs: its output is the reference's plus 10 × the GPU its runner sees
// (CUDA_VISIBLE_DEVICES), so the result's error says which runner measured it: correct on GPU 0, off by 10
// on GPU 1, by 20 on GPU 2. `hang`: it never returns.
std::string program(const std::string& cls, const std::string& body) {
  return "import torch\nimport torch.nn as nn\n\n\nclass " + cls +
         "(nn.Module):\n    def __init__(self):\n        super().__init__()\n\n    def forward(self, x):\n"
         "        " +
         body + "\n\n\ndef get_inputs():\n    return [torch.randn(64, 128)]\n\n\ndef get_init_inputs():\n    return []\n";
}

std::string writeRun(const QString& path, int candidates, bool hang) {
  using Json = nlohmann::ordered_json;
  std::string text = Json{{"kscope_run", 1}, {"title", "gpus"}}.dump() + "\n";
  text += Json{{"type", "task"}, {"level", 1}, {"number", 7}, {"name", "task_7"},
               {"reference", {{"language", "python"}, {"code", program("Model", "return x * 2.0")}}}}
              .dump() +
          "\n";
  for (int i = 0; i < candidates; ++i) {
    // Each its own program (a comment with its number), so that each entry is one store row of its own.
    const std::string body =
        hang ? "while True: pass"
             : "return x * 2.0 + 10.0 * float(__import__('os').environ['CUDA_VISIBLE_DEVICES'])  # c" +
                   std::to_string(i);
    text += Json{{"type", "candidate"}, {"task", "L1/7"}, {"id", "c" + std::to_string(i)},
                 {"code", program("ModelNew", body)}}
                .dump() +
            "\n";
  }
  std::ofstream(path.toStdString()) << text;
  return text;
}

struct GpuFinished {
  RunJob job;
  runs::MeasuredRun run;
};

class MultiGpuRunTest : public ::testing::Test {
 protected:
  MultiGpuRunTest() {
    qputenv("KSCOPE_RESULTS_DB", dir.filePath(QStringLiteral("results.sqlite")).toUtf8());
    QDir(EditAutosave().directory()).removeRecursively();
    window = std::make_unique<MainWindow>();
  }
  ~MultiGpuRunTest() override {
    window.reset();
    qunsetenv("KSCOPE_GPU_LIST");
  }
  void SetUp() override {
    if (!window->runController()->runnerProblem().isEmpty())
      GTEST_SKIP() << "no kscope-runner: " << window->runController()->runnerProblem().toStdString();
    window->resize(1500, 940);
    window->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
    window->runSettings()->setChoices({.device = "cpu", .trials = 2, .seeds = 1});
    window->runSettings()->setGpus({});  // every GPU found
    QObject::connect(window->runController(), &RunController::finished,
                     [this](const RunJob& job, const runs::MeasuredRun& run, const QString&) {
                       finished.push_back({job, run});
                     });
  }
  bool open(const QString& path) {
    QSignalSpy history(window.get(), &MainWindow::historyShown);
    window->openPath(path);
    return history.wait(60000);
  }
  std::vector<store::StoredResult> stored() const {
    auto db = store::ResultStore::open(store::defaultStorePath());
    EXPECT_TRUE(db) << db.error;
    auto rows = (*db.value)->history({});
    EXPECT_TRUE(rows) << rows.error;
    return rows.value.value_or(std::vector<store::StoredResult>{});
  }

  QTemporaryDir dir;
  std::unique_ptr<MainWindow> window;
  std::vector<GpuFinished> finished;
};

TEST_F(MultiGpuRunTest, RunAllVisibleKeepsOneRunnerPerGpuAndEachResultNamesItsGpu) {
  const QString file = dir.filePath(QStringLiteral("gpus.kscope.jsonl"));
  writeRun(file, 6, false);
  ASSERT_TRUE(open(file));
  RunController* runs = window->runController();
  // As at start: the runner without a GPU list says hello and warms up; then three GPUs appear (a fake list),
  // and the queue's runners change to them without the window waiting for the old one.
  runs->probe();
  EXPECT_EQ(runs->runnerCount(), 1);
  qputenv("KSCOPE_GPU_LIST", "0,1,2");

  QStringList progress;
  int mostBusy = 0;
  QString activityShown;
  QObject::connect(runs, &RunController::progressChanged, [&](int, int, const QString& text) {
    progress << text;
    int busy = 0;
    for (const QString& line : runs->activity()) busy += !line.endsWith(QStringLiteral(" · idle"));
    mostBusy = std::max(mostBusy, busy);
    if (const auto* label = window->findChild<ElidedLabel*>(QStringLiteral("runActivity")); label && label->isVisible())
      activityShown = label->toolTip();
  });
  // No frozen window: a 50 ms timer keeps firing while the runners start, work and stop.
  QElapsedTimer sinceTick;
  qint64 longestGap = 0;
  QTimer ticker;
  QObject::connect(&ticker, &QTimer::timeout, [&] {
    longestGap = std::max(longestGap, sinceTick.restart());
  });
  QSignalSpy idle(runs, &RunController::idle);
  sinceTick.start();
  ticker.start(50);
  QTest::keyClick(window.get(), Qt::Key_F9, Qt::ShiftModifier);  // Run All Visible
  ASSERT_TRUE(idle.wait(kMultiGpuRunMs)) << progress.join('\n').toStdString();
  ticker.stop();
  std::cout << "multi-GPU queue: 6 runs on 3 runners, longest gap between 50 ms ticks " << longestGap << " ms\n";

  EXPECT_EQ(runs->runnerCount(), 3);
  EXPECT_EQ(runs->gpus(), (QStringList{"0", "1", "2"}));
  EXPECT_EQ(idle.first().at(0).toInt(), 6);  // all ran to an answer
  EXPECT_EQ(idle.first().at(1).toInt(), 0);
  EXPECT_GE(mostBusy, 2) << progress.join('\n').toStdString();  // the runners worked at once
  EXPECT_TRUE(progress.filter(QStringLiteral(" of 3 GPUs busy")).size() > 0) << progress.join('\n').toStdString();
  // After the first answer, with jobs still waiting: how long the queue has left.
  EXPECT_TRUE(progress.filter(QStringLiteral("queue: about ")).size() > 0) << progress.join('\n').toStdString();
  EXPECT_TRUE(activityShown.startsWith(QStringLiteral("GPU 0 · "))) << activityShown.toStdString();
  EXPECT_LT(longestGap, 3000);
  EXPECT_FALSE(window->findChild<ElidedLabel*>(QStringLiteral("runActivity"))->isVisible());

  // Each entry once; each result names its runner's GPU, which is the one its program saw.
  ASSERT_EQ(finished.size(), 6u);
  std::set<std::string> candidates, gpus;
  for (const GpuFinished& f : finished) {
    candidates.insert(f.job.subject.candidateId);
    gpus.insert(f.run.gpu);
    ASSERT_TRUE(f.run.result) << f.run.row.outcome << " " << (f.run.error ? f.run.error->message : f.run.unreadable);
    ASSERT_FALSE(f.run.result->correctness.seeds.empty());
    const double off = f.run.result->correctness.seeds.front().maxAbsErr;
    EXPECT_EQ(std::to_string(std::lround(off / 10)), f.run.gpu) << f.job.label().toStdString() << " off by " << off;
    EXPECT_EQ(f.run.row.outcome, f.run.gpu == "0" ? "correct" : "incorrect");
    EXPECT_EQ(f.job.subject.gpu, f.run.gpu);
  }
  EXPECT_EQ(candidates.size(), 6u);
  EXPECT_EQ(gpus, (std::set<std::string>{"0", "1", "2"}));  // three runners at the start: each took a job

  // The store keeps which GPU measured each row; the Measurements pane says it in the Device column.
  const auto rows = stored();
  ASSERT_EQ(rows.size(), 6u);
  for (const auto& row : rows) {
    ASSERT_FALSE(row.gpu.empty()) << store::toResultJson(row).dump();
    const auto it = std::find_if(finished.begin(), finished.end(),
                                 [&](const GpuFinished& f) { return f.run.row.id == row.id; });
    ASSERT_NE(it, finished.end());
    EXPECT_EQ(row.gpu, it->run.gpu);
  }
  for (const GpuFinished& f : finished) {
    window->taskTable()->setCurrentRow(f.job.row);
    const MeasurementTableModel* table = window->measurementsView()->model();
    ASSERT_EQ(table->rowCount(), 1);  // the file records no measurement: the one re-run
    const QString device =
        table->data(table->index(0, MeasurementTableModel::DeviceColumn), Qt::DisplayRole).toString();
    EXPECT_TRUE(device.contains(QStringLiteral("(cpu, GPU %1)").arg(QString::fromStdString(f.run.gpu))))
        << device.toStdString();
    ASSERT_NE(window->history()->latestOfRecorded(f.job.row), nullptr);
    EXPECT_EQ(window->history()->latestOfRecorded(f.job.row)->gpu, f.run.gpu);  // as read back from the store
  }
}

TEST_F(MultiGpuRunTest, CancelStopsEveryRunnerAndDrainsTheQueue) {
  qputenv("KSCOPE_GPU_LIST", "0,1,2");
  const QString file = dir.filePath(QStringLiteral("hang.kscope.jsonl"));
  writeRun(file, 5, true);
  ASSERT_TRUE(open(file));
  RunController* runs = window->runController();
  QSignalSpy idle(runs, &RunController::idle);
  QTest::keyClick(window.get(), Qt::Key_F9, Qt::ShiftModifier);
  // Three runners stuck in their candidates' correctness, two jobs waiting.
  ASSERT_TRUE(waitUntil(
      [&] { return runs->activity().filter(QStringLiteral(" · correctness")).size() == 3; }, kMultiGpuRunMs))
      << runs->activity().join('\n').toStdString();
  auto* cancel = window->findChild<QPushButton*>(QStringLiteral("runCancel"));
  ASSERT_TRUE(cancel->isVisible());
  QElapsedTimer timer;
  timer.start();
  QTest::mouseClick(cancel, Qt::LeftButton);
  ASSERT_TRUE(idle.wait(15000));
  EXPECT_LT(timer.elapsed(), 15000);
  EXPECT_EQ(idle.first().at(0).toInt(), 0);  // none ran to an answer
  EXPECT_EQ(idle.first().at(1).toInt(), 5);
  ASSERT_EQ(finished.size(), 3u);  // the three in flight; the two waiting never started
  std::set<std::string> gpus;
  for (const GpuFinished& f : finished) {
    ASSERT_TRUE(f.run.error);
    EXPECT_EQ(f.run.error->kind, protocol::ErrorKind::Cancelled);
    gpus.insert(f.job.subject.gpu);
  }
  EXPECT_EQ(gpus, (std::set<std::string>{"0", "1", "2"}));
  EXPECT_TRUE(stored().empty());  // a run the user stopped is not a result
  EXPECT_FALSE(cancel->isVisible());
  EXPECT_FALSE(runs->isBusy());
}

TEST_F(MultiGpuRunTest, TheGpuSettingIsRememberedAndAListThatDoesNotReadIsSaid) {
  RunSettingsBar* bar = window->runSettings();
  bar->setGpus(QStringLiteral("1,3"));
  const QByteArray state = bar->saveState();
  RunSettingsBar other;
  other.restoreState(state);
  EXPECT_EQ(other.gpus(), QStringLiteral("1,3"));
  EXPECT_EQ(other.findChild<QToolButton*>(QStringLiteral("runLimitsButton"))->text(),
            QStringLiteral("Limits: auto · GPUs 1,3"));
  // A state saved before the setting (version 1) still restores the rest, with every GPU.
  QByteArray old;
  {
    QDataStream out(&old, QIODevice::WriteOnly);
    out << quint32(1) << QStringLiteral("cpu") << 7 << 3 << 0 << 0;
  }
  other.restoreState(old);
  EXPECT_EQ(other.choices().trials, 7);
  EXPECT_EQ(other.gpus(), QString());
  // Cleared (or "all"): every GPU found.
  bar->setGpus(QStringLiteral("all"));
  EXPECT_EQ(bar->gpus(), QString());

  // A list that does not read: Run says so and queues nothing.
  const QString file = dir.filePath(QStringLiteral("gpus.kscope.jsonl"));
  writeRun(file, 1, false);
  ASSERT_TRUE(open(file));
  bar->setGpus(QStringLiteral("0,0"));
  QTest::keyClick(window.get(), Qt::Key_F9, Qt::ShiftModifier);
  EXPECT_FALSE(window->runController()->isBusy());
  EXPECT_EQ(window->statusBar()->currentMessage().toStdString(),
            "Cannot run: GPUs \"0,0\": GPU 0 is listed twice");
  bar->setGpus({});
}

}  // namespace
}  // namespace ks
