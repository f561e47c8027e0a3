#pragma once
// The Shapes tab: the speedup of every GEMM task by matrix shape (views/logic/shape_map.h), one M × N heat
// map per K — all ten Ks side by side (small multiples, the default) or one K large — over a baseline and
// timing mode chosen from the run's own data, recorded or measured here. A click selects the task
// (rowSelected); the current row is outlined. It follows an OpenRun (docs/architecture.md, "How the GUI is
// wired") and says why it is empty when the run has no GEMM task.
#include <QWidget>
#include <memory>
#include <vector>

#include "views/logic/shape_map.h"

class QComboBox;
class QLabel;

namespace ks {

class OpenRun;
class ShapeMapCanvas;
class ShapeMapLegend;

class ShapeMapView : public QWidget {
  Q_OBJECT

 public:
  explicit ShapeMapView(QWidget* parent = nullptr);

  void observe(const OpenRun* open);
  bool hasGemmTasks() const { return m_hasGemm; }
  const ShapeMap* map() const { return m_map.get(); }
  ShapeMapCanvas* canvas() const { return m_canvas; }
  QComboBox* baselineChoice() const { return m_baseline; }
  QComboBox* modeChoice() const { return m_mode; }
  QComboBox* kChoice() const { return m_k; }
  QComboBox* sourceChoice() const { return m_source; }

  // The choices (source, baseline, mode, K) as QSettings keeps them; a restored choice the run lacks waits
  // for a run that has it.
  QByteArray saveState() const;
  void restoreState(const QByteArray& state);
  void resetChoices();  // recorded, the run's first baseline and mode, every K

 signals:
  void rowSelected(int row);

 private:
  void fillChoices();
  void rebuild();
  QString toolTip(const ShapeMap::Cell& cell) const;

  const OpenRun* m_open = nullptr;
  bool m_hasGemm = false;
  std::vector<SpeedupSeries> m_series;
  std::shared_ptr<const ShapeMap> m_map;
  QString m_wantBaseline, m_wantMode, m_wantK;  // restored choices, kept until a run offers them
  int m_wantSource = 0;
  bool m_filling = false;

  QComboBox* m_source;
  QComboBox* m_baseline;
  QComboBox* m_mode;
  QComboBox* m_k;
  ShapeMapCanvas* m_canvas;
  ShapeMapLegend* m_legend;
  QLabel* m_note;
};

}  // namespace ks
