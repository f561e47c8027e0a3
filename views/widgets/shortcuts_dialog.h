#pragma once
// Help ▸ Keyboard Shortcuts: every action of the window's menus that has a shortcut, by menu, read from the
// menus themselves when the dialog opens, so the list can never disagree with what the keys do.
#include <QDialog>
#include <QList>
#include <QString>

class QMenuBar;

namespace ks {

class ShortcutsDialog : public QDialog {
  Q_OBJECT

 public:
  struct Entry {
    QString menu;      // "Run" or "View ▸ Panels"
    QString action;    // "Run Selected Candidate"
    QString shortcut;  // "F9", in the platform's own words
  };

  ShortcutsDialog(const QMenuBar* menus, QWidget* parent = nullptr);
  // The menus' actions with a shortcut, in menu order (mnemonic ampersands and trailing ellipses removed).
  static QList<Entry> entries(const QMenuBar* menus);
};

}  // namespace ks
