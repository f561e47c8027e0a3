#include "views/widgets/shape_map_canvas.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "views/widgets/rgb_qcolor.h"

namespace ks {
namespace {

constexpr int kPanelGap = 12;  // between panels
constexpr int kMaxCell = 44;

int indexOf(const std::vector<std::int64_t>& values, std::int64_t v) {
  const auto it = std::lower_bound(values.begin(), values.end(), v);
  return it != values.end() && *it == v ? static_cast<int>(it - values.begin()) : -1;
}

}  // namespace

QString shortDimension(std::int64_t value) {
  if (value >= 1024 && value % 1024 == 0) return QStringLiteral("%1k").arg(value / 1024);
  return QString::number(value);
}

void paintShapeCell(QPainter& painter, const QRect& rect, const std::optional<Rgb>& colour) {
  if (!colour) {  // no number: no fill, a short grey dash
    painter.setPen(QPen(QColor(0xb0, 0xb0, 0xb0), 1));
    const int y = rect.center().y();
    const int w = std::max(2, rect.width() / 4);
    painter.drawLine(rect.center().x() - w / 2, y, rect.center().x() + w / 2, y);
    return;
  }
  painter.fillRect(rect, qcolor(*colour));
  if (*colour == shape_colours::kUntrusted) {
    QBrush hatch(QColor(0x50, 0x50, 0x50), Qt::BDiagPattern);
    painter.fillRect(rect, hatch);
  }
}

ShapeMapCanvas::ShapeMapCanvas(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("shapeMapCanvas"));
  setMouseTracking(true);
  setFocusPolicy(Qt::StrongFocus);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ShapeMapCanvas::setMap(std::shared_ptr<const ShapeMap> map, std::vector<std::int64_t> ks) {
  m_map = std::move(map);
  m_ks = std::move(ks);
  update();
}

void ShapeMapCanvas::setCurrentRow(int row) {
  m_current = row;
  update();
}

ShapeMapCanvas::Layout ShapeMapCanvas::layout() const {
  Layout l;
  if (!m_map || m_ks.empty() || m_map->ms().empty() || m_map->ns().empty()) return l;
  const QFontMetrics fm(font());
  const int labelW = fm.horizontalAdvance(QStringLiteral("16k")) + 6;  // M labels, left of each panel
  const int labelH = fm.height() + 2;                                  // N labels, below
  const int titleH = fm.height() + 4;                                  // "K = 64", above
  const int n = static_cast<int>(m_ks.size());
  const int across = static_cast<int>(m_map->ns().size()), down = static_cast<int>(m_map->ms().size());
  int bestCols = 1;
  for (int cols = 1; cols <= n; ++cols) {
    const int rows = (n + cols - 1) / cols;
    const int cw = (width() - cols * (labelW + kPanelGap)) / (cols * across);
    const int ch = (height() - rows * (titleH + labelH + kPanelGap)) / (rows * down);
    const int bestRows = (n + bestCols - 1) / bestCols;
    const int bw = (width() - bestCols * (labelW + kPanelGap)) / (bestCols * across);
    const int bh = (height() - bestRows * (titleH + labelH + kPanelGap)) / (bestRows * down);
    if (std::min(cw, ch) > std::min(bw, bh)) bestCols = cols;
  }
  const int rows = (n + bestCols - 1) / bestCols;
  l.cell = std::clamp(std::min((width() - bestCols * (labelW + kPanelGap)) / (bestCols * across),
                               (height() - rows * (titleH + labelH + kPanelGap)) / (rows * down)),
                      3, kMaxCell);
  const int panelW = labelW + across * l.cell + kPanelGap, panelH = titleH + down * l.cell + labelH + kPanelGap;
  for (int i = 0; i < n; ++i) {
    const int col = i % bestCols, row = i / bestCols;
    const QPoint origin(col * panelW + labelW + kPanelGap / 2, row * panelH + titleH + kPanelGap / 2);
    l.panels.push_back(
        {m_ks[static_cast<std::size_t>(i)], QRect(origin, QSize(across * l.cell, down * l.cell))});
  }
  return l;
}

QRect ShapeMapCanvas::cellRect(const Layout& l, const ShapeMap::Cell& c) const {
  for (const Panel& p : l.panels) {
    if (p.k != c.k) continue;
    const int x = indexOf(m_map->ns(), c.n), y = indexOf(m_map->ms(), c.m);
    if (x < 0 || y < 0) return {};
    return QRect(p.grid.left() + x * l.cell, p.grid.top() + y * l.cell, l.cell, l.cell);
  }
  return {};
}

QRect ShapeMapCanvas::cellRect(int row) const {
  const ShapeMap::Cell* c = m_map ? m_map->cellOfRow(row) : nullptr;
  return c ? cellRect(layout(), *c) : QRect();
}

int ShapeMapCanvas::rowAt(const QPoint& at) const {
  if (!m_map) return -1;
  const Layout l = layout();
  for (const Panel& p : l.panels) {
    if (!p.grid.contains(at) || l.cell <= 0) continue;
    const int x = (at.x() - p.grid.left()) / l.cell, y = (at.y() - p.grid.top()) / l.cell;
    if (x >= static_cast<int>(m_map->ns().size()) || y >= static_cast<int>(m_map->ms().size())) return -1;
    const ShapeMap::Cell* c =
        m_map->find(m_map->ms()[static_cast<std::size_t>(y)], m_map->ns()[static_cast<std::size_t>(x)], p.k);
    return c ? c->row : -1;
  }
  return -1;
}

void ShapeMapCanvas::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), palette().base());
  if (!m_map) return;
  const Layout l = layout();
  const QFontMetrics fm(font());
  // Every label when it fits under (beside) its cell, else every second, third, ...
  const int everyN =
      std::max(1, (fm.horizontalAdvance(QStringLiteral("16k")) + 4 + l.cell - 1) / std::max(1, l.cell));
  const int everyM = std::max(1, (fm.height() - 2 + l.cell - 1) / std::max(1, l.cell));
  for (const Panel& p : l.panels) {
    painter.setPen(palette().color(QPalette::Text));
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.drawText(QRect(p.grid.left(), p.grid.top() - fm.height() - 3, p.grid.width(), fm.height()),
                     Qt::AlignLeft | Qt::AlignBottom, tr("K = %1").arg(p.k));
    painter.setFont(font());
    painter.setPen(palette().color(QPalette::PlaceholderText));
    for (std::size_t y = 0; y < m_map->ms().size(); ++y)
      if (y % static_cast<std::size_t>(everyM) == 0)
        painter.drawText(
            QRect(p.grid.left() - 40 - 3, p.grid.top() + static_cast<int>(y) * l.cell, 40, l.cell),
            Qt::AlignRight | Qt::AlignVCenter, shortDimension(m_map->ms()[y]));
    for (std::size_t x = 0; x < m_map->ns().size(); x += static_cast<std::size_t>(everyN))
      painter.drawText(QRect(p.grid.left() + static_cast<int>(x) * l.cell - 10, p.grid.bottom() + 2,
                             l.cell + 20, fm.height()),
                       Qt::AlignHCenter | Qt::AlignTop, shortDimension(m_map->ns()[x]));
    painter.setPen(QPen(QColor(0xd0, 0xd0, 0xd0), 1));
    painter.drawRect(p.grid.adjusted(-1, -1, 0, 0));
  }
  for (const ShapeMap::Cell& c : m_map->cells()) {
    const QRect r = cellRect(l, c);
    if (r.isEmpty()) continue;
    paintShapeCell(painter, r.adjusted(0, 0, -1, -1), m_map->colour(c));
  }
  if (const ShapeMap::Cell* current = m_map->cellOfRow(m_current)) {
    const QRect r = cellRect(l, *current);
    if (!r.isEmpty()) {
      painter.setPen(QPen(Qt::black, 2));
      painter.setBrush(Qt::NoBrush);
      painter.drawRect(r.adjusted(-1, -1, 0, 0));
      painter.setPen(QPen(Qt::white, 1));
      painter.drawRect(r.adjusted(1, 1, -2, -2));
    }
  }
}

void ShapeMapCanvas::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
  const int row = rowAt(event->position().toPoint());
  if (row >= 0) emit rowClicked(row);
}

bool ShapeMapCanvas::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const int row = rowAt(help->pos());
    const ShapeMap::Cell* c = m_map && row >= 0 ? m_map->cellOfRow(row) : nullptr;
    if (c && m_toolTip)
      QToolTip::showText(help->globalPos(), m_toolTip(*c), this, cellRect(layout(), *c));
    else
      QToolTip::hideText();
    return true;
  }
  return QWidget::event(event);
}

}  // namespace ks
