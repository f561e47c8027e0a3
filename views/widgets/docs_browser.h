#pragma once
// Help ▸ Documentation (F1): the project's documents (docs/*.md and the README), listed by their titles and
// read as rendered markdown inside the window, with their pictures and their links to one another; no
// browser or network needed. The window says where the documents are (app/kernelscope/docs_location.h).
#include <QDialog>
#include <QString>
#include <QStringList>

class QListWidget;
class QTextBrowser;

namespace ks {

class DocsBrowser : public QDialog {
  Q_OBJECT

 public:
  // `folder` holds the .md files (docs/ in a source tree, /usr/share/doc/kernelscope when installed).
  explicit DocsBrowser(const QString& folder, QWidget* parent = nullptr);
  QStringList documents() const { return m_files; }  // file names, in the order listed
  QString shownDocument() const { return m_shown; }
  bool showDocument(const QString& fileName);  // false when the folder has no such document
  QTextBrowser* browser() const { return m_browser; }

 private:
  QString m_folder;
  QStringList m_files;
  QString m_shown;
  QListWidget* m_list;
  QTextBrowser* m_browser;
};

}  // namespace ks
