#pragma once
// A one-line label that elides its text to the width it gets (with the full text as tooltip), so a long
// task name shortens with an ellipsis instead of being cut mid-letter. It asks for the full text's width
// (sizeHint) and can shrink to three ellipses (minimumSizeHint); by default it takes what the layout gives
// (an Ignored size policy).
#include <QLabel>

namespace ks {

class ElidedLabel : public QLabel {
  Q_OBJECT

 public:
  explicit ElidedLabel(QWidget* parent = nullptr);

  void setFullText(const QString& text);
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void elide();

  QString m_full;
};

}  // namespace ks
