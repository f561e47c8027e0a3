#include "app/kernelscope/report_export.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QSaveFile>

#include "core/version/version.h"
#include "views/logic/loaded_run.h"
#include "views/logic/open_run.h"
#include "views/report/report_content.h"
#include "views/report/report_html.h"
#include "views/report/report_pdf.h"

namespace ks {

QString exportReport(const OpenRun& open, const QString& path, bool currentOnly, bool* ok) {
  *ok = false;
  if (!open.run()) return QObject::tr("Open a run to export its report");
  QElapsedTimer timer;
  timer.start();
  ReportOptions options;
  options.series = open.series();  // what the window shows
  if (currentOnly) {
    const int row = open.currentRow();
    if (row < 0) return QObject::tr("Select a candidate to export");
    options.tasks = {open.run()->task(row).key()};
    if (const Candidate* c = open.run()->candidate(row)) options.candidate = c->id;
  }
  const ReportContent content = buildReport(*open.run(), open.history().get(), options);
  ReportHtmlOptions html{ReportHtmlOptions::Flavour::Browser, version::line("kernelscope"),
                         QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"))
                             .toStdString()};
  if (path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive)) {
    QString error;
    if (!writeReportPdf(content, html, path, &error)) return error;
  } else {
    QSaveFile file(path);
    const std::string page = reportHtml(content, html);
    if (!file.open(QIODevice::WriteOnly) || file.write(page.data(), static_cast<qint64>(page.size())) < 0 ||
        !file.commit())
      return QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
  }
  *ok = true;
  return QObject::tr("Wrote %1 (%2 sections) in %3 s")
      .arg(QDir::toNativeSeparators(path))
      .arg(content.sections.size())
      .arg(static_cast<double>(timer.elapsed()) / 1000.0, 0, 'f', 1);
}

QString chooseAndExportReport(QWidget* parent, const OpenRun& open, bool currentOnly) {
  if (!open.run()) return QObject::tr("Open a run to export its report");
  const QFileInfo run(open.path());
  const QString suggested = run.dir().filePath(run.completeBaseName() + QStringLiteral(".report.html"));
  const QString path = QFileDialog::getSaveFileName(
      parent, currentOnly ? QObject::tr("Export Current Candidate") : QObject::tr("Export Report"), suggested,
      QObject::tr("HTML page (*.html);;PDF (*.pdf)"));
  if (path.isEmpty()) return {};
  bool ok = false;
  return exportReport(open, path, currentOnly, &ok);
}

}  // namespace ks
