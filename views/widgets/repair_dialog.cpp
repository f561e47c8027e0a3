#include "views/widgets/repair_dialog.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPushButton>
#include <QStringList>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace ks {
namespace {

QString escaped(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

// The unified diff with removed lines red and added lines green, as <pre>.
QString diffHtml(const std::string& diff) {
  QString out;
  for (const QString& line : QString::fromStdString(diff).split('\n')) {
    const QString text = line.toHtmlEscaped();
    if (line.startsWith(QStringLiteral("+++")) || line.startsWith(QStringLiteral("---")))
      out += QStringLiteral("<b>%1</b>\n").arg(text);
    else if (line.startsWith('+'))
      out += QStringLiteral("<span style='background-color: #dafbe1'>%1</span>\n").arg(text);
    else if (line.startsWith('-'))
      out += QStringLiteral("<span style='background-color: #ffebe9'>%1</span>\n").arg(text);
    else if (line.startsWith(QStringLiteral("@@")))
      out += QStringLiteral("<span style='color: #8250df'>%1</span>\n").arg(text);
    else
      out += text + '\n';
  }
  return QStringLiteral("<pre>%1</pre>").arg(out);
}

}  // namespace

RepairDialog::RepairDialog(const repair::ProgramRepair& repair, const QString& candidate, QWidget* parent)
    : QDialog(parent), m_summary(new QLabel(this)), m_diff(new QTextBrowser(this)), m_apply(nullptr) {
  setObjectName(QStringLiteral("repairDialog"));
  setWindowTitle(tr("Repair %1").arg(candidate));
  QStringList items;
  for (const repair::Repair& r : repair.repairs) {
    QStringList lines;
    for (int l : r.lines) lines << QString::number(l);
    items << tr("<li><b>%1</b> (line %2): %3</li>")
                 .arg(QString::fromUtf8(repair::repairKindName(r.kind)), lines.join(QStringLiteral(", ")),
                      escaped(r.what));
  }
  for (const std::string& n : repair.notRepaired)
    items << tr("<li><i>not repaired</i>: %1</li>").arg(escaped(n));
  m_summary->setObjectName(QStringLiteral("repairSummary"));
  m_summary->setWordWrap(true);
  m_summary->setTextFormat(Qt::RichText);
  m_summary->setText(
      tr("<p>The repair changes how the CUDA is built and bound, never what a kernel computes; correctness "
         "is checked as for any candidate. Applying it makes an <b>edited copy</b> of %1 (the recorded "
         "program stays as it is; Undo in the editor goes back to what you had).</p><ul>%2</ul>")
          .arg(candidate.toHtmlEscaped(), items.join(QString())));
  m_diff->setObjectName(QStringLiteral("repairDiff"));
  m_diff->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  m_diff->setLineWrapMode(QTextEdit::NoWrap);
  m_diff->setHtml(diffHtml(repair.diff));
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
  m_apply = buttons->addButton(tr("&Apply as Edited Copy"), QDialogButtonBox::AcceptRole);
  m_apply->setObjectName(QStringLiteral("applyRepair"));
  m_apply->setDefault(true);
  m_apply->setEnabled(repair.changed());
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_summary);
  layout->addWidget(m_diff, 1);
  layout->addWidget(buttons);
  resize(880, 560);  // fits a 1024×700 screen with the window's frame
}

QString RepairDialog::diffText() const { return m_diff->toPlainText(); }

}  // namespace ks
