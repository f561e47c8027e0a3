#pragma once
// The shape map's key: the diverging scale from 2^-kScaleOctaves× to 2^kScaleOctaves× (log, 1× neutral,
// clamped beyond), and the swatches of a caught hack or fallback (hatched grey) and of no number (empty),
// then any a view adds (the Search tab's near black "incorrect or error"). The swatches flow in up to two
// lines beside the scale when they fit there, else in lines under it (heightForWidth), so that no word is
// drawn over another at any width.
#include <QColor>
#include <QRect>
#include <QWidget>
#include <optional>
#include <vector>

namespace ks {

class ShapeMapLegend : public QWidget {
  Q_OBJECT

 public:
  explicit ShapeMapLegend(QWidget* parent = nullptr);
  // A swatch of `colour` after the others, with `toolTip` when hovered.
  void addSwatch(const QColor& colour, const QString& text, const QString& toolTip = {});

  // Where each part is drawn at a width: the scale, its words and tick labels, each swatch and its text.
  struct Part {
    QString text;  // empty for the scale's bar and a swatch's box
    QRect rect;
  };
  std::vector<Part> parts(int width) const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;
  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override;

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;

 private:
  struct Swatch {
    std::optional<QColor> colour;  // nullopt: hatched grey (caught hack or fallback) or empty (no number)
    bool untrusted = false;
    QString text, toolTip;
  };
  struct Tick {
    int x;
    QRect rect;  // of its label
    QString label;
  };
  struct Layout {
    QRect bar, slower, faster;
    std::vector<Tick> ticks;
    std::vector<std::pair<QRect, QRect>> swatches;  // box, text; in m_swatches' order
    int height = 0;
  };
  Layout layoutFor(int width) const;
  int oneLineWidth() const;  // the least width that holds everything on one line

  std::vector<Swatch> m_swatches;
};

}  // namespace ks
