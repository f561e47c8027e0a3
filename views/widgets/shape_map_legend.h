#pragma once
// The shape map's key: the diverging scale from 2^-kScaleOctaves× to 2^kScaleOctaves× (log, 1× neutral,
// clamped beyond), and the swatches of a caught hack or fallback (hatched grey) and of no number (empty).
#include <QWidget>

namespace ks {

class ShapeMapLegend : public QWidget {
  Q_OBJECT

 public:
  explicit ShapeMapLegend(QWidget* parent = nullptr);
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override { return {300, sizeHint().height()}; }

 protected:
  void paintEvent(QPaintEvent* event) override;
};

}  // namespace ks
