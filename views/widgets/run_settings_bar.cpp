#include "views/widgets/run_settings_bar.h"

#include <QComboBox>
#include <QDataStream>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QIODevice>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QToolButton>

#include "views/widgets/elided_label.h"

namespace ks {
namespace {

constexpr quint32 kSettingsStateVersion = 2;  // 2: the GPUs; a state of version 1 is read too

QSpinBox* autoSpin(const QString& objectName, int max, const QString& suffix, QWidget* parent) {
  auto* spin = new QSpinBox(parent);
  spin->setObjectName(objectName);
  spin->setRange(0, max);
  spin->setSpecialValueText(QObject::tr("auto"));
  spin->setSuffix(suffix);
  spin->setAccelerated(true);
  return spin;
}

QLabel* buddyLabel(const QString& text, QWidget* buddy, QWidget* parent) {
  auto* label = new QLabel(text, parent);
  label->setBuddy(buddy);
  return label;
}

}  // namespace

RunSettingsBar::RunSettingsBar(QWidget* parent)
    : QWidget(parent),
      m_device(new QComboBox(this)),
      m_trials(autoSpin(QStringLiteral("runTrials"), 100000, {}, this)),
      m_seeds(autoSpin(QStringLiteral("runSeeds"), 1000, {}, this)),
      m_limit(autoSpin(QStringLiteral("runPhaseLimit"), 86400, tr(" s"), this)),
      m_memory(autoSpin(QStringLiteral("runMemoryLimit"), 4096, tr(" GiB"), this)),
      m_gpus(new QLineEdit(this)),
      m_limitsButton(new QToolButton(this)),
      m_limitsPopup(new QFrame(this, Qt::Popup)),
      m_environment(new ElidedLabel(this)) {
  m_device->setObjectName(QStringLiteral("runDevice"));
  m_device->addItem(tr("Auto"), QString());
  m_device->addItem(QStringLiteral("cuda"), QStringLiteral("cuda"));
  m_device->addItem(QStringLiteral("cpu"), QStringLiteral("cpu"));
  m_device->setToolTip(tr("Where re-runs execute; Auto: cuda when the runner has a GPU, else cpu"));
  m_trials->setToolTip(tr("Timed trials per model (auto: 50 on cuda, 10 on cpu)"));
  m_seeds->setToolTip(tr("Correctness seeds (auto: 5)"));
  m_limit->setToolTip(
      tr("Longest any phase (load, build, correctness, timing, profile) may run before the runner is stopped "
         "and the run reported as a timeout (auto: the deadlines the runner announces)"));
  m_memory->setToolTip(
      tr("Most resident memory the runner may hold before it is stopped and the run reported "
         "as out of memory (auto: three quarters of this machine's memory)"));
  m_environment->setObjectName(QStringLiteral("runEnvironment"));
  m_environment->setMinimumWidth(60);
  m_environment->setStyleSheet(QStringLiteral("color: #57606a"));
  showEnvironment(tr("runner not started"), {});

  // The two limits are set rarely: they live in a popup behind one button whose text says what they are,
  // so that the bar fits a 1024-px window with Device, Trials and Seeds in sight.
  m_limitsButton->setObjectName(QStringLiteral("runLimitsButton"));
  m_limitsButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
  m_limitsButton->setArrowType(Qt::NoArrow);
  m_limitsButton->setToolTip(tr("Limit per phase and memory limit of re-runs"));
  m_limitsPopup->setObjectName(QStringLiteral("runLimitsPopup"));
  m_limitsPopup->setFrameShape(QFrame::StyledPanel);
  auto* form = new QFormLayout(m_limitsPopup);
  form->addRow(buddyLabel(tr("Limit per phase"), m_limit, m_limitsPopup), m_limit);
  form->addRow(buddyLabel(tr("Memory"), m_memory, m_limitsPopup), m_memory);
  // Run All Visible keeps one runner per GPU; empty is every GPU found (one runner without any).
  m_gpus->setObjectName(QStringLiteral("runGpus"));
  m_gpus->setPlaceholderText(tr("all"));
  m_gpus->setClearButtonEnabled(true);
  m_gpus->setValidator(new QRegularExpressionValidator(
      QRegularExpression(QStringLiteral("[A-Za-z0-9_:,\\- ]*")), m_gpus));
  m_gpus->setToolTip(
      tr("The GPUs re-runs time on, one runner each, each seeing only its own (CUDA_VISIBLE_DEVICES): ids such "
         "as 0,2, or empty for every GPU found ($KSCOPE_GPU_LIST, else $CUDA_VISIBLE_DEVICES, else the "
         "driver's); one runner when there is none or one"));
  form->addRow(buddyLabel(tr("GPUs"), m_gpus, m_limitsPopup), m_gpus);
  connect(m_gpus, &QLineEdit::textChanged, this, &RunSettingsBar::updateLimitsText);
  connect(m_limitsButton, &QToolButton::clicked, this, [this] {
    m_limitsPopup->adjustSize();
    m_limitsPopup->move(m_limitsButton->mapToGlobal(QPoint(0, m_limitsButton->height())));
    m_limitsPopup->show();
  });
  for (QSpinBox* spin : {m_limit, m_memory})
    connect(spin, &QSpinBox::valueChanged, this, &RunSettingsBar::updateLimitsText);
  updateLimitsText();

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(4, 0, 4, 0);
  layout->setSpacing(4);
  layout->addWidget(buddyLabel(tr("Device"), m_device, this));
  layout->addWidget(m_device);
  layout->addSpacing(6);
  layout->addWidget(buddyLabel(tr("Trials"), m_trials, this));
  layout->addWidget(m_trials);
  layout->addSpacing(6);
  layout->addWidget(buddyLabel(tr("Seeds"), m_seeds, this));
  layout->addWidget(m_seeds);
  layout->addSpacing(6);
  layout->addWidget(m_limitsButton);
  layout->addSpacing(8);
  layout->addWidget(m_environment, 1);
}

void RunSettingsBar::updateLimitsText() {
  const bool autoLimits = m_limit->value() == 0 && m_memory->value() == 0;
  QString text = autoLimits ? tr("Limits: auto") : tr("Limits: %1, %2").arg(m_limit->text(), m_memory->text());
  if (!gpus().isEmpty()) text += tr(" · GPUs %1").arg(gpus());
  m_limitsButton->setText(text);
}

void RunSettingsBar::showEnvironment(const QString& text, const QString& tip) {
  m_environmentText = text;
  m_environment->setFullText(text);
  m_environment->setToolTip(tip.isEmpty() ? text : tip);
}

runs::RunChoices RunSettingsBar::choices() const {
  return {.device = m_device->currentData().toString().toStdString(),
          .trials = m_trials->value(),
          .seeds = m_seeds->value()};
}

int RunSettingsBar::phaseLimitSeconds() const { return m_limit->value(); }

int RunSettingsBar::memoryLimitGiB() const { return m_memory->value(); }

void RunSettingsBar::setChoices(const runs::RunChoices& choices) {
  m_device->setCurrentIndex(std::max(0, m_device->findData(QString::fromStdString(choices.device))));
  m_trials->setValue(choices.trials);
  m_seeds->setValue(choices.seeds);
}

void RunSettingsBar::setPhaseLimitSeconds(int seconds) { m_limit->setValue(seconds); }

void RunSettingsBar::setMemoryLimitGiB(int gib) { m_memory->setValue(gib); }

QString RunSettingsBar::gpus() const {
  const QString spec = m_gpus->text().trimmed();
  return spec == QStringLiteral("all") ? QString() : spec;
}

void RunSettingsBar::setGpus(const QString& spec) { m_gpus->setText(spec.trimmed()); }

void RunSettingsBar::setEnvironment(const protocol::Environment& e) {
  const bool cuda = e.device == "cuda";
  auto* model = static_cast<QStandardItemModel*>(m_device->model());
  model->item(1)->setEnabled(cuda);
  model->item(1)->setToolTip(cuda ? QString()
                                  : tr("The runner has no GPU (torch without CUDA, or none found)"));
  m_device->setItemText(0, tr("Auto (%1)").arg(QString::fromStdString(e.device)));
  QStringList parts;
  parts << QString::fromStdString(e.deviceName.empty() ? e.device : e.deviceName);
  if (!e.torch.empty()) parts << tr("torch %1").arg(QString::fromStdString(e.torch));
  if (!e.cuda.empty()) parts << tr("CUDA %1").arg(QString::fromStdString(e.cuda));
  if (!e.python.empty()) parts << tr("Python %1").arg(QString::fromStdString(e.python));
  QStringList tip;
  tip << tr("Runner: %1").arg(QString::fromStdString(e.runner));
  tip << tr("Default device: %1 (%2)")
             .arg(QString::fromStdString(e.device), QString::fromStdString(e.deviceName));
  if (!e.driver.empty()) tip << tr("Driver: %1").arg(QString::fromStdString(e.driver));
  tip << tr("CPU: %1, %2 torch threads").arg(QString::fromStdString(e.cpu)).arg(e.cpuThreads);
  tip << tr("Host: %1").arg(QString::fromStdString(e.hostname));
  showEnvironment(parts.join(QStringLiteral(" · ")), tip.join('\n'));
  m_environment->setStyleSheet(QStringLiteral("color: #24292f"));
}

void RunSettingsBar::setRunnerProblem(const QString& message) {
  showEnvironment(tr("no runner: %1").arg(message), message);
  m_environment->setStyleSheet(QStringLiteral("color: #cf222e"));
}

QString RunSettingsBar::environmentText() const { return m_environmentText; }

QByteArray RunSettingsBar::saveState() const {
  QByteArray state;
  QDataStream out(&state, QIODevice::WriteOnly);
  out << kSettingsStateVersion << m_device->currentData().toString() << m_trials->value() << m_seeds->value()
      << m_limit->value() << m_memory->value() << gpus();
  return state;
}

void RunSettingsBar::restoreState(const QByteArray& state) {
  QDataStream in(state);
  quint32 version = 0;
  QString device;
  int trials = 0, seeds = 0, limit = 0, memory = 0;
  QString gpuSpec;
  in >> version >> device >> trials >> seeds >> limit >> memory;
  if (version >= 2) in >> gpuSpec;
  if (in.status() != QDataStream::Ok || version < 1 || version > kSettingsStateVersion) return;
  setChoices({.device = device.toStdString(), .trials = trials, .seeds = seeds});
  setPhaseLimitSeconds(limit);
  setMemoryLimitGiB(memory);
  setGpus(gpuSpec);
}

}  // namespace ks
