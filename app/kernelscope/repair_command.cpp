#include "app/kernelscope/repair_command.h"

#include <QAction>
#include <QKeySequence>
#include <QWidget>

#include "core/nvcc/gpu_arch.h"
#include "core/repair/program_repair.h"
#include "views/logic/loaded_run.h"
#include "views/logic/open_run.h"
#include "views/widgets/code_compare_view.h"
#include "views/widgets/repair_dialog.h"

namespace ks {

RepairCommand::RepairCommand(CodeCompareView* code, const OpenRun* open, QWidget* window)
    : QObject(window),
      m_code(code),
      m_open(open),
      m_window(window),
      m_action(new QAction(tr("Re&pair Build…"), this)) {
  m_action->setObjectName(QStringLiteral("repairAction"));
  m_action->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
  m_action->setStatusTip(
      tr("Show the mechanical repair of the candidate's CUDA build as a diff; applying it "
         "makes an edited copy, the recorded program stays"));
  connect(m_action, &QAction::triggered, this, &RepairCommand::trigger);
}

QString RepairCommand::targetArch() {
  if (m_arch.isEmpty()) m_arch = QString::fromStdString(nvcc::targetArch(""));
  return m_arch;
}

void RepairCommand::trigger() {
  if (!m_code->hasProgram() || !m_open->run() || m_open->currentRow() < 0) {
    emit message(tr("Repair: select a candidate with a program first"));
    return;
  }
  const int row = m_open->currentRow();
  const Candidate* c = m_open->run()->candidate(row);
  QString name = QString::fromStdString(m_open->run()->task(row).key() + " " + (c ? c->id : std::string()));
  if (m_code->isEdited()) name = tr("%1 (edited)").arg(name);
  const std::string program = m_code->candidateProgram().toStdString();
  const repair::ProgramRepair r = repair::repairProgram(
      program,
      {.arch = targetArch().toStdString(), .fileName = (c ? c->id : std::string("candidate")) + ".py"});
  if (!r.changed()) {
    QString why = tr("Repair: nothing to repair mechanically in %1").arg(name);
    if (!r.notRepaired.empty())
      why += QStringLiteral(" (%1)").arg(QString::fromStdString(r.notRepaired.front()));
    emit message(why);
    return;
  }
  auto* dialog = new RepairDialog(r, name, m_window);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  const QString repaired = QString::fromStdString(r.program);
  // Applied only if the same program is still on show: a row change or an edit meanwhile makes it stale.
  connect(dialog, &QDialog::accepted, this, [this, repaired, program, row] {
    if (m_open->currentRow() != row || m_code->candidateProgram().toStdString() != program) {
      emit message(tr("Repair not applied: the program on show changed meanwhile"));
      return;
    }
    m_code->applyEdit(repaired);
    emit message(
        tr("Repaired copy on show as the candidate's edit: Run (F9) times it; Undo or Revert Edit "
           "goes back"));
    emit applied();
  });
  dialog->open();
}

}  // namespace ks
