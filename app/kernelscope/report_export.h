#pragma once
// File ▸ Export Report… and Export Current Candidate…: the open run as `kscope report` writes it,
// HTML or PDF by the chosen file's suffix, from the same content model (views/report/report_content.h) with
// the open run's flags and re-runs.
#include <QString>

class QWidget;

namespace ks {

class OpenRun;

// Writes the report of `open` to `path` (.html or .pdf): the whole run, or only its current row. Returns a
// message for the status bar; *ok says whether the file was written.
QString exportReport(const OpenRun& open, const QString& path, bool currentOnly, bool* ok);

// Asks for a file and writes it; returns the status bar's message (empty when the user cancelled).
QString chooseAndExportReport(QWidget* parent, const OpenRun& open, bool currentOnly);

}  // namespace ks
