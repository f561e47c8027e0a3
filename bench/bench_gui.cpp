// bench_gui [--cuda-l1 FILE] [--generated FILE] [--candidates N] [--search FILE] [--skip-cuda-l1]: GUI
// timings on the offscreen platform, printed as markdown tables with the targets (docs/performance.md).
//   - CUDA-L1 release: openPath -> loaded, every view filled and the window painted (first open in the
//     process, then the median of 4 more); and openPath -> the static checks' flags on screen.
//   - a generated run of N candidates (default 100 000; written with generate_run when absent): open ->
//     first paint in seconds, where that time went (the "kscope.timing" stages: reading, rows, each view),
//     the process's resident and peak memory after it and per candidate; the static checks' time after the
//     paint (they run then; --no-wait-flags skips waiting for them on a large run).
//   - on that run: text, level, speedup-range and flag filters, sorts by speedup and by candidate id, each
//     timed through the task table's own widgets up to the repainted table (median of 5), and building the
//     task x flag-family matrix (median of 5).
//   - a one-task search (default: generate_run 100000 FILE 1): open with the Search tab shown -> first
//     paint, the tab's own share (layout, colours, chart), painting every node, painting zoomed in, a click
//     to the repainted selection.
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
#include <QLoggingCategory>
#include <QMouseEvent>
#include <QProcess>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextStream>
#include <QThread>
#include <QTimer>
#include <QWheelEvent>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "app/kernelscope/main_window.h"
#include "app/kernelscope/run_loader.h"
#include "core/formats/huge_pages.h"
#include "views/logic/flag_matrix.h"
#include "views/logic/loaded_run.h"
#include "views/logic/open_run.h"
#include "views/item_models/candidate_filter_proxy.h"
#include "views/item_models/candidate_table_model.h"
#include "views/widgets/search_tree_canvas.h"
#include "views/widgets/search_tree_view.h"
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

// The "kscope.timing" stages logged while the capture is on (views/logic/stage_timer.h), in order.
struct Stage {
  QString name;
  double ms = 0;
  double cpuMs = 0;  // the process's, every thread
};
std::mutex stagesMutex;
std::vector<Stage> stages;
bool capturing = false;

void captureTiming(QtMsgType type, const QMessageLogContext& context, const QString& message) {
  if (context.category && QLatin1String(context.category) == QLatin1String("kscope.timing")) {
    const std::lock_guard lock(stagesMutex);
    // "<stage>: <wall> ms, cpu <cpu> ms"
    const qsizetype colon = message.lastIndexOf(QStringLiteral(": "));
    const QStringList parts = message.mid(colon + 2).split(' ');
    if (capturing && colon > 0 && parts.size() >= 4)
      stages.push_back({message.left(colon), parts[0].toDouble(), parts[3].toDouble()});
    return;
  }
  if (type != QtDebugMsg) std::fprintf(stderr, "%s\n", qPrintable(message));
}

struct OpenTimes {
  double paintMs = -1;  // openPath -> the run painted in every visible view
  double residentMiB = 0, peakMiB = 0;  // at that moment
  double cpuMs = 0;                     // the process's CPU time (every thread) from openPath to the paint
  double flagsMs = -1;  // openPath -> the static checks' flags shown
};

// Waits (at most an hour: a million candidates' static checks take many minutes) for `signal` of the window;
// false on timeout.
template <typename Signal>
bool waitFor(ks::MainWindow& window, Signal signal) {
  QEventLoop loop;
  bool seen = false;
  const auto connection = QObject::connect(&window, signal, &loop, [&] {
    seen = true;
    loop.quit();
  });
  QTimer::singleShot(3600000, &loop, &QEventLoop::quit);
  loop.exec();
  QObject::disconnect(connection);
  return seen;
}

double processCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

OpenTimes open(ks::MainWindow& window, const QString& path, bool waitForFlags = true) {
  OpenTimes times;
  const double cpuStart = processCpuMs();
  QElapsedTimer timer;
  timer.start();
  window.openPath(path);
  if (!waitFor(window, &ks::MainWindow::runShown) || !window.run()) return times;
  window.repaint();  // paints every visible child now
  times.paintMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  times.cpuMs = processCpuMs() - cpuStart;
  times.residentMiB = memoryMiB("VmRSS:");
  times.peakMiB = memoryMiB("VmHWM:");
  {
    const std::lock_guard lock(stagesMutex);
    capturing = false;  // the breakdown is of the first paint
  }
  if (!waitForFlags) return times;
  if (!window.run()->flagsChecked() && !waitFor(window, &ks::MainWindow::flagsShown)) return times;
  times.flagsMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  return times;
}

double threadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

// Median milliseconds of `change` followed by a repaint of the table, over 5 rounds, as "wall (CPU of the GUI
// thread)"; `reset` runs untimed.
QString timedChange(ks::TaskTable* table, const std::function<void()>& change,
                    const std::function<void()>& reset) {
  std::vector<double> samples, cpu;
  for (int i = 0; i < 5; ++i) {
    reset();
    QApplication::processEvents();
    QElapsedTimer timer;
    timer.start();
    const double cpuStart = threadCpuMs();
    change();
    table->shownCount();
    table->view()->viewport()->repaint();
    samples.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    cpu.push_back(threadCpuMs() - cpuStart);
  }
  return QStringLiteral("%1 ms (CPU %2 ms)").arg(median(samples), 0, 'f', 1).arg(median(cpu), 0, 'f', 1);
}

QString ms(double value) { return QStringLiteral("%1 ms").arg(value, 0, 'f', 1); }

// Median of `samples` repaints of `widget` in milliseconds.
double repaintMs(QWidget* widget, int samples = 3) {
  std::vector<double> times;
  for (int i = 0; i < samples; ++i) {
    QElapsedTimer timer;
    timer.start();
    widget->repaint();
    times.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
  }
  return median(times);
}

// Writes `path` with generate_run (N candidates over `tasks` tasks) unless it exists.
bool ensureGenerated(const QString& path, const QString& candidates, const QString& tasks) {
  if (QFileInfo::exists(path)) return true;
  std::fprintf(stderr, "writing %s with generate_run...\n", qPrintable(path));
  return QProcess::execute(QStringLiteral(GENERATE_RUN), {candidates, path, tasks}) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  ks::preferHugePages(argv);  // as the GUI does (app/kernelscope/main.cpp)
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QTemporaryDir settingsDir;
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir.path());
  // The results history goes there too: a store left by an earlier run would make the open read it.
  qputenv("XDG_DATA_HOME", settingsDir.path().toUtf8());
  qInstallMessageHandler(captureTiming);
  QLoggingCategory::setFilterRules(QStringLiteral("kscope.timing.debug=true"));
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("KernelScopeBench"));
  QApplication::setApplicationName(QStringLiteral("bench_gui"));

  QCommandLineParser parser;
  parser.addHelpOption();
  const QCommandLineOption cudaL1Option(QStringLiteral("cuda-l1"), QStringLiteral("CUDA-L1 release file."),
                                        QStringLiteral("FILE"),
                                        QStringLiteral(KS_SHARED_DIR "/datasets/cuda-l1/h100.jsonl"));
  const QCommandLineOption skipCudaL1Option(QStringLiteral("skip-cuda-l1"),
                                            QStringLiteral("Leave out the CUDA-L1 rows."));
  const QCommandLineOption candidatesOption(QStringLiteral("candidates"),
                                            QStringLiteral("Size of the generated run."), QStringLiteral("N"),
                                            QStringLiteral("100000"));
  const QCommandLineOption generatedOption(
      QStringLiteral("generated"),
      QStringLiteral("Generated run file (written with generate_run if absent)."), QStringLiteral("FILE"));
  const QCommandLineOption noWaitFlagsOption(
      QStringLiteral("no-wait-flags"),
      QStringLiteral(
          "Do not wait for the static checks of the generated run (cancelled before the filters)."));
  const QCommandLineOption searchOption(
      QStringLiteral("search"),
      QStringLiteral("One-task search run file for the Search tab (written with generate_run N FILE 1 if "
                     "absent); \"none\" skips it."),
      QStringLiteral("FILE"));
  const QCommandLineOption searchCandidatesOption(QStringLiteral("search-candidates"),
                                                  QStringLiteral("Size of the one-task search."),
                                                  QStringLiteral("N"), QStringLiteral("100000"));
  parser.addOptions({cudaL1Option, skipCudaL1Option, candidatesOption, generatedOption, noWaitFlagsOption,
                     searchOption, searchCandidatesOption});
  parser.process(app);
  const QString candidates = parser.value(candidatesOption);
  const QString generated = parser.isSet(generatedOption)
                                ? parser.value(generatedOption)
                                : QStringLiteral(KS_BINARY_DIR "/bench/generated-%1.jsonl").arg(candidates);
  const QString searchCandidates = parser.value(searchCandidatesOption);
  const QString search =
      parser.isSet(searchOption)
          ? parser.value(searchOption)
          : QStringLiteral(KS_BINARY_DIR "/bench/generated-search-%1.jsonl").arg(searchCandidates);

  std::vector<Row> rows;
  std::vector<Row> breakdown;
  ks::MainWindow window;
  window.resize(1600, 1000);
  window.show();
  QApplication::processEvents();

  const QString cudaL1 = parser.value(cudaL1Option);
  if (parser.isSet(skipCudaL1Option)) {
  } else if (QFileInfo::exists(cudaL1)) {
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

  if (!ensureGenerated(generated, candidates, QStringLiteral("250"))) {
    std::fprintf(stderr, "generate_run failed\n");
    return 1;
  }
  const bool waitFlags = !parser.isSet(noWaitFlagsOption);
  const double before = memoryMiB("VmRSS:");
  {
    const std::lock_guard lock(stagesMutex);
    stages.clear();
    capturing = true;
  }
  QElapsedTimer flagsTimer;
  flagsTimer.start();
  const OpenTimes times = open(window, generated, waitFlags);
  const double seconds = times.paintMs / 1000;
  if (times.paintMs < 0 || (waitFlags && times.flagsMs < 0)) {
    std::fprintf(stderr, "could not open %s\n", qPrintable(generated));
    return 1;
  }
  const double residentAfterPaint = times.residentMiB;
  const double peakAfterPaint = times.peakMiB;
  const auto& run = *window.run();
  const QString size =
      QStringLiteral("%1 MB").arg(static_cast<double>(QFileInfo(generated).size()) / 1e6, 0, 'f', 0);
  const int candidateCount = static_cast<int>(run.run().candidateCount());
  rows.push_back(
      {QStringLiteral("generated run (%1 candidates, %2): open → first paint").arg(candidateCount).arg(size),
       QStringLiteral("%1 s").arg(seconds, 0, 'f', 2), QStringLiteral("< 5 s")});
  rows.push_back({QStringLiteral("… the process's CPU time over it (every thread)"),
                  QStringLiteral("%1 s").arg(times.cpuMs / 1000, 0, 'f', 2), QStringLiteral("—")});
  rows.push_back(
      {QStringLiteral("… resident memory at first paint (before opening: %1 MiB)").arg(before, 0, 'f', 0),
       QStringLiteral("%1 MiB").arg(residentAfterPaint, 0, 'f', 0), QStringLiteral("< 1536 MiB")});
  rows.push_back({QStringLiteral("… peak resident memory of the process up to first paint"),
                  QStringLiteral("%1 MiB").arg(peakAfterPaint, 0, 'f', 0), QStringLiteral("< 1536 MiB")});
  rows.push_back(
      {QStringLiteral("… resident memory per candidate (growth from opening to first paint)"),
       QStringLiteral("%1 bytes")
           .arg((residentAfterPaint - before) * 1024 * 1024 / std::max(1, candidateCount), 0, 'f', 0),
       QStringLiteral("—")});
  {
    const std::lock_guard lock(stagesMutex);
    capturing = false;
    double paint = times.paintMs;
    for (const Stage& stage : stages) {
      if (stage.name.startsWith(QStringLiteral("after paint"))) continue;
      breakdown.push_back({stage.name, ms(stage.ms), ms(stage.cpuMs)});
    }
    // What the stages leave: handing the run to the GUI thread, the repaint, event handling.
    double accounted = 0;
    for (const Stage& stage : stages)
      if (stage.name.startsWith(QStringLiteral("read:")) || stage.name.startsWith(QStringLiteral("show:")))
        accounted += stage.ms;
    breakdown.push_back({QStringLiteral("rest: the window's repaint, handing over, event handling"),
                         ms(paint - accounted), QStringLiteral("—")});
  }
  if (waitFlags) {
    rows.push_back(
        {QStringLiteral("… open → static-check flags shown (the checks run after the first paint)"),
         QStringLiteral("%1 s").arg(times.flagsMs / 1000, 0, 'f', 2), QStringLiteral("—")});
    rows.push_back({QStringLiteral("… resident memory once the flags are in / peak"),
                    QStringLiteral("%1 / %2 MiB")
                        .arg(memoryMiB("VmRSS:"), 0, 'f', 0)
                        .arg(memoryMiB("VmHWM:"), 0, 'f', 0),
                    QStringLiteral("< 1536 MiB")});
  } else {
    // Let the checks run a while to show they progress without holding the texts, then stop them: the
    // filters below are timed without them competing for the two cores.
    QElapsedTimer wait;
    wait.start();
    while (wait.elapsed() < 20000) QApplication::processEvents(QEventLoop::AllEvents, 100);
    rows.push_back({QStringLiteral("… resident memory after 20 s of static checks (then cancelled)"),
                    QStringLiteral("%1 MiB").arg(memoryMiB("VmRSS:"), 0, 'f', 0),
                    QStringLiteral("< 1536 MiB")});
    window.loader()->cancel();
    QApplication::processEvents();
  }

  ks::TaskTable* table = window.taskTable();
  auto* text = table->findChild<QLineEdit*>(QStringLiteral("filterText"));
  auto* level = table->findChild<QComboBox*>(QStringLiteral("filterLevel"));
  auto* flags = table->findChild<QComboBox*>(QStringLiteral("filterFlags"));
  auto* min = table->findChild<QDoubleSpinBox*>(QStringLiteral("filterMinSpeedup"));
  const auto clear = [table] { table->clearFilters(); };
  const int rowsShown = run.rowCount();
  rows.push_back({QStringLiteral("filter by text (\"fused 12\") on %1 rows").arg(rowsShown),
                  (timedChange(
                      table, [text] { text->setText(QStringLiteral("fused 12")); }, clear)),
                  QStringLiteral("< 100 ms")});
  rows.push_back({QStringLiteral("filter by level (level 2)"),
                  (timedChange(
                      table, [level] { level->setCurrentIndex(level->findData(2)); }, clear)),
                  QStringLiteral("< 100 ms")});
  rows.push_back({QStringLiteral("filter by speedup (≥ 2×)"),
                  (timedChange(
                      table, [min] { min->setValue(2.0); }, clear)),
                  QStringLiteral("< 100 ms")});
  rows.push_back({QStringLiteral("filter by flags (flagged)"),
                  (timedChange(
                      table, [flags] { flags->setCurrentIndex(1); }, clear)),
                  QStringLiteral("< 100 ms")});
  rows.push_back({QStringLiteral("clear filters (back to every row)"),
                  (timedChange(table, clear, [min] { min->setValue(2.0); })), QStringLiteral("< 100 ms")});
  auto* model = static_cast<ks::CandidateTableModel*>(table->proxy()->sourceModel());
  const int speedupColumn = model->speedupColumn(0);
  const auto byTask = [table] {
    table->clearFilters();
    table->view()->sortByColumn(ks::CandidateTableModel::TaskColumn, Qt::AscendingOrder);
  };
  {  // The first sort by a column works out its order; later ones (either direction) reuse it.
    const auto once = [&](int column, Qt::SortOrder order) {
      byTask();
      QApplication::processEvents();
      QElapsedTimer timer;
      timer.start();
      const double cpuStart = threadCpuMs();
      table->view()->sortByColumn(column, order);
      table->view()->viewport()->repaint();
      return QStringLiteral("%1 ms (CPU %2 ms)")
          .arg(static_cast<double>(timer.nsecsElapsed()) / 1e6, 0, 'f', 1)
          .arg(threadCpuMs() - cpuStart, 0, 'f', 1);
    };
    rows.push_back({QStringLiteral("sort by speedup (every row), first time"),
                    once(speedupColumn, Qt::DescendingOrder), QStringLiteral("< 100 ms")});
    rows.push_back({QStringLiteral("sort by candidate id (every row), first time"),
                    once(ks::CandidateTableModel::CandidateColumn, Qt::AscendingOrder),
                    QStringLiteral("< 100 ms")});
  }
  rows.push_back(
      {QStringLiteral("sort by speedup (every row), median of 5"),
       (timedChange(
           table, [table, speedupColumn] { table->view()->sortByColumn(speedupColumn, Qt::DescendingOrder); },
           byTask)),
       QStringLiteral("< 100 ms")});
  rows.push_back({QStringLiteral("filter by speedup (≥ 2×) while sorted by speedup"),
                  (timedChange(
                      table, [min] { min->setValue(2.0); },
                      [table, speedupColumn] {
                        table->clearFilters();
                        table->view()->sortByColumn(speedupColumn, Qt::DescendingOrder);
                      })),
                  QStringLiteral("< 100 ms")});

  {  // The Charts → Flags by task matrix, rebuilt from the run.
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

  std::vector<Row> searchRows;
  if (search != QStringLiteral("none")) {
    if (!ensureGenerated(search, searchCandidates, QStringLiteral("1"))) {
      std::fprintf(stderr, "generate_run failed\n");
      return 1;
    }
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("centerTabs"));
    ks::SearchTreeView* view = window.searchTreeView();
    tabs->setCurrentWidget(view);
    {
      const std::lock_guard lock(stagesMutex);
      stages.clear();
      capturing = true;
    }
    const OpenTimes searchTimes = open(window, search, /*waitForFlags=*/false);
    double tabMs = -1;
    {
      const std::lock_guard lock(stagesMutex);
      capturing = false;
      for (const Stage& stage : stages)
        if (stage.name.startsWith(QStringLiteral("view: search tree"))) tabMs = stage.ms;
    }
    window.loader()->cancel();
    QApplication::processEvents();
    ks::SearchTreeCanvas* canvas = view->canvas();
    QApplication::processEvents();
    const int nodes = view->tree() ? static_cast<int>(view->tree()->nodes().size()) : 0;
    searchRows.push_back({QStringLiteral("one-task search of %1 candidates: open with the Search tab shown → "
                                         "first paint")
                              .arg(nodes),
                          QStringLiteral("%1 s").arg(searchTimes.paintMs / 1000, 0, 'f', 2),
                          QStringLiteral("—")});
    searchRows.push_back({QStringLiteral("… of which the Search tab (layout, colours, best-so-far chart)"),
                          ms(tabMs), QStringLiteral("< 1 s")});
    searchRows.push_back({QStringLiteral("… paint the whole tree (%1 nodes, %2×%3 px; median of 3)")
                              .arg(canvas->lastPaintedNodes())
                              .arg(canvas->width())
                              .arg(canvas->height()),
                          ms(repaintMs(canvas)), QStringLiteral("interactive")});
    int hit = -1;
    for (int y = 0; y < canvas->height() && hit < 0; y += 2)
      for (int x = 40; x < canvas->width() && hit < 0; x += 2) hit = canvas->nodeAt(QPointF(x, y));
    if (hit >= 0) {
      const QPointF at = canvas->nodeCentre(hit);
      QElapsedTimer timer;
      timer.start();
      QMouseEvent press(QEvent::MouseButtonPress, at, canvas->mapToGlobal(at), Qt::LeftButton, Qt::LeftButton,
                        Qt::NoModifier);
      QMouseEvent release(QEvent::MouseButtonRelease, at, canvas->mapToGlobal(at), Qt::LeftButton,
                          Qt::NoButton, Qt::NoModifier);
      QApplication::sendEvent(canvas, &press);
      QApplication::sendEvent(canvas, &release);
      QApplication::processEvents();
      canvas->repaint();
      searchRows.push_back({QStringLiteral("… a click on a node → every pane follows, repainted"),
                            ms(static_cast<double>(timer.nsecsElapsed()) / 1e6),
                            QStringLiteral("interactive")});
    }
  }

  QTextStream out(stdout);
  out << "machine: " << QThread::idealThreadCount() << " hardware threads, Qt " << qVersion() << ", platform "
      << QApplication::platformName() << "\n\n";
  out << "| measurement | value | target |\n|---|--:|--:|\n";
  for (const Row& r : rows) out << "| " << r.measurement << " | " << r.value << " | " << r.target << " |\n";
  out << "\nFirst paint of the generated run, by stage (\"kscope.timing\"; nested stages are part of the one "
         "below them; CPU: the process's, every thread):\n\n";
  out << "| stage | wall | CPU |\n|---|--:|--:|\n";
  for (const Row& r : breakdown)
    out << "| " << r.measurement << " | " << r.value << " | " << r.target << " |\n";
  out << "\nProcess CPU from open to first paint: " << ms(times.cpuMs) << "\n";
  if (!searchRows.empty()) {
    out << "\n| Search tab | value | target |\n|---|--:|--:|\n";
    for (const Row& r : searchRows)
      out << "| " << r.measurement << " | " << r.value << " | " << r.target << " |\n";
  }
  return 0;
}
