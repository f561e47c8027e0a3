#include "views/widgets/search_tree_canvas.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "views/widgets/rgb_qcolor.h"

namespace ks {
namespace {

constexpr int kDetailedLimit = 20000;  // nodes in view above which edges are not drawn
const QColor kEdge(0x8c, 0x95, 0x9f);
const QColor kExtraEdge(0xbf, 0x87, 0x00);
const QColor kOutline(0x57, 0x60, 0x6a);
const QColor kCurrent(0x09, 0x69, 0xda);
const QColor kGrid(0xea, 0xee, 0xf2);

}  // namespace

SearchTreeCanvas::SearchTreeCanvas(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("searchTreeCanvas"));
  setMouseTracking(true);
  setFocusPolicy(Qt::StrongFocus);
  setAttribute(Qt::WA_OpaquePaintEvent);
  setToolTip(
      tr("Each mark is a candidate, each row a round. Wheel zooms (Ctrl: across, Shift: down), drag "
         "pans, a click selects the candidate"));
}

void SearchTreeCanvas::setTree(std::shared_ptr<const SearchTree> tree, std::vector<Rgb> colours,
                               bool keepView) {
  const bool sameSize = m_tree && tree && m_tree->nodes().size() == tree->nodes().size();
  m_tree = std::move(tree);
  m_colours = std::move(colours);
  m_current = -1;
  if (!(keepView && sameSize)) fit();
  update();
}

void SearchTreeCanvas::setColours(std::vector<Rgb> colours) {
  m_colours = std::move(colours);
  update();
}

void SearchTreeCanvas::fit() {
  m_fitted = true;
  m_autoFit = true;
  m_panX = m_panY = 0;
  m_scaleX = m_scaleY = 1;
  if (!m_tree || m_tree->nodes().empty()) return update();
  const double worldW = std::max(1.0, m_tree->width()) * kSlot;
  const double worldH = std::max(1, m_tree->layerCount()) * kLayer;
  const double availW = std::max(20.0, width() - kMargin * 1.5);
  const double availH = std::max(20.0, height() - kMargin);
  // A small search is drawn larger, so that nodes are wide enough for their ids.
  m_scaleX = std::min(2.5, availW / worldW);
  m_scaleY = std::min(1.5, availH / worldH);
  if (worldW * m_scaleX < availW) m_panX = -(availW - worldW * m_scaleX) / 2 / m_scaleX;  // centred
  update();
}

void SearchTreeCanvas::clampPan() {
  if (!m_tree) return;
  const double worldW = std::max(1.0, m_tree->width()) * kSlot;
  const double worldH = std::max(1, m_tree->layerCount()) * kLayer;
  const double viewW = (width() - kMargin) / m_scaleX, viewH = (height() - kMargin / 2) / m_scaleY;
  m_panX = std::clamp(m_panX, std::min(0.0, worldW - viewW) - viewW / 2, std::max(0.0, worldW - viewW / 2));
  m_panY = std::clamp(m_panY, std::min(0.0, worldH - viewH) - viewH / 2, std::max(0.0, worldH - viewH / 2));
}

void SearchTreeCanvas::setCurrentNode(int node) {
  m_current = m_tree && node >= 0 && node < static_cast<int>(m_tree->nodes().size()) ? node : -1;
  if (m_current >= 0) {
    const QPointF at = nodeCentre(m_current);
    if (!rect().adjusted(static_cast<int>(kMargin), 0, 0, 0).contains(at.toPoint())) {
      const SearchNode& n = m_tree->nodes()[static_cast<std::size_t>(m_current)];
      m_panX = (n.x + 0.5) * kSlot - (width() - kMargin) / 2 / m_scaleX;
      m_panY = (n.layer + 0.5) * kLayer - (height() - kMargin / 2) / 2 / m_scaleY;
      m_autoFit = false;
      clampPan();
    }
  }
  update();
}

QPointF SearchTreeCanvas::nodeCentre(int node) const {
  if (!m_tree || node < 0 || node >= static_cast<int>(m_tree->nodes().size())) return {};
  const SearchNode& n = m_tree->nodes()[static_cast<std::size_t>(node)];
  return {toX(n.x), toY(n.layer)};
}

int SearchTreeCanvas::nodeAt(const QPointF& point) const {
  if (!m_tree || m_tree->nodes().empty()) return -1;
  const double worldY = (point.y() - kMargin / 2) / m_scaleY + m_panY;
  const int layer = static_cast<int>(std::floor(worldY / kLayer));
  if (layer < 0 || layer >= m_tree->layerCount()) return -1;
  const double halfHeight = std::max(4.0, std::min(0.2 * kLayer * m_scaleY, 11.0) + 2);
  if (std::abs(point.y() - toY(layer)) > halfHeight) return -1;
  const double slot = ((point.x() - kMargin) / m_scaleX + m_panX) / kSlot - 0.5;
  const double reach = std::max(0.45, 4.0 / (kSlot * m_scaleX));  // at least 4 pixels
  return m_tree->nodeAt(layer, slot, reach);
}

QString SearchTreeCanvas::toolTipAt(const QPointF& point) const {
  const int node = nodeAt(point);
  return node >= 0 && m_toolTip ? m_toolTip(node) : QString();
}

void SearchTreeCanvas::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), palette().color(QPalette::Base));
  m_lastPainted = 0;
  m_lastDetailed = false;
  if (!m_tree || m_tree->nodes().empty()) return;
  if (!m_fitted) fit();

  const double worldTop = m_panY, worldBottom = m_panY + height() / m_scaleY;
  const int firstLayer = std::max(0, static_cast<int>(std::floor(worldTop / kLayer)) - 1);
  const int lastLayer = std::min(m_tree->layerCount() - 1, static_cast<int>(std::ceil(worldBottom / kLayer)));
  const double firstSlot = m_panX / kSlot - 1.5;
  const double lastSlot = (m_panX + (width() - kMargin) / m_scaleX) / kSlot + 0.5;

  // Round labels in the left gutter, and a faint line per layer, spaced to stay readable.
  const double layerPx = kLayer * m_scaleY;
  const int every = std::max(1, static_cast<int>(std::ceil(16 / layerPx)));
  painter.setFont(font());
  for (int layer = std::max(0, firstLayer); layer <= lastLayer; ++layer) {
    if (layer % every) continue;
    const double y = toY(layer);
    if (layerPx >= 6) {
      painter.setPen(kGrid);
      painter.drawLine(QPointF(kMargin - 4, y), QPointF(width(), y));
    }
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(QRectF(0, y - 8, kMargin - 6, 16), Qt::AlignRight | Qt::AlignVCenter,
                     QString::number(m_tree->roundOfLayer(layer)));
  }
  painter.setClipRect(QRectF(kMargin - 4, 0, width(), height()));

  int visible = 0;
  for (int layer = firstLayer; layer <= lastLayer; ++layer) {
    const auto begin = m_tree->layerBegin(layer), end = m_tree->layerEnd(layer);
    const auto lo = std::lower_bound(begin, end, firstSlot, [this](int node, double v) {
      return m_tree->nodes()[static_cast<std::size_t>(node)].x < v;
    });
    const auto hi = std::upper_bound(lo, end, lastSlot, [this](double v, int node) {
      return v < m_tree->nodes()[static_cast<std::size_t>(node)].x;
    });
    visible += static_cast<int>(hi - lo);
  }
  m_lastPainted = visible;
  if (visible <= kDetailedLimit)
    paintDetailed(painter, firstLayer, lastLayer, firstSlot, lastSlot);
  else
    paintDense(painter, firstLayer, lastLayer, firstSlot, lastSlot);

  if (m_current >= 0) {
    const QPointF at = nodeCentre(m_current);
    const double w = std::clamp(0.75 * kSlot * m_scaleX, 2.0, 40.0),
                 h = std::clamp(0.4 * kLayer * m_scaleY, 2.0, 22.0);
    painter.setPen(QPen(kCurrent, 2.5));
    painter.setBrush(Qt::NoBrush);
    painter.drawRoundedRect(QRectF(at.x() - w / 2 - 4, at.y() - h / 2 - 4, w + 8, h + 8), 4, 4);
  }
  if (visible > kDetailedLimit) {
    painter.setClipping(false);
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(
        rect().adjusted(0, 0, -6, -4), Qt::AlignRight | Qt::AlignBottom,
        tr("%1 candidates in view: edges drawn from %2 (zoom in)").arg(visible).arg(kDetailedLimit));
  }
}

void SearchTreeCanvas::paintDetailed(QPainter& painter, int firstLayer, int lastLayer, double firstSlot,
                                     double lastSlot) {
  const auto& nodes = m_tree->nodes();
  const double w = std::clamp(0.75 * kSlot * m_scaleX, 1.0, 40.0);
  const double h = std::clamp(0.4 * kLayer * m_scaleY, 2.0, 22.0);
  const bool detailed = w >= 5;
  m_lastDetailed = detailed;
  // Edges: from each node in view (and one layer below it) up to its parent.
  std::vector<QLineF> lines;
  for (int layer = firstLayer; layer <= std::min(lastLayer + 1, m_tree->layerCount() - 1); ++layer)
    for (auto it = m_tree->layerBegin(layer); it != m_tree->layerEnd(layer); ++it) {
      const SearchNode& n = nodes[static_cast<std::size_t>(*it)];
      if (n.x < firstSlot - 1 || n.parent < 0) continue;
      if (n.x > lastSlot + 1) break;
      const SearchNode& p = nodes[static_cast<std::size_t>(n.parent)];
      lines.emplace_back(toX(p.x), toY(p.layer) + h / 2, toX(n.x), toY(n.layer) - h / 2);
    }
  painter.setRenderHint(QPainter::Antialiasing, detailed && lines.size() < 4000);
  painter.setPen(QPen(kEdge, detailed ? 1.2 : 0.8));
  painter.drawLines(lines.data(), static_cast<int>(lines.size()));
  if (m_tree->extraEdges().size() < static_cast<std::size_t>(kDetailedLimit)) {
    lines.clear();
    for (const auto& [from, to] : m_tree->extraEdges()) {
      const SearchNode &p = nodes[static_cast<std::size_t>(from)], &n = nodes[static_cast<std::size_t>(to)];
      if (std::max(p.x, n.x) < firstSlot || std::min(p.x, n.x) > lastSlot) continue;
      lines.emplace_back(toX(p.x), toY(p.layer) + h / 2, toX(n.x), toY(n.layer) - h / 2);
    }
    painter.setPen(QPen(kExtraEdge, 1.2, Qt::DashLine));
    painter.drawLines(lines.data(), static_cast<int>(lines.size()));
  }
  // Nodes.
  painter.setRenderHint(QPainter::Antialiasing, detailed);
  const QBrush hatch(QColor(0x50, 0x50, 0x50), Qt::BDiagPattern);
  for (int layer = firstLayer; layer <= lastLayer; ++layer) {
    for (auto it = m_tree->layerBegin(layer); it != m_tree->layerEnd(layer); ++it) {
      const SearchNode& n = nodes[static_cast<std::size_t>(*it)];
      if (n.x < firstSlot) continue;
      if (n.x > lastSlot) break;
      const Rgb& colour = m_colours[static_cast<std::size_t>(*it)];
      const QRectF r(toX(n.x) - w / 2, toY(n.layer) - h / 2, w, h);
      if (!detailed) {
        painter.fillRect(r, colour == search_colours::kNoNumber ? kOutline : qcolor(colour));
        continue;
      }
      painter.setPen(QPen(kOutline, 1));
      painter.setBrush(qcolor(colour));
      painter.drawRoundedRect(r, 3, 3);
      if (colour == shape_colours::kUntrusted) {
        painter.setBrush(hatch);
        painter.drawRoundedRect(r, 3, 3);
      }
      if (m_label && w >= 30 && h >= 12) {
        const bool dark = colour == search_colours::kFailed || (colour.r + colour.g + colour.b) < 3 * 110;
        painter.setPen(dark ? Qt::white : palette().color(QPalette::Text));
        painter.drawText(r.adjusted(2, 0, -2, 0), Qt::AlignCenter,
                         fontMetrics().elidedText(m_label(*it), Qt::ElideRight, static_cast<int>(w) - 4));
      }
    }
  }
}

void SearchTreeCanvas::paintDense(QPainter& painter, int firstLayer, int lastLayer, double firstSlot,
                                  double lastSlot) {
  // Every node in view as a column of pixels written straight into an image: O(nodes in view).
  if (m_dense.size() != size()) m_dense = QImage(size(), QImage::Format_RGB32);
  m_dense.fill(palette().color(QPalette::Base));
  const auto& nodes = m_tree->nodes();
  const int w = std::max(1, static_cast<int>(0.75 * kSlot * m_scaleX));
  const int h = std::max(2, static_cast<int>(std::min(0.4 * kLayer * m_scaleY, 22.0)));
  const int left = static_cast<int>(kMargin) - 4, right = m_dense.width(), bottom = m_dense.height();
  const QRgb noNumber = kOutline.rgb();
  for (int layer = firstLayer; layer <= lastLayer; ++layer) {
    const int y0 = static_cast<int>(toY(layer)) - h / 2;
    if (y0 + h <= 0 || y0 >= bottom) continue;
    for (auto it = m_tree->layerBegin(layer); it != m_tree->layerEnd(layer); ++it) {
      const SearchNode& n = nodes[static_cast<std::size_t>(*it)];
      if (n.x < firstSlot) continue;
      if (n.x > lastSlot) break;
      const Rgb& c = m_colours[static_cast<std::size_t>(*it)];
      const QRgb value = c == search_colours::kNoNumber ? noNumber : qRgb(c.r, c.g, c.b);
      const int x0 = static_cast<int>(toX(n.x)) - w / 2;
      for (int y = std::max(0, y0); y < std::min(bottom, y0 + h); ++y) {
        auto* line = reinterpret_cast<QRgb*>(m_dense.scanLine(y));
        for (int x = std::max(left, x0); x < std::min(right, x0 + w); ++x) line[x] = value;
      }
    }
  }
  painter.drawImage(0, 0, m_dense);
}

void SearchTreeCanvas::resizeEvent(QResizeEvent*) {
  if (!m_tree) return;
  if (m_autoFit)
    fit();
  else
    clampPan();
}

void SearchTreeCanvas::wheelEvent(QWheelEvent* event) {
  if (!m_tree) return;
  const double factor = std::pow(1.0015, event->angleDelta().y() + event->angleDelta().x());
  const QPointF at = event->position();
  const double worldX = (at.x() - kMargin) / m_scaleX + m_panX;
  const double worldY = (at.y() - kMargin / 2) / m_scaleY + m_panY;
  if (!(event->modifiers() & Qt::ShiftModifier)) m_scaleX = std::clamp(m_scaleX * factor, 1e-6, 4.0);
  if (!(event->modifiers() & Qt::ControlModifier)) m_scaleY = std::clamp(m_scaleY * factor, 1e-4, 4.0);
  m_panX = worldX - (at.x() - kMargin) / m_scaleX;
  m_panY = worldY - (at.y() - kMargin / 2) / m_scaleY;
  m_autoFit = false;
  clampPan();
  update();
  event->accept();
}

void SearchTreeCanvas::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
  m_pressed = true;
  m_dragged = false;
  m_pressAt = event->position();
  m_panAtPress = {m_panX, m_panY};
}

void SearchTreeCanvas::mouseMoveEvent(QMouseEvent* event) {
  if (!m_pressed) return;
  const QPointF delta = event->position() - m_pressAt;
  if (!m_dragged && delta.manhattanLength() < 4) return;
  m_dragged = true;
  setCursor(Qt::ClosedHandCursor);
  m_panX = m_panAtPress.x() - delta.x() / m_scaleX;
  m_panY = m_panAtPress.y() - delta.y() / m_scaleY;
  m_autoFit = false;
  clampPan();
  update();
}

void SearchTreeCanvas::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || !m_pressed) return QWidget::mouseReleaseEvent(event);
  m_pressed = false;
  unsetCursor();
  if (m_dragged) return;
  const int node = nodeAt(event->position());
  if (node >= 0) emit nodeClicked(node);
}

bool SearchTreeCanvas::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const QString text = toolTipAt(help->pos());
    if (text.isEmpty())
      QToolTip::showText(help->globalPos(), toolTip(), this);
    else
      QToolTip::showText(help->globalPos(), text, this);
    return true;
  }
  return QWidget::event(event);
}

}  // namespace ks
