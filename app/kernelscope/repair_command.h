#pragma once
// Repair (Ctrl+Shift+R, and the Repair button beside a failed build): the candidate program on show — the
// user's edit of it included — repaired mechanically (core/repair/program_repair.h) for this machine's GPU
// architecture and shown as a diff (RepairDialog). Nothing changes until the user applies it; then the
// repaired text becomes the candidate's edit (CodeCompareView::applyEdit): an edited copy, autosaved and
// timed by Run, the recorded program untouched and the user's own edit one Undo away.
#include <QObject>
#include <QString>

class QAction;
class QWidget;

namespace ks {

class CodeCompareView;
class OpenRun;

class RepairCommand : public QObject {
  Q_OBJECT

 public:
  RepairCommand(CodeCompareView* code, const OpenRun* open, QWidget* window);
  QAction* action() const { return m_action; }

 public slots:
  // Opens the repair's dialog (window-modal, not blocking), or says why there is nothing to repair.
  void trigger();

 signals:
  void message(const QString& text);  // for the status bar
  void applied();                     // the repaired copy is on show, as the candidate's edit

 private:
  QString targetArch();

  CodeCompareView* m_code;
  const OpenRun* m_open;
  QWidget* m_window;
  QAction* m_action;
  QString m_arch;  // asked of nvidia-smi once
};

}  // namespace ks
