#include "app/kernelscope/compile_command.h"

#include <unistd.h>

#include <QAction>
#include <QDir>
#include <QInputDialog>
#include <QKeySequence>
#include <QSettings>
#include <QtConcurrent/QtConcurrentRun>
#include <atomic>
#include <filesystem>

#include "core/nvcc/gpu_arch.h"
#include "core/nvcc/python_sources_build.h"
#include "core/nvcc/torch_setup.h"
#include "core/repair/build_cause.h"
#include "views/model/code_problems.h"
#include "views/model/loaded_run.h"
#include "views/model/open_run.h"
#include "views/widgets/code_compare_view.h"

namespace ks {
namespace {

const QString kArchKey = QStringLiteral("compile/arch");
const QString kSecondsKey = QStringLiteral("compile/lastSeconds");

CompileCommand::Outcome compile(std::string program, std::string arch, int row, bool forRun,
                                std::shared_ptr<std::atomic<bool>> cancel) {
  static std::atomic<int> serial{0};
  CompileCommand::Outcome out{{}, {}, std::move(program), std::move(arch), row, forRun};
  nvcc::TorchSetup torch = nvcc::discoverTorchSetup("python3");
  if (!torch.found()) torch = nvcc::discoverTorchSetup("/usr/bin/python3");
  if (!torch.found()) {
    out.error = "no torch headers: " + torch.error;
    return out;
  }
  const auto scratch = std::filesystem::temp_directory_path() /
                       ("kernelscope-compile-" + std::to_string(::getpid()) + "-" + std::to_string(++serial));
  nvcc::addCudaHeaderShim(torch, scratch / "shim");
  std::error_code ec;
  std::filesystem::create_directories(scratch / "build", ec);
  nvcc::BuildOptions options = nvcc::compileCheckOptions(torch, out.arch, scratch / "build");
  options.cancel = cancel.get();
  out.result = nvcc::buildPythonSources(out.program, options);
  out.cancelled = cancel->load();
  std::filesystem::remove_all(scratch, ec);
  return out;
}

}  // namespace

CompileCommand::CompileCommand(CodeCompareView* code, const OpenRun* open, QWidget* window)
    : QObject(window),
      m_code(code),
      m_open(open),
      m_window(window),
      m_compile(new QAction(tr("&Compile Selected Candidate"), this)),
      m_chooseArch(new QAction(tr("Compile A&rchitecture…"), this)) {
  m_compile->setObjectName(QStringLiteral("compileAction"));
  m_compile->setShortcut(QKeySequence(Qt::Key_F7));
  m_compile->setStatusTip(
      tr("Compile the candidate's CUDA with nvcc alone (no GPU needed): errors, cause and "
         "ptxas resources on the program's lines"));
  m_chooseArch->setObjectName(QStringLiteral("compileArchAction"));
  connect(m_compile, &QAction::triggered, this, &CompileCommand::trigger);
  connect(m_chooseArch, &QAction::triggered, this, &CompileCommand::chooseArch);
  connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &CompileCommand::show);
}

QString CompileCommand::arch() {
  QString chosen = QSettings().value(kArchKey).toString();
  if (chosen.isEmpty()) chosen = QString::fromStdString(nvcc::targetArch(""));
  return chosen;
}

void CompileCommand::setArch(const QString& arch) { QSettings().setValue(kArchKey, arch); }

void CompileCommand::chooseArch() {
  bool ok = false;
  const QString chosen = QInputDialog::getItem(
      m_window, tr("Compile Architecture"), tr("nvcc -arch for Compile:"),
      {QStringLiteral("sm_80"), QStringLiteral("sm_86"), QStringLiteral("sm_89"), QStringLiteral("sm_90"),
       QStringLiteral("sm_90a"), QStringLiteral("sm_100"), QStringLiteral("sm_120")},
      4, true, &ok);
  if (ok && !chosen.trimmed().isEmpty()) setArch(chosen.trimmed());
}

void CompileCommand::trigger() { start(false); }

void CompileCommand::compileForRun() { start(true); }

void CompileCommand::start(bool forRun) {
  if (m_watcher.isRunning()) {
    emit message(tr("Compile: already compiling"));
    return;
  }
  if (!m_code->hasProgram() || m_open->currentRow() < 0) {
    emit message(tr("Compile: select a candidate with a program first"));
    return;
  }
  const QString target = arch();
  m_cancel = std::make_shared<std::atomic<bool>>(false);
  const std::shared_ptr<const LoadedRun>& run = m_open->run();
  const int row = m_open->currentRow();
  QString what;
  if (run && row >= 0 && row < run->rowCount()) {
    const Candidate* c = run->candidate(row);
    what = QString::fromStdString(run->task(row).key() + (c && !c->id.empty() ? " " + c->id : std::string()));
  }
  emit started(what.isEmpty() ? tr("for %1").arg(target) : tr("%1 for %2").arg(what, target));
  emit message(forRun ? tr("No GPU here: Run compiles the kernel for %1 with nvcc instead of running it "
                           "(torch cannot build it without a GPU)…")
                            .arg(target)
                      : tr("Compiling for %1 with nvcc (no GPU needed)…").arg(target));
  m_watcher.setFuture(QtConcurrent::run(compile, m_code->candidateProgram().toStdString(),
                                        target.toStdString(), m_open->currentRow(), forRun, m_cancel));
}

void CompileCommand::cancel() {
  if (m_cancel && m_watcher.isRunning()) m_cancel->store(true);
}

double CompileCommand::lastSeconds() { return QSettings().value(kSecondsKey, 0.0).toDouble(); }

QString CompileCommand::summary(const Outcome& out) {
  const QString arch = QString::fromStdString(out.arch);
  if (!out.error.empty())
    return tr("nothing compiled for %1: %2").arg(arch, QString::fromStdString(out.error));
  const auto& r = out.result;
  if (!r.ok) {
    const std::size_t errors = r.errorCount();
    return tr("compiled for %1: %2 (%3); %4")
        .arg(arch, errors == 1 ? tr("1 error") : tr("%1 errors").arg(errors),
             QString::fromUtf8(repair::causeName(repair::classifyBuildFailure(r.log, out.program).cause)),
             QString::fromStdString(nvcc::summarizeErrors(r.diagnostics)));
  }
  QStringList kernels;
  for (const auto& k : r.kernels) {
    QString name = QString::fromStdString(k.name);
    name = name.left(name.indexOf('(') < 0 ? name.size() : name.indexOf('('));
    kernels << tr("%1: %2 registers, %3 B shared, %4")
                   .arg(name)
                   .arg(k.registers)
                   .arg(k.sharedBytes)
                   .arg(k.spillStores + k.spillLoads > 0
                            ? tr("%1 B spilled").arg(k.spillStores + k.spillLoads)
                            : tr("no spills"));
  }
  return tr("compiled for %1 without errors: %2 (%3), %4 s")
      .arg(arch, r.kernels.size() == 1 ? tr("1 kernel") : tr("%1 kernels").arg(r.kernels.size()),
           kernels.isEmpty() ? tr("no __global__ kernel") : kernels.join(QStringLiteral("; ")))
      .arg(r.compileSeconds, 0, 'f', 0);
}

void CompileCommand::show() {
  const Outcome out = m_watcher.result();
  if (out.cancelled) {
    const QString summary = tr("Compile cancelled: nvcc was stopped, nothing is marked");
    emit message(summary);
    emit finished(summary);
    return;
  }
  if (out.error.empty() && out.result.compileSeconds > 0)
    QSettings().setValue(kSecondsKey, out.result.compileSeconds);
  QString summary = out.forRun ? tr("No GPU here: Run compiled the kernel instead of running it: %1")
                                     .arg(CompileCommand::summary(out))
                               : tr("Compile: %1").arg(CompileCommand::summary(out));
  if (out.error.empty()) {
    // Shown only on the program it compiled: a row change or an edit meanwhile makes it stale.
    if (m_open->currentRow() == out.row && m_code->candidateProgram().toStdString() == out.program)
      m_code->showProblems(compileProblems(out.result, out.program));
    else
      summary += tr(" (the program on show changed meanwhile: not marked)");
  }
  if (out.forRun) summary += tr(" — choose Device cpu to time its PyTorch fallback on this CPU");
  emit message(summary);
  emit finished(summary);
}

}  // namespace ks
