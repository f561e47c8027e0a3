// kscope report FILE [--task L/T ...] [--candidate ID] --out report.html|report.pdf: a case study people can
// open anywhere. The page is written from the report's content model (views/report/report_content.h,
// shared with the GUI's File > Export and presentation mode): without --task, the summary statistics, the
// distribution charts and a table of tasks linking to one section per candidate. HTML is self-contained;
// PDF is Qt's own writer (views/report/report_pdf.h). Built only with Qt (KSCOPE_GUI).
#include <QGuiApplication>
#include <QString>
#include <QThreadPool>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "app/kscope/command.h"
#include "app/kscope/input_loading.h"
#include "core/model/task_lookup.h"
#include "core/store/store_path.h"
#include "core/version/version.h"
#include "views/logic/loaded_run.h"
#include "views/logic/measured_history.h"
#include "views/logic/read_history.h"
#include "views/report/report_content.h"
#include "views/report/report_html.h"
#include "views/report/report_pdf.h"

namespace ks::cli {
namespace {

struct ReportCliOptions {
  std::string file;
  std::vector<std::string> tasks;
  std::string candidate;
  std::string baseline;  // empty: the file's first recorded series
  std::string out;
  std::string store;
  bool noHistory = false;
};

std::string nowUtc() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M UTC", &tm);
  return buffer;
}

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void runReport(const ReportCliOptions& o) {
  const bool pdf = endsWith(o.out, ".pdf");
  if (!pdf && !endsWith(o.out, ".html") && !endsWith(o.out, ".htm")) {
    std::cerr << "kscope report: --out must end in .html or .pdf: " << o.out << "\n";
    raiseExitCode(kExitFailure);
    return;
  }
  const auto started = std::chrono::steady_clock::now();
  LoadedInput input = loadInput(o.file);
  if (!input.usable) return;
  std::vector<std::string> tasks;
  for (const std::string& typed : o.tasks) {  // the one task-key rule of every command (task_lookup.h)
    const TaskLookup found = lookUpTask(input.run, typed, o.file);
    if (!found.task) {
      std::cerr << "kscope report: " << found.error << "\n";
      raiseExitCode(kExitFailure);
      return;
    }
    tasks.push_back(found.task->key());
  }
  const std::string sourceFile = o.file;
  auto loaded = std::make_shared<const LoadedRun>(std::move(input.run));
  QThreadPool pool;
  std::shared_ptr<const LoadedRun> run = loaded->withFlags(*loaded->checkFlags(&pool));

  std::shared_ptr<MeasuredHistory> history;
  if (!o.noHistory) {
    const auto storePath = o.store.empty() ? store::defaultStorePath() : std::filesystem::path(o.store);
    HistoryRead read = readHistory(storePath, sourceFile, *run);
    if (!read.error.empty()) std::cerr << "kscope report: results history: " << read.error << "\n";
    history = std::move(read.history);
  }

  // The series as the GUI starts with it: the file's first, or the one --baseline names (by label,
  // "cuBLAS-max (offline)", or by baseline, its first mode).
  SpeedupSeries series = run->series().front();
  if (!o.baseline.empty())
    series = findSeries(run->series(), o.baseline).value_or(SpeedupSeries{o.baseline, {}});
  ReportOptions options{tasks, o.candidate, series};
  const ReportContent content = buildReport(*run, history.get(), options);
  for (const std::string& problem : content.problems) std::cerr << "kscope report: " << problem << "\n";
  if (!content.problems.empty()) {  // an unknown --task or --candidate: not done (docs/cli.md, exit codes)
    raiseExitCode(kExitFailure);
    return;
  }
  ReportHtmlOptions html{ReportHtmlOptions::Flavour::Browser, version::line("kscope"), nowUtc()};
  if (pdf) {
    // Fonts need a QGuiApplication; a report never needs a screen.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "kscope";
    static char* argv[] = {name, nullptr};
    QGuiApplication app(argc, argv);
    QString error;
    if (!writeReportPdf(content, html, QString::fromStdString(o.out), &error)) {
      std::cerr << "kscope report: " << error.toStdString() << "\n";
      raiseExitCode(kExitFailure);
      return;
    }
  } else {
    std::ofstream out(o.out, std::ios::binary);
    out << reportHtml(content, html);
    if (!out.flush()) {
      std::cerr << "kscope report: cannot write " << o.out << "\n";
      raiseExitCode(kExitFailure);
      return;
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cerr << "kscope report: wrote " << o.out << " (" << content.sections.size() << " sections) in "
            << static_cast<int>(seconds * 10) / 10.0 << " s\n";
}

}  // namespace

void addReportCommand(CLI::App& app) {
  auto o = std::make_shared<ReportCliOptions>();
  CLI::App* command = app.add_subcommand(
      "report", "Write a case study as a self-contained HTML page or a PDF (docs/cli.md)");
  command->add_option("file", o->file, "CUDA-L1 JSONL, kscope run file, KernelBench folder or .cu file")
      ->required();
  command->add_option("--task", o->tasks,
                      "Task key (L1/12 or 1/12); repeat for several; default: the whole file");
  command->add_option("--candidate", o->candidate, "Only this candidate id of the chosen tasks");
  command->add_option("--baseline", o->baseline,
                      "Baseline of the recorded speedups charted, with its mode as \"cuBLAS-max (offline)\" "
                      "(default: the file's first)");
  command->add_option("--out", o->out, "report.html or report.pdf")->required();
  command->add_option("--store", o->store, "Results database for re-measured numbers (default: docs/store-schema.md)");
  command->add_flag("--no-history", o->noHistory, "Leave out re-measured numbers (do not read the results store)");
  command->callback([o] { runReport(*o); });
}

KS_REGISTER_COMMAND(addReportCommand);

}  // namespace ks::cli
