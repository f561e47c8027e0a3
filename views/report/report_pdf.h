#pragma once
// A report as PDF with Qt's own writer: QTextDocument lays out the report's rich-text flavour (report_html.h)
// on A4 pages and QPdfWriter writes them; the charts are the same SVG as the HTML page's, rendered by Qt SVG.
// Needs a QGuiApplication (fonts); `kscope report` makes an offscreen one.
#include <QString>

#include "views/report/report_html.h"

namespace ks {

struct ReportContent;

// false with *error set when the file could not be written.
bool writeReportPdf(const ReportContent& content, const ReportHtmlOptions& options, const QString& path,
                    QString* error);

}  // namespace ks
