#include "views/charts/chart_export.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QPainter>
#include <QPixmap>
#include <QSvgGenerator>
#include <QWidget>

namespace ks {

bool saveChartPng(QWidget* chart, const QString& path) { return chart->grab().save(path, "PNG"); }

bool saveChartSvg(QWidget* chart, const QString& path, const QString& title) {
  QSvgGenerator generator;
  generator.setFileName(path);
  generator.setSize(chart->size());
  generator.setViewBox(QRect(QPoint(0, 0), chart->size()));
  generator.setTitle(title);
  generator.setDescription(QStringLiteral("Written by KernelScope"));
  QPainter painter;
  if (!painter.begin(&generator)) return false;
  chart->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
  return painter.end();
}

QAction* addChartExport(QWidget* chart, const QString& name) {
  chart->setContextMenuPolicy(Qt::ActionsContextMenu);
  auto* png = new QAction(QObject::tr("Save Chart as PNG…"), chart);
  auto* svg = new QAction(QObject::tr("Save Chart as SVG…"), chart);
  png->setObjectName(QStringLiteral("savePng"));
  svg->setObjectName(QStringLiteral("saveSvg"));
  auto save = [chart, name](const QString& suffix, const QString& filter) {
    const QString path = QFileDialog::getSaveFileName(chart, QObject::tr("Save Chart"),
                                                      QDir::home().filePath(name + suffix), filter);
    if (path.isEmpty()) return;
    const bool ok = suffix == QLatin1String(".png") ? saveChartPng(chart, path) : saveChartSvg(chart, path, name);
    if (!ok) chart->setToolTip(QObject::tr("Could not write %1").arg(path));
  };
  QObject::connect(png, &QAction::triggered, chart,
                   [save] { save(QStringLiteral(".png"), QObject::tr("PNG image (*.png)")); });
  QObject::connect(svg, &QAction::triggered, chart,
                   [save] { save(QStringLiteral(".svg"), QObject::tr("SVG image (*.svg)")); });
  chart->addAction(png);
  chart->addAction(svg);
  return png;
}

}  // namespace ks
