#pragma once
// A one-line label that elides its text to the width it gets (with the full text as tooltip), so a long
// task name shortens with an ellipsis instead of being cut mid-letter.
#include <QLabel>

namespace ks {

class ElidedLabel : public QLabel {
  Q_OBJECT

 public:
  explicit ElidedLabel(QWidget* parent = nullptr);

  void setFullText(const QString& text);
  QSize minimumSizeHint() const override;

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void elide();

  QString m_full;
};

}  // namespace ks
