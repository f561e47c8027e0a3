#pragma once
// Every chart in the window can be saved as a picture: "Save Chart as PNG…" and "Save Chart as
// SVG…" in its context menu. PNG is what the widget shows (grab); SVG is the widget painted into Qt SVG's
// QSvgGenerator, so text and lines stay vectors. The Charts tab's four charts, the roofline and the shape map
// use it.
#include <QString>

class QAction;
class QWidget;

namespace ks {

// Adds the two actions to `chart`'s context menu (Qt::ActionsContextMenu); `name` is the file name offered
// ("histogram"). Returns the PNG action; the SVG one follows it in chart->actions().
QAction* addChartExport(QWidget* chart, const QString& name);

// What the actions do once a file is chosen; false when the file could not be written.
bool saveChartPng(QWidget* chart, const QString& path);
bool saveChartSvg(QWidget* chart, const QString& path, const QString& title);

}  // namespace ks
