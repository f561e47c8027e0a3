#include "views/widgets/docs_browser.h"

#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QListWidget>
#include <QSplitter>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace ks {
namespace {

// A document's title: its first "# " heading, else its file name.
QString titleOf(const QString& path) {
  QFile file(path);
  if (file.open(QIODevice::ReadOnly | QIODevice::Text))
    for (int i = 0; i < 20 && !file.atEnd(); ++i) {
      const QString line = QString::fromUtf8(file.readLine()).trimmed();
      if (line.startsWith(QStringLiteral("# "))) return line.mid(2).trimmed();
    }
  return QFileInfo(path).completeBaseName();
}

}  // namespace

DocsBrowser::DocsBrowser(const QString& folder, QWidget* parent)
    : QDialog(parent), m_folder(folder), m_list(new QListWidget(this)), m_browser(new QTextBrowser(this)) {
  setObjectName(QStringLiteral("docsBrowser"));
  setWindowTitle(tr("KernelScope Documentation"));
  m_list->setObjectName(QStringLiteral("docsList"));
  m_browser->setObjectName(QStringLiteral("docsText"));
  m_browser->setSearchPaths({folder});
  m_browser->setOpenLinks(false);  // links are followed here: other documents inside, the rest outside
  // The architecture first: it is the page a newcomer reads first; the others by file name.
  QStringList files = QDir(folder).entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name);
  if (files.removeOne(QStringLiteral("architecture.md"))) files.prepend(QStringLiteral("architecture.md"));
  m_files = files;
  for (const QString& file : m_files) {
    auto* item = new QListWidgetItem(titleOf(QDir(folder).filePath(file)), m_list);
    item->setData(Qt::UserRole, file);
    item->setToolTip(file);
  }
  connect(m_list, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
    if (item) showDocument(item->data(Qt::UserRole).toString());
  });
  connect(m_browser, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
    const QString file = QFileInfo(url.path()).fileName();
    if (url.isRelative() && file.endsWith(QStringLiteral(".md")) && showDocument(file)) return;
    if (!url.isRelative()) QDesktopServices::openUrl(url);
  });
  auto* splitter = new QSplitter(this);
  splitter->addWidget(m_list);
  splitter->addWidget(m_browser);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({220, 640});
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(splitter, 1);
  layout->addWidget(buttons);
  resize(900, 640);
  if (m_files.isEmpty())
    m_browser->setPlainText(tr("No documents in %1.").arg(QDir::toNativeSeparators(folder)));
  else
    m_list->setCurrentRow(0);
}

bool DocsBrowser::showDocument(const QString& fileName) {
  const int index = static_cast<int>(m_files.indexOf(fileName));
  if (index < 0) return false;
  QFile file(QDir(m_folder).filePath(fileName));
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) return false;
  m_shown = fileName;
  m_browser->setMarkdown(QString::fromUtf8(file.readAll()));
  if (m_list->currentRow() != index) m_list->setCurrentRow(index);
  return true;
}

}  // namespace ks
