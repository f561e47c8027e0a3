#pragma once
// The mechanical repair of a candidate program (core/repair/program_repair.h), shown before anything
// changes: what each repair does and on which lines, the causes it cannot fix, and the unified diff of the
// candidate. Accepting it ("Apply as Edited Copy") is the user's choice; the dialog itself changes nothing.
#include <QDialog>

#include "core/repair/program_repair.h"

class QDialogButtonBox;
class QLabel;
class QPushButton;
class QTextBrowser;

namespace ks {

class RepairDialog : public QDialog {
  Q_OBJECT

 public:
  // `candidate`: "L1/12 r2" (edited) — what the diff is of.
  RepairDialog(const repair::ProgramRepair& repair, const QString& candidate, QWidget* parent = nullptr);

  QString diffText() const;  // the diff as shown, plain
  QPushButton* applyButton() const { return m_apply; }

 private:
  QLabel* m_summary;
  QTextBrowser* m_diff;
  QPushButton* m_apply;
};

}  // namespace ks
