#include "views/report/report_pdf.h"

#include <QFile>
#include <QFont>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgRenderer>
#include <QTextDocument>
#include <QUrl>

#include "views/report/report_charts_svg.h"
#include "views/report/report_content.h"

namespace ks {
namespace {

// The chart at twice its SVG size, so that it stays sharp on a printed page.
QImage renderSvg(const std::string& svg) {
  QSvgRenderer renderer(QByteArray::fromStdString(svg));
  const QSize size = renderer.defaultSize() * 2;
  QImage image(size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  renderer.render(&painter);
  return image;
}

}  // namespace

bool writeReportPdf(const ReportContent& content, const ReportHtmlOptions& options, const QString& path,
                    QString* error) {
  ReportHtmlOptions rich = options;
  rich.flavour = ReportHtmlOptions::Flavour::QtRichText;
  QTextDocument document;
  document.setDefaultFont(QFont(QStringLiteral("DejaVu Sans"), 9));
  if (content.wholeFile) {
    if (const std::string svg = histogramSvg(content.distribution, content.baseline); !svg.empty())
      document.addResource(QTextDocument::ImageResource, QUrl(QString::fromLatin1(kHistogramResource)),
                           renderSvg(svg));
    if (const std::string svg = levelChartSvg(content.distribution, content.baseline); !svg.empty())
      document.addResource(QTextDocument::ImageResource, QUrl(QString::fromLatin1(kLevelResource)),
                           renderSvg(svg));
  }
  document.setHtml(QString::fromStdString(reportHtml(content, rich)));

  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) {
    if (error) *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  QPdfWriter writer(&file);
  writer.setPageSize(QPageSize(QPageSize::A4));
  writer.setPageMargins(QMarginsF(12, 12, 12, 12), QPageLayout::Millimeter);
  writer.setTitle(QString::fromStdString(content.title));
  writer.setCreator(QString::fromStdString(options.generatedBy));
  document.print(&writer);
  return true;
}

}  // namespace ks
