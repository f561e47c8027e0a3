#include "views/widgets/shape_map_legend.h"

#include <QPainter>
#include <cmath>

#include "views/model/shape_map.h"
#include "views/widgets/shape_map_canvas.h"

namespace ks {

ShapeMapLegend::ShapeMapLegend(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("shapeMapLegend"));
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

QSize ShapeMapLegend::sizeHint() const { return {600, 2 * fontMetrics().height() + 12}; }

void ShapeMapLegend::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const QFontMetrics fm(font());
  const int barH = fm.height();
  const QString slower = tr("slower");
  const QString faster = tr("faster");
  // Right part: the two swatches with their words.
  const QString hackText = tr("caught hack or fallback: not a win");
  const QString emptyText = tr("no number");
  const int swatch = barH;
  const int right = width() - 4;
  const int emptyX = right - fm.horizontalAdvance(emptyText) - swatch - 6;
  const int hackX = emptyX - 16 - fm.horizontalAdvance(hackText) - swatch - 6;
  painter.setPen(QPen(QColor(0xd0, 0xd0, 0xd0)));
  painter.drawRect(QRect(emptyX, 2, swatch, swatch).adjusted(0, 0, -1, -1));
  paintShapeCell(painter, QRect(emptyX, 2, swatch, swatch), std::nullopt);
  paintShapeCell(painter, QRect(hackX, 2, swatch, swatch), shape_colours::kUntrusted);
  painter.setPen(palette().color(QPalette::Text));
  painter.drawText(QRect(emptyX + swatch + 6, 2, width(), barH), Qt::AlignLeft | Qt::AlignVCenter, emptyText);
  painter.drawText(QRect(hackX + swatch + 6, 2, width(), barH), Qt::AlignLeft | Qt::AlignVCenter, hackText);

  // Left part: the scale.
  const int left = fm.horizontalAdvance(slower) + 10;
  const int barW = std::max(80, hackX - 24 - left - fm.horizontalAdvance(faster) - 10);
  const double octaves = shape_colours::kScaleOctaves;
  for (int x = 0; x < barW; ++x) {
    const double speedup = std::exp2((2.0 * x / (barW - 1) - 1) * octaves);
    const Rgb c = speedupColour(speedup);
    painter.fillRect(QRect(left + x, 2, 1, barH), QColor(c.r, c.g, c.b));
  }
  painter.setPen(QPen(QColor(0x90, 0x90, 0x90)));
  painter.drawRect(QRect(left, 2, barW, barH).adjusted(0, 0, -1, -1));
  painter.setPen(palette().color(QPalette::Text));
  painter.drawText(QRect(0, 2, left - 6, barH), Qt::AlignRight | Qt::AlignVCenter, slower);
  painter.drawText(QRect(left + barW + 6, 2, width(), barH), Qt::AlignLeft | Qt::AlignVCenter, faster);
  const bool halves = barW >= 5 * (fm.horizontalAdvance(QStringLiteral("≤0.71×")) + 4);
  for (int i = -2; i <= 2; ++i) {  // ticks every half octave (every octave when narrow)
    if (!halves && i % 2 != 0) continue;
    const double at = i / 2.0;  // in units of kScaleOctaves
    const int x = left + static_cast<int>(std::lround((at + 1) / 2 * (barW - 1)));
    painter.drawLine(x, 2 + barH, x, 2 + barH + 3);
    const double speedup = std::exp2(at * octaves);
    QString label = QString::number(speedup, 'g', 2) + QStringLiteral("×");
    if (i == -2) label = QStringLiteral("≤") + label;
    if (i == 2) label = QStringLiteral("≥") + label;
    painter.drawText(QRect(x - 30, 2 + barH + 3, 60, fm.height()), Qt::AlignHCenter | Qt::AlignTop, label);
  }
}

}  // namespace ks
