// bench_gui [--cuda-l1 FILE] [--generated FILE] [--candidates N]: GUI timings on the offscreen platform,
// printed as a markdown table with the targets.
//   - CUDA-L1 release: openPath -> loaded, every view filled and the window painted (first open in the
//     process, then the median of 4 more); and openPath -> the static checks' flags on screen.
//   - a generated run of N candidates (default 100 000; written with generate_run when absent): the same,
//     in seconds, with the process's resident and peak memory after it.
//   - on that run, once its flags are in: text, level, speedup-range and flag filters and a sort by
//     speedup, each timed through the task table's own widgets up to the repainted table (median of 5),
//     and building the task × flag-family matrix (median of 5).
// QSettings go to a temporary folder: the bench leaves the user's settings alone.
#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLineEdit>
#include <QProcess>
#include <QSettings>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextStream>
#include <QThread>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

#include "app/kernelscope/main_window.h"
#include "views/model/loaded_run.h"
#include "views/models/candidate_filter_proxy.h"
#include "views/model/flag_matrix.h"
#include "views/model/open_run.h"
#include "views/models/candidate_table_model.h"
#include "views/widgets/task_table.h"

namespace {

struct Row {
  QString measurement;
  QString value;
  QString target;
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// "VmRSS" or "VmHWM" of this process, in MiB.
double memoryMiB(const char* key) {
  QFile status(QStringLiteral("/proc/self/status"));
  if (!status.open(QIODevice::ReadOnly)) return 0;
  for (const QByteArray& line : status.readAll().split('\n'))
    if (line.startsWith(key))
      return line.mid(static_cast<qsizetype>(qstrlen(key)) + 1).trimmed().split(' ')[0].toDouble() / 1024;
  return 0;
}

struct OpenTimes {
  double paintMs = -1;  // openPath -> the run painted in every visible view
  double flagsMs = -1;  // openPath -> the static checks' flags shown
};

// Waits (at most 10 minutes) for `signal` of the window; false on timeout.
template <typename Signal>
bool waitFor(ks::MainWindow& window, Signal signal) {
  QEventLoop loop;
  bool seen = false;
  const auto connection = QObject::connect(&window, signal, &loop, [&] {
    seen = true;
    loop.quit();
  });
  QTimer::singleShot(600000, &loop, &QEventLoop::quit);
  loop.exec();
  QObject::disconnect(connection);
  return seen;
}

OpenTimes open(ks::MainWindow& window, const QString& path) {
  OpenTimes times;
  QElapsedTimer timer;
  timer.start();
  window.openPath(path);
  if (!waitFor(window, &ks::MainWindow::runShown) || !window.run()) return times;
  window.repaint();  // paints every visible child now
  times.paintMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  if (!window.run()->flagsChecked() && !waitFor(window, &ks::MainWindow::flagsShown)) return times;
  times.flagsMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  return times;
}

// Median milliseconds of `change` followed by a repaint of the table, over 5 rounds; `reset` runs untimed.
double timedChange(ks::TaskTable* table, const std::function<void()>& change,
                   const std::function<void()>& reset) {
  std::vector<double> samples;
  for (int i = 0; i < 5; ++i) {
    reset();
    QApplication::processEvents();
    QElapsedTimer timer;
    timer.start();
    change();
    table->shownCount();
    table->view()->viewport()->repaint();
    samples.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
  }
  return median(samples);
}

QString ms(double value) { return QStringLiteral("%1 ms").arg(value, 0, 'f', 1); }

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QTemporaryDir settingsDir;
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir.path());
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("KernelScopeBench"));
  QApplication::setApplicationName(QStringLiteral("bench_gui"));

  QCommandLineParser parser;
  parser.addHelpOption();
  const QCommandLineOption cudaL1Option(QStringLiteral("cuda-l1"), QStringLiteral("CUDA-L1 release file."),
                                        QStringLiteral("FILE"),
                                        QStringLiteral(KS_SHARED_DIR "/datasets/cuda-l1/h100.jsonl"));
  const QCommandLineOption candidatesOption(QStringLiteral("candidates"),
                                            QStringLiteral("Size of the generated run."), QStringLiteral("N"),
                                            QStringLiteral("100000"));
  const QCommandLineOption generatedOption(
      QStringLiteral("generated"),
      QStringLiteral("Generated run file (written with generate_run if absent)."), QStringLiteral("FILE"));
  parser.addOptions({cudaL1Option, candidatesOption, generatedOption});
  parser.process(app);
  const QString candidates = parser.value(candidatesOption);
  const QString generated = parser.isSet(generatedOption)
                                ? parser.value(generatedOption)
                                : QStringLiteral(KS_BINARY_DIR "/bench/generated-%1.jsonl").arg(candidates);

  std::vector<Row> rows;
  ks::MainWindow window;
  window.resize(1600, 1000);
  window.show();
  QApplication::processEvents();

  const QString cudaL1 = parser.value(cudaL1Option);
  if (QFileInfo::exists(cudaL1)) {
    const OpenTimes first = open(window, cudaL1);
    std::vector<double> again;
    for (int i = 0; i < 4; ++i) again.push_back(open(window, cudaL1).paintMs);
    rows.push_back({QStringLiteral("CUDA-L1 h100.jsonl (%1 tasks): open → first paint, first open")
                        .arg(window.run()->run().tasks.size()),
                    ms(first.paintMs), QStringLiteral("< 300 ms")});
    rows.push_back({QStringLiteral("CUDA-L1 h100.jsonl: open → first paint, median of 4 more"),
                    ms(median(again)), QStringLiteral("< 300 ms")});
    rows.push_back({QStringLiteral("CUDA-L1 h100.jsonl: open → static-check flags shown, first open"),
                    ms(first.flagsMs), QStringLiteral("—")});
  } else {
    std::fprintf(stderr, "note: %s not found; CUDA-L1 rows skipped\n", qPrintable(cudaL1));
  }

  if (!QFileInfo::exists(generated)) {
    std::fprintf(stderr, "writing %s with generate_run...\n", qPrintable(generated));
    if (QProcess::execute(QStringLiteral(GENERATE_RUN), {candidates, generated}) != 0) {
      std::fprintf(stderr, "generate_run failed\n");
      return 1;
    }
  }
  const double before = memoryMiB("VmRSS:");
  const OpenTimes times = open(window, generated);
  const double seconds = times.paintMs / 1000;
  if (times.flagsMs < 0) {
    std::fprintf(stderr, "could not open %s\n", qPrintable(generated));
    return 1;
  }
  const auto& run = *window.run();
  const QString size =
      QStringLiteral("%1 MB").arg(static_cast<double>(QFileInfo(generated).size()) / 1e6, 0, 'f', 0);
  rows.push_back(
      {QStringLiteral("generated run (%1 candidates, %2): open → first paint").arg(run.rowCount()).arg(size),
       QStringLiteral("%1 s").arg(seconds, 0, 'f', 2), QStringLiteral("< 5 s")});
  rows.push_back({QStringLiteral("… open → static-check flags shown (the checks run after the first paint)"),
                  QStringLiteral("%1 s").arg(times.flagsMs / 1000, 0, 'f', 2), QStringLiteral("—")});
  rows.push_back({QStringLiteral("… resident memory after it (before: %1 MiB)").arg(before, 0, 'f', 0),
                  QStringLiteral("%1 MiB").arg(memoryMiB("VmRSS:"), 0, 'f', 0),
                  QStringLiteral("< 1024 MiB")});
  rows.push_back({QStringLiteral("… peak resident memory of the process"),
                  QStringLiteral("%1 MiB").arg(memoryMiB("VmHWM:"), 0, 'f', 0),
                  QStringLiteral("< 1024 MiB")});

  ks::TaskTable* table = window.taskTable();
  auto* text = table->findChild<QLineEdit*>(QStringLiteral("filterText"));
  auto* level = table->findChild<QComboBox*>(QStringLiteral("filterLevel"));
  auto* flags = table->findChild<QComboBox*>(QStringLiteral("filterFlags"));
  auto* min = table->findChild<QDoubleSpinBox*>(QStringLiteral("filterMinSpeedup"));
  const auto clear = [table] { table->clearFilters(); };
  const int rowsShown = run.rowCount();
  rows.push_back({QStringLiteral("filter by text (\"fused 12\") on %1 rows").arg(rowsShown),
                  ms(timedChange(
                      table, [text] { text->setText(QStringLiteral("fused 12")); }, clear)),
                  QStringLiteral("< 100 ms")});
  rows.push_back({QStringLiteral("filter by level (level 2)"),
                  ms(timedChange(
                      table, [level] { level->setCurrentIndex(level->findData(2)); }, clear)),
                  QStringLiteral("< 100 ms")});
  rows.push_back({QStringLiteral("filter by speedup (≥ 2×)"),
                  ms(timedChange(
                      table, [min] { min->setValue(2.0); }, clear)),
                  QStringLiteral("< 100 ms")});
  rows.push_back({QStringLiteral("filter by flags (flagged)"),
                  ms(timedChange(
                      table, [flags] { flags->setCurrentIndex(1); }, clear)),
                  QStringLiteral("< 100 ms")});
  rows.push_back({QStringLiteral("clear filters (back to every row)"),
                  ms(timedChange(table, clear, [min] { min->setValue(2.0); })), QStringLiteral("< 100 ms")});
  auto* model = static_cast<ks::CandidateTableModel*>(table->proxy()->sourceModel());
  const int speedupColumn = model->speedupColumn(0);
  rows.push_back(
      {QStringLiteral("sort by speedup (every row)"),
       ms(timedChange(
           table, [table, speedupColumn] { table->view()->sortByColumn(speedupColumn, Qt::DescendingOrder); },
           [table] {
             table->clearFilters();
             table->view()->sortByColumn(ks::CandidateTableModel::TaskColumn, Qt::AscendingOrder);
           })),
       QStringLiteral("< 100 ms")});

  {  // The Charts → Flags by task matrix, rebuilt from the flagged run (once its flags are in).
    std::vector<double> matrixMs;
    int tasks = 0;
    for (int i = 0; i < 5; ++i) {
      QElapsedTimer timer;
      timer.start();
      const ks::FlagMatrix matrix(*window.openRun()->run(), window.openRun()->history().get());
      matrixMs.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
      tasks = matrix.rowCount();
    }
    std::sort(matrixMs.begin(), matrixMs.end());
    rows.push_back({QStringLiteral("flag matrix of every row (%1 tasks), median of 5").arg(tasks),
                    ms(matrixMs[matrixMs.size() / 2]), QStringLiteral("< 100 ms")});
  }

  QTextStream out(stdout);
  out << "machine: " << QThread::idealThreadCount() << " hardware threads, Qt " << qVersion() << ", platform "
      << QApplication::platformName() << "\n\n";
  out << "| measurement | value | target |\n|---|--:|--:|\n";
  for (const Row& r : rows) out << "| " << r.measurement << " | " << r.value << " | " << r.target << " |\n";
  return 0;
}
