#pragma once
// The shape map's drawing: one M × N heat map per K (the Ks the view chooses: all of them as small
// multiples, or one), M down and N across in ascending order, each cell coloured by ShapeMap::colour —
// hatched grey for a number that is not trusted, left empty (a dash, no fill) for no number. The current
// row's cell is outlined. A click on a cell reports its LoadedRun row; the tooltip text comes from the view.
// Painted by hand rather than with Qt Charts: a chart per K would be ten QCharts with ten legends and no
// per-cell hatching; a heat map of 1000 rectangles is a few lines of QPainter.
#include <QWidget>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "views/logic/shape_map.h"

class QPainter;

namespace ks {

// One cell as the map and its legend draw it: `colour` nullopt is an empty cell; `trusted` false hatches it.
void paintShapeCell(QPainter& painter, const QRect& rect, const std::optional<Rgb>& colour);

class ShapeMapCanvas : public QWidget {
  Q_OBJECT

 public:
  explicit ShapeMapCanvas(QWidget* parent = nullptr);

  // Shows `ks` of `map` (each a panel; in the order given). Null map: nothing.
  void setMap(std::shared_ptr<const ShapeMap> map, std::vector<std::int64_t> ks);
  void setCurrentRow(int row);
  void setToolTipText(std::function<QString(const ShapeMap::Cell&)> text) { m_toolTip = std::move(text); }
  // Where row `row`'s cell is drawn (empty when not shown), and the row drawn at `at` (-1: none).
  QRect cellRect(int row) const;
  int rowAt(const QPoint& at) const;
  QSize minimumSizeHint() const override { return {320, 200}; }

 signals:
  void rowClicked(int row);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  bool event(QEvent* event) override;

 private:
  struct Panel {
    std::int64_t k = 0;
    QRect grid;  // the cells
  };
  struct Layout {
    std::vector<Panel> panels;
    int cell = 0;
  };
  Layout layout() const;
  QRect cellRect(const Layout& l, const ShapeMap::Cell& c) const;

  std::shared_ptr<const ShapeMap> m_map;
  std::vector<std::int64_t> m_ks;
  int m_current = -1;
  std::function<QString(const ShapeMap::Cell&)> m_toolTip;
};

// "64", "1k", "12k", "16k": a shape dimension short enough for an axis label.
QString shortDimension(std::int64_t value);

}  // namespace ks
