#pragma once
// How re-runs are made, for the Run toolbar: the device (Auto lets the runner choose: cuda when it has a GPU,
// else cpu), timed trials and correctness seeds (Auto: the runner's defaults), and a time limit per phase
// (Auto: the deadlines the runner announces), and the memory the runner may hold (Auto: three quarters of
// this machine's); the two limits sit behind a "Limits" button so that the bar fits 1024 px, with the GPUs
// that re-runs time on, one runner each (empty: all that are found, cluster::gpuRunners). Shows the
// runner's environment once it has said hello, and offers cuda only when the runner has it.
#include <QWidget>

#include "core/protocol/evaluate_result.h"
#include "core/runs/evaluate_options.h"

class QComboBox;
class QFrame;
class QLineEdit;
class QSpinBox;
class QToolButton;

namespace ks {

class ElidedLabel;

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
  QString gpus() const;  // "" (every GPU found) or ids such as "0,2"
  void setGpus(const QString& spec);

  void setEnvironment(const protocol::Environment& environment);
  void setRunnerProblem(const QString& message);  // no runner: say why, in place of the environment
  QString environmentText() const;

  QByteArray saveState() const;
  void restoreState(const QByteArray& state);

 private:
  void updateLimitsText();
  void showEnvironment(const QString& text, const QString& tip);

  QComboBox* m_device;
  QSpinBox* m_trials;
  QSpinBox* m_seeds;
  QSpinBox* m_limit;
  QSpinBox* m_memory;
  QLineEdit* m_gpus;
  QToolButton* m_limitsButton;  // opens m_limitsPopup (limit per phase, memory); its text says both
  QFrame* m_limitsPopup;
  ElidedLabel* m_environment;  // elided to the room the bar leaves; the whole text in its tooltip
  QString m_environmentText;
};

}  // namespace ks
