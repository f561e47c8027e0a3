#include "app/kernelscope/compile_command.h"

#include <QAction>
#include <QInputDialog>
#include <QKeySequence>
#include <QSettings>
#include <QtConcurrent/QtConcurrentRun>

#include "core/nvcc/gpu_arch.h"
#include "core/runs/program_compile.h"
#include "views/logic/code_problems.h"
#include "views/logic/loaded_run.h"
#include "views/logic/open_run.h"
#include "views/widgets/code_compare_view.h"

namespace ks {
namespace {

const QString kArchKey = QStringLiteral("compile/arch");
const QString kSecondsKey = QStringLiteral("compile/lastSeconds");

CompileCommand::Outcome compile(std::string program, std::string arch, int row, bool forRun,
                                std::shared_ptr<std::atomic<bool>> cancel) {
  CompileCommand::Outcome out{{}, {}, std::move(program), std::move(arch), row, forRun};
  // kscope run's path too
  runs::ProgramCompile compiled = runs::compileProgram(out.program, out.arch, "python3", cancel.get());
  out.result = std::move(compiled.result);
  out.error = std::move(compiled.error);
  out.cancelled = cancel->load();
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
  return QString::fromStdString(runs::compileSummary(out.result, out.error, out.arch, out.program));
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
