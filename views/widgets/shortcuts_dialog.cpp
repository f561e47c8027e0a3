#include "views/widgets/shortcuts_dialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ks {
namespace {

QString plainTitle(QString text) {
  text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
  text.replace(QStringLiteral("&&"), QStringLiteral("&"));
  if (text.endsWith(QStringLiteral("…"))) text.chop(1);
  if (text.endsWith(QStringLiteral("..."))) text.chop(3);
  return text;
}

void collect(const QMenu* menu, const QString& path, QList<ShortcutsDialog::Entry>& out) {
  for (const QAction* action : menu->actions()) {
    if (action->isSeparator()) continue;
    if (const QMenu* sub = action->menu()) {
      collect(sub, path + QStringLiteral(" ▸ ") + plainTitle(sub->title()), out);
      continue;
    }
    if (action->shortcut().isEmpty()) continue;
    out.push_back({path, plainTitle(action->text()), action->shortcut().toString(QKeySequence::NativeText)});
  }
}

}  // namespace

QList<ShortcutsDialog::Entry> ShortcutsDialog::entries(const QMenuBar* menus) {
  QList<Entry> out;
  if (!menus) return out;
  for (const QAction* top : menus->actions())
    if (const QMenu* menu = top->menu()) collect(menu, plainTitle(menu->title()), out);
  return out;
}

ShortcutsDialog::ShortcutsDialog(const QMenuBar* menus, QWidget* parent) : QDialog(parent) {
  setObjectName(QStringLiteral("shortcutsDialog"));
  setWindowTitle(tr("Keyboard Shortcuts"));
  const QList<Entry> list = entries(menus);
  auto* table = new QTableWidget(static_cast<int>(list.size()), 3, this);
  table->setObjectName(QStringLiteral("shortcutsTable"));
  table->setHorizontalHeaderLabels({tr("Keys"), tr("Action"), tr("Menu")});
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->setSelectionBehavior(QAbstractItemView::SelectRows);
  table->verticalHeader()->hide();
  for (int row = 0; row < list.size(); ++row) {
    table->setItem(row, 0, new QTableWidgetItem(list[row].shortcut));
    table->setItem(row, 1, new QTableWidgetItem(list[row].action));
    table->setItem(row, 2, new QTableWidgetItem(list[row].menu));
  }
  table->resizeColumnsToContents();
  table->horizontalHeader()->setStretchLastSection(true);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(table, 1);
  layout->addWidget(buttons);
  resize(560, 520);
}

}  // namespace ks
