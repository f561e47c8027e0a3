#pragma once
// The Roofline tab: every timed GEMM task at its arithmetic intensity and achieved TFLOP/s
// (views/logic/roofline.h), log-log, under the ceilings of the run's GPU (views/logic/gpu_ceilings.h): the
// memory-bandwidth roof and the tensor-core ceiling. The kernel and the reference it was timed against are
// two series; a kernel whose number is not trusted (speedup_trust.h) is grey. Recorded speedups carry no
// time, so a release that was never re-timed shows the ceilings and says so instead of inventing points. A
// click selects the task (rowSelected); the current task's points are ringed. Follows an OpenRun.
#include <QWidget>
#include <memory>

#include "views/logic/roofline.h"

class QChartView;
class QLabel;
class QScatterSeries;

namespace ks {

class OpenRun;

class RooflineView : public QWidget {
  Q_OBJECT

 public:
  explicit RooflineView(QWidget* parent = nullptr);

  void observe(const OpenRun* open);
  const Roofline& roofline() const { return m_roofline; }
  QChartView* chartView() const { return m_view; }
  QLabel* note() const { return m_note; }

 signals:
  void rowSelected(int row);

 private:
  void rebuild();
  void markCurrent(int row);

  const OpenRun* m_open = nullptr;
  Roofline m_roofline;
  QChartView* m_view;
  QLabel* m_note;
  QScatterSeries* m_current = nullptr;  // the current row's points, ringed
};

}  // namespace ks
