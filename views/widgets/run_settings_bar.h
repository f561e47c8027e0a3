#pragma once
// How re-runs are made, for the Run toolbar: the device (Auto lets the runner choose: cuda when it has a GPU,
// else cpu), timed trials and correctness seeds (Auto: the runner's defaults), and a time limit per phase
// (Auto: the deadlines the runner announces), and the memory the runner may hold (Auto: three quarters of
// this machine's). Shows the runner's environment once it has said hello, and offers cuda only when the
// runner has it.
#include <QWidget>

#include "core/protocol/evaluate_result.h"
#include "core/runs/evaluate_options.h"

class QComboBox;
class QLabel;
class QSpinBox;

namespace ks {

class RunSettingsBar : public QWidget {
  Q_OBJECT

 public:
  explicit RunSettingsBar(QWidget* parent = nullptr);

  runs::RunChoices choices() const;
  int phaseLimitSeconds() const;  // 0: as the runner announces
  int memoryLimitGiB() const;     // 0: auto
  void setChoices(const runs::RunChoices& choices);
  void setPhaseLimitSeconds(int seconds);
  void setMemoryLimitGiB(int gib);

  void setEnvironment(const protocol::Environment& environment);
  void setRunnerProblem(const QString& message);  // no runner: say why, in place of the environment
  QString environmentText() const;

  QByteArray saveState() const;
  void restoreState(const QByteArray& state);

 private:
  QComboBox* m_device;
  QSpinBox* m_trials;
  QSpinBox* m_seeds;
  QSpinBox* m_limit;
  QSpinBox* m_memory;
  QLabel* m_environment;
};

}  // namespace ks
