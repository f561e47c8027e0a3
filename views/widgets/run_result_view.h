#pragma once
// One re-run in detail: for a result, where it ran (environment), what the runner's probes flagged,
// correctness per seed, both models' times on both clocks, the candidate's kernels, builds and anything the
// programs changed; for an error, its kind, phase and message, the signal or exit status of a crashed runner
// and the last lines of its stderr. Below, the problems tied to the candidate's lines (compiler diagnostics,
// traceback frames): activating one asks for that line (lineRequested, 1-based program line). A result whose
// program fell back to PyTorch says so first, before any speedup (core/runs/fallback_note.h); a failed build
// of the candidate shows its cause in a bar at the top with a Repair button beside it (repairRequested).
#include <QWidget>

#include "core/runs/measured_run.h"

class QLabel;
class QListWidget;
class QPushButton;
class QTextBrowser;

namespace ks {

class RunResultView : public QWidget {
  Q_OBJECT

 public:
  explicit RunResultView(QWidget* parent = nullptr);

  // Shows `run`, a run of the candidate's recorded program or of an edit of it; nullptr: `note` instead.
  // `beside` (rich text, may be empty) goes first, before the headline: for a repaired program the
  // recorded, fallback and kernel numbers side by side (repairedBesideHtml).
  void showRun(const runs::MeasuredRun* run, bool recordedProgram, const QString& note = {},
               const QString& beside = {});
  QString plainText() const;
  QListWidget* problems() const { return m_problems; }
  QPushButton* repairButton() const { return m_repair; }
  QString causeText() const;  // the cause bar's text; empty when it is hidden

 signals:
  void lineRequested(int line);
  // The user asked to see the repair of the candidate program whose build failed (the Repair button).
  void repairRequested();

 private:
  QWidget* m_causeBar;
  QLabel* m_cause;
  QPushButton* m_repair;
  QTextBrowser* m_text;
  QLabel* m_problemsTitle;
  QListWidget* m_problems;
};

}  // namespace ks
