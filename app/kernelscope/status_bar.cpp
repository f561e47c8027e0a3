#include "app/kernelscope/status_bar.h"

#include <algorithm>

#include <QDir>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>

#include "app/kernelscope/compile_command.h"
#include "app/kernelscope/run_controller.h"
#include "app/kernelscope/run_loader.h"
#include "views/logic/counted.h"
#include "views/widgets/elided_label.h"

namespace ks {

StatusBar::StatusBar(RunLoader* loader, RunController* runs, QWidget* parent)
    : QStatusBar(parent),
      m_counts(new QLabel(this)),
      m_issueCount(new QLabel(this)),
      m_progress(new QProgressBar(this)),
      m_cancel(new QPushButton(tr("Cancel"), this)),
      m_runProgress(new QProgressBar(this)),
      m_runActivity(new ElidedLabel(this)),
      m_runCancel(new QPushButton(tr("Cancel Runs"), this)) {
  m_counts->setObjectName(QStringLiteral("statusCounts"));
  m_issueCount->setObjectName(QStringLiteral("statusIssues"));
  m_issueCount->setTextFormat(Qt::RichText);
  connect(m_issueCount, &QLabel::linkActivated, this, &StatusBar::issuesClicked);
  m_progress->setObjectName(QStringLiteral("loadProgress"));
  m_progress->setRange(0, 1000);
  m_progress->setMaximumWidth(220);
  m_progress->setTextVisible(true);
  m_cancel->setObjectName(QStringLiteral("loadCancel"));
  m_cancel->setToolTip(
      tr("Stop: while reading, the file open now stays open; while checking, the new run "
         "stays without flags"));
  connect(m_cancel, &QPushButton::clicked, loader, &RunLoader::cancel);
  m_runProgress->setObjectName(QStringLiteral("runProgress"));
  m_runProgress->setMinimumWidth(200);
  m_runProgress->setTextVisible(true);
  m_runProgress->hide();
  m_runActivity->setObjectName(QStringLiteral("runActivity"));
  m_runActivity->setMinimumWidth(120);
  m_runActivity->hide();
  m_runCancel->setObjectName(QStringLiteral("runCancel"));
  m_runCancel->setToolTip(tr("Stop the runs in progress (their runners' requests are killed) and drop the queued ones"));
  m_runCancel->hide();
  connect(m_runCancel, &QPushButton::clicked, runs, &RunController::cancel);
  addPermanentWidget(m_runProgress);
  addPermanentWidget(m_runActivity, 1);
  addPermanentWidget(m_runCancel);
  addPermanentWidget(m_progress);
  addPermanentWidget(m_cancel);
  addPermanentWidget(m_issueCount);
  addPermanentWidget(m_counts);
  setLoading(false);

  connect(loader, &RunLoader::started, this, [this](const QString& path) {
    showMessage(tr("Opening %1…").arg(QDir::toNativeSeparators(path)));
  });
  connect(loader, &RunLoader::slow, this, [this] { setLoading(true); });
  connect(loader, &RunLoader::progressChanged, this, [this](int permille, const QString& phase) {
    m_progress->setValue(permille);
    m_progress->setFormat(tr("%1 %p%").arg(phase));
  });
  connect(runs, &RunController::progressChanged, this, [this, runs](int done, int total, const QString& text) {
    m_runProgress->setRange(0, total);
    m_runProgress->setValue(done);
    m_runProgress->setFormat(text);
    // Several runners, one per GPU: what each does, beside the bar and one per line in the tooltips.
    const QStringList activity = runs->runnerCount() > 1 ? runs->activity() : QStringList();
    m_runProgress->setToolTip(activity.isEmpty() ? text : text + QLatin1Char('\n') + activity.join(QLatin1Char('\n')));
    m_runActivity->setFullText(activity.join(QStringLiteral("  |  ")));
    m_runActivity->setToolTip(activity.join(QLatin1Char('\n')));
    m_runActivity->setVisible(!activity.isEmpty());
    m_runProgress->show();
    m_runCancel->show();
    emit runsActive(true);
  });
  connect(runs, &RunController::idle, this, [this](int ran, int cancelled) {
    m_runProgress->hide();
    m_runActivity->hide();
    m_runCancel->hide();
    emit runsActive(false);
    if (cancelled > 0) showMessage(tr("Runs cancelled: %1 ran, %2 cancelled").arg(ran).arg(cancelled), 8000);
  });
}

void StatusBar::setLoading(bool visible) {
  m_progress->setVisible(visible);
  m_cancel->setVisible(visible);
  if (!visible) m_progress->reset();
}

void StatusBar::showCounts(const QString& summary, int issues) {
  m_counts->setText(summary);
  m_issueCount->setVisible(issues > 0);
  m_issueCount->setText(
      QStringLiteral("<a href='#issues'>%1</a>").arg(counted(issues, tr("load issue"), tr("load issues"))));
}

void StatusBar::followCompile(CompileCommand* compile) {
  m_compileProgress = new QProgressBar(this);
  m_compileProgress->setObjectName(QStringLiteral("compileProgress"));
  m_compileProgress->setMinimumWidth(260);
  m_compileProgress->setTextVisible(true);
  m_compileProgress->hide();
  m_compileCancel = new QPushButton(tr("Cancel Compile"), this);
  m_compileCancel->setObjectName(QStringLiteral("compileCancel"));
  m_compileCancel->setToolTip(tr("Stop nvcc; nothing is marked"));
  m_compileCancel->hide();
  m_compileTick = new QTimer(this);
  m_compileTick->setInterval(1000);
  insertPermanentWidget(0, m_compileProgress);
  insertPermanentWidget(1, m_compileCancel);
  connect(m_compileTick, &QTimer::timeout, this, &StatusBar::showCompileProgress);
  connect(m_compileCancel, &QPushButton::clicked, compile, &CompileCommand::cancel);
  connect(compile, &CompileCommand::started, this, [this](const QString& what) {
    m_compileWhat = what;
    m_compileEstimate = CompileCommand::lastSeconds();
    m_compileClock.start();
    showCompileProgress();
    m_compileProgress->show();
    m_compileCancel->show();
    m_compileTick->start();
  });
  connect(compile, &CompileCommand::finished, this, [this] {
    m_compileTick->stop();
    m_compileProgress->hide();
    m_compileCancel->hide();
  });
}

void StatusBar::showCompileProgress() {
  const qint64 seconds = m_compileClock.elapsed() / 1000;
  // With an estimate the bar fills towards it (and stays just short of full past it); without one it is busy.
  if (m_compileEstimate >= 1) {
    m_compileProgress->setRange(0, 1000);
    m_compileProgress->setValue(static_cast<int>(
        std::min(990.0, 1000.0 * static_cast<double>(m_compileClock.elapsed()) / (1000.0 * m_compileEstimate))));
    m_compileProgress->setFormat(tr("nvcc: %1 · %2 s of about %3 s")
                                     .arg(m_compileWhat)
                                     .arg(seconds)
                                     .arg(static_cast<int>(m_compileEstimate + 0.5)));
  } else {
    m_compileProgress->setRange(0, 0);
    m_compileProgress->setFormat(tr("nvcc: %1 · %2 s").arg(m_compileWhat).arg(seconds));
  }
  m_compileProgress->setToolTip(tr("Compiling %1 with nvcc: %2 s so far").arg(m_compileWhat).arg(seconds));
}

}  // namespace ks
