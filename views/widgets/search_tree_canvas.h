#pragma once
// Draws a SearchTree (views/logic/search_tree.h): one mark per candidate in its layer, edges to its parents,
// the current candidate ringed. Custom painting with level of detail, so that 100 000 candidates stay
// interactive: only the layers and the slot range in view are visited (binary search per layer); when a
// node is smaller than a few pixels, nodes are written straight into an image as pixel columns and edges
// are drawn only when few nodes are in view. Wheel zooms around the cursor (Ctrl: across only, Shift:
// down only), dragging pans, Fit shows everything. A click reports the node (nodeClicked); hovering shows
// the text the view gives for it (setToolTipSource).
#include <QImage>
#include <QPointF>
#include <QWidget>
#include <functional>
#include <memory>
#include <vector>

#include "views/logic/search_tree.h"

class QPainter;

namespace ks {

class SearchTreeCanvas : public QWidget {
  Q_OBJECT

 public:
  explicit SearchTreeCanvas(QWidget* parent = nullptr);

  // `colours`: one per node. Keeps the view (zoom) when keepView and the tree has the same size.
  void setTree(std::shared_ptr<const SearchTree> tree, std::vector<Rgb> colours, bool keepView = false);
  void setColours(std::vector<Rgb> colours);
  void setToolTipSource(std::function<QString(int node)> source) { m_toolTip = std::move(source); }
  void setLabelSource(std::function<QString(int node)> source) { m_label = std::move(source); }  // ids
  void setCurrentNode(int node);  // -1: none; brought into view when outside it
  int currentNode() const { return m_current; }
  const SearchTree* tree() const { return m_tree.get(); }

  // Widget coordinates of a node's centre, and the node under a point (-1: none).
  QPointF nodeCentre(int node) const;
  int nodeAt(const QPointF& point) const;
  QString toolTipAt(const QPointF& point) const;
  // How the last paint drew: nodes visited, and whether at full detail.
  int lastPaintedNodes() const { return m_lastPainted; }
  bool lastPaintDetailed() const { return m_lastDetailed; }

  QSize sizeHint() const override { return {640, 420}; }
  QSize minimumSizeHint() const override { return {200, 140}; }

 public slots:
  void fit();

 signals:
  void nodeClicked(int node);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  bool event(QEvent* event) override;

 private:
  static constexpr double kSlot = 24;    // world units per slot
  static constexpr double kLayer = 64;   // world units per layer
  static constexpr double kMargin = 28;  // pixels: left gutter for the round labels, and around

  double toX(double slot) const { return kMargin + ((slot + 0.5) * kSlot - m_panX) * m_scaleX; }
  double toY(int layer) const { return kMargin / 2 + ((layer + 0.5) * kLayer - m_panY) * m_scaleY; }
  void clampPan();
  void paintDetailed(QPainter& painter, int firstLayer, int lastLayer, double firstSlot, double lastSlot);
  void paintDense(QPainter& painter, int firstLayer, int lastLayer, double firstSlot, double lastSlot);

  std::shared_ptr<const SearchTree> m_tree;
  std::vector<Rgb> m_colours;
  std::function<QString(int)> m_toolTip;
  std::function<QString(int)> m_label;
  int m_current = -1;
  double m_scaleX = 1, m_scaleY = 1;  // pixels per world unit
  double m_panX = 0, m_panY = 0;      // world coordinates at the top left of the drawing area
  bool m_fitted = false;
  bool m_autoFit = true;  // fitted and not moved by the user since: a resize fits again
  QPointF m_pressAt;
  QPointF m_panAtPress;
  bool m_dragged = false;
  bool m_pressed = false;
  QImage m_dense;  // reused by paintDense
  int m_lastPainted = 0;
  bool m_lastDetailed = false;
};

}  // namespace ks
