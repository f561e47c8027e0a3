#pragma once
// Above the code compare, for a GEMM task (CUDA-L2): the shape and precision on one line, the candidate
// kernel's tile configuration (BM, BN, BK, stages, swizzle, read from its source: gemm_task_summary.h) on
// the next, and behind a toggle what the reference computes in words and as PyTorch code
// (Task::referenceDescription). Hidden for other tasks. Follows an OpenRun's current row.
#include <QWidget>

class QLabel;
class QToolButton;

namespace ks {

class OpenRun;

class GemmTaskHeader : public QWidget {
  Q_OBJECT

 public:
  explicit GemmTaskHeader(QWidget* parent = nullptr);
  void observe(const OpenRun* open);
  void showRow(int row);
  QLabel* summary() const { return m_summary; }
  QLabel* tiles() const { return m_tiles; }
  QLabel* description() const { return m_description; }

 private:
  const OpenRun* m_open = nullptr;
  QLabel* m_summary;
  QLabel* m_tiles;
  QToolButton* m_more;
  QLabel* m_description;
};

}  // namespace ks
