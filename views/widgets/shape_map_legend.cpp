#include "views/widgets/shape_map_legend.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "views/logic/shape_map.h"
#include "views/widgets/shape_map_canvas.h"
#include "views/widgets/rgb_qcolor.h"

namespace ks {
namespace {

constexpr int kTop = 2;
constexpr int kSide = 4;        // margin at either end
constexpr int kSwatchGap = 16;        // between swatches, and between the scale and the swatches
constexpr int kLeastBar = 100;  // the scale's bar is never narrower

QString slowerText() { return ShapeMapLegend::tr("slower"); }
QString fasterText() { return ShapeMapLegend::tr("faster"); }

}  // namespace

ShapeMapLegend::ShapeMapLegend(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("shapeMapLegend"));
  QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
  policy.setHeightForWidth(true);
  setSizePolicy(policy);
  m_swatches.push_back({std::nullopt, true, tr("caught hack or fallback: not a win"), {}});
  m_swatches.push_back({std::nullopt, false, tr("no number"), {}});
}

void ShapeMapLegend::addSwatch(const QColor& colour, const QString& text, const QString& toolTip) {
  m_swatches.push_back({colour, false, text, toolTip});
  updateGeometry();
  update();
}

int ShapeMapLegend::oneLineWidth() const {
  const QFontMetrics fm(font());
  int swatches = 0;
  for (const Swatch& s : m_swatches) swatches += fm.height() + 6 + fm.horizontalAdvance(s.text) + kSwatchGap;
  return kSide + fm.horizontalAdvance(slowerText()) + 10 + kLeastBar + 10 +
         fm.horizontalAdvance(fasterText()) + 24 - kSwatchGap + swatches + kSide;
}

ShapeMapLegend::Layout ShapeMapLegend::layoutFor(int width) const {
  const QFontMetrics fm(font());
  const int h = fm.height();
  Layout l;
  const int left = kSide + fm.horizontalAdvance(slowerText()) + 10;
  const int fasterWidth = fm.horizontalAdvance(fasterText());
  const int scaleRight = left + kLeastBar + 10 + fasterWidth;  // the scale at its least width
  const int tickTop = kTop + h + 3;
  const int scaleHeight = tickTop + 3 + h + 2;  // the bar, its ticks and their labels
  // The swatches flow in lines right of the scale, as many as two lines fit beside its bar and tick labels;
  // when even one does not fit there, they go in lines under it, from the left edge.
  std::vector<int> itemWidths;
  for (const Swatch& s : m_swatches) itemWidths.push_back(h + 6 + fm.horizontalAdvance(s.text));
  const auto flow = [&](int x0, int right, int y0, std::vector<std::pair<QRect, QRect>>* placed) {
    int x = x0, y = y0, widest = x0;
    for (std::size_t i = 0; i < itemWidths.size(); ++i) {
      if (x > x0 && x + itemWidths[i] > right) x = x0, y += h + 6;
      if (placed) placed->emplace_back(QRect(x, y, h, h), QRect(x + h + 6, y, itemWidths[i] - h - 6, h));
      x += itemWidths[i];
      widest = std::max(widest, x);
      x += kSwatchGap;
    }
    return std::pair{widest, y + h};  // the right end of the widest line, the bottom of the last
  };
  const int besideX = scaleRight + 24;
  const auto [besideRight, besideBottom] = flow(besideX, width - kSide, kTop, nullptr);
  const bool beside = besideRight <= width - kSide && besideBottom <= scaleHeight;
  int barWidth = kLeastBar;
  if (beside) {
    // The bar takes the room the swatches leave; they stay right-aligned.
    barWidth += width - kSide - besideRight;
    const int shift = barWidth - kLeastBar;
    flow(besideX + shift, width - kSide, kTop, &l.swatches);
    l.height = scaleHeight;
  } else {
    barWidth = std::max(kLeastBar, width - kSide - 10 - fasterWidth - left);
    const auto [right, bottom] = flow(kSide, width - kSide, scaleHeight + 4, &l.swatches);
    l.height = bottom + 4;
  }
  l.bar = QRect(left, kTop, barWidth, h);
  l.slower = QRect(kSide, kTop, left - 10 - kSide, h);
  l.faster = QRect(left + barWidth + 10, kTop, fasterWidth, h);
  const bool halves = barWidth >= 5 * (fm.horizontalAdvance(QStringLiteral("≤0.71×")) + 8);
  for (int i = -2; i <= 2; ++i) {  // ticks every half octave (every octave when narrow)
    if (!halves && i % 2 != 0) continue;
    const double at = i / 2.0;  // in units of kScaleOctaves
    const int x = left + static_cast<int>(std::lround((at + 1) / 2 * (barWidth - 1)));
    QString label =
        QString::number(std::exp2(at * shape_colours::kScaleOctaves), 'g', 2) + QStringLiteral("×");
    if (i == -2) label = QStringLiteral("≤") + label;
    if (i == 2) label = QStringLiteral("≥") + label;
    const int labelWidth = fm.horizontalAdvance(label);
    l.ticks.push_back({x, QRect(x - labelWidth / 2, tickTop + 3, labelWidth, h), label});
  }
  return l;
}

std::vector<ShapeMapLegend::Part> ShapeMapLegend::parts(int width) const {
  const Layout l = layoutFor(width);
  std::vector<Part> out{{{}, l.bar}, {slowerText(), l.slower}, {fasterText(), l.faster}};
  for (const Tick& t : l.ticks) out.push_back({t.label, t.rect});
  for (std::size_t i = 0; i < l.swatches.size(); ++i) {
    out.push_back({{}, l.swatches[i].first});
    out.push_back({m_swatches[i].text, l.swatches[i].second});
  }
  return out;
}

QSize ShapeMapLegend::sizeHint() const {
  const int width = oneLineWidth() + 200;
  return {width, heightForWidth(width)};
}

QSize ShapeMapLegend::minimumSizeHint() const {
  const QFontMetrics fm(font());
  int width = kSide + fm.horizontalAdvance(slowerText()) + 10 + kLeastBar + 10 +
              fm.horizontalAdvance(fasterText()) + kSide;
  for (const Swatch& s : m_swatches)
    width = std::max(width, 2 * kSide + fm.height() + 6 + fm.horizontalAdvance(s.text));
  return {width, heightForWidth(width)};
}

int ShapeMapLegend::heightForWidth(int width) const { return layoutFor(width).height; }

bool ShapeMapLegend::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    const auto* help = static_cast<QHelpEvent*>(event);
    const Layout l = layoutFor(width());
    for (std::size_t i = 0; i < l.swatches.size(); ++i)
      if (l.swatches[i].first.united(l.swatches[i].second).contains(help->pos()) &&
          !m_swatches[i].toolTip.isEmpty()) {
        QToolTip::showText(help->globalPos(), m_swatches[i].toolTip, this);
        return true;
      }
    QToolTip::hideText();
    event->ignore();
    return true;
  }
  return QWidget::event(event);
}

void ShapeMapLegend::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const Layout l = layoutFor(width());
  for (std::size_t i = 0; i < l.swatches.size(); ++i) {
    const Swatch& s = m_swatches[i];
    const QRect box = l.swatches[i].first;
    if (s.colour) {
      painter.fillRect(box, *s.colour);
    } else if (s.untrusted) {
      paintShapeCell(painter, box, shape_colours::kUntrusted);
    } else {
      painter.setPen(QPen(QColor(0xd0, 0xd0, 0xd0)));
      painter.drawRect(box.adjusted(0, 0, -1, -1));
      paintShapeCell(painter, box, std::nullopt);
    }
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(l.swatches[i].second, Qt::AlignLeft | Qt::AlignVCenter, s.text);
  }

  const double octaves = shape_colours::kScaleOctaves;
  for (int x = 0; x < l.bar.width(); ++x) {
    const double speedup = std::exp2((2.0 * x / (l.bar.width() - 1) - 1) * octaves);
    const Rgb c = speedupColour(speedup);
    painter.fillRect(QRect(l.bar.left() + x, l.bar.top(), 1, l.bar.height()), qcolor(c));
  }
  painter.setPen(QPen(QColor(0x90, 0x90, 0x90)));
  painter.drawRect(l.bar.adjusted(0, 0, -1, -1));
  painter.setPen(palette().color(QPalette::Text));
  painter.drawText(l.slower, Qt::AlignRight | Qt::AlignVCenter, slowerText());
  painter.drawText(l.faster, Qt::AlignLeft | Qt::AlignVCenter, fasterText());
  for (const Tick& t : l.ticks) {
    painter.drawLine(t.x, l.bar.bottom() + 1, t.x, l.bar.bottom() + 4);
    painter.drawText(t.rect, Qt::AlignHCenter | Qt::AlignTop, t.label);
  }
}

}  // namespace ks
