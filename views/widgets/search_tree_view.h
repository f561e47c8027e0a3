#pragma once
// The Search tab: the search behind a run as a layered tree, one round per layer
// (views/logic/search_tree.h), drawn by SearchTreeCanvas; beside it the best so far by round
// (BestByRoundChart); below, the selected candidate against its parent in a CodeCompareView in parent mode.
// One task's search at a time (ids are per task), or every task side by side. Colour is the speedup on the
// shape map's diverging scale, or the trust rule's grey (speedup_trust.h), or near black for a failed run.
// Hovering a candidate shows its idea; a click selects it in every pane (rowSelected: the window sets the
// OpenRun's current row, which this view and the others follow). A run without lineage is a flat list and
// the note says so. Follows an OpenRun (docs/architecture.md, "How the GUI is wired").
#include <QWidget>
#include <memory>
#include <vector>

#include "views/logic/search_tree.h"

class QComboBox;
class QLabel;
class QSplitter;
class QToolButton;

namespace ks {

class BestByRoundChart;
class CodeCompareView;
class OpenRun;
class SearchTreeCanvas;
class ShapeMapLegend;

class SearchTreeView : public QWidget {
  Q_OBJECT

 public:
  explicit SearchTreeView(QWidget* parent = nullptr);

  void observe(const OpenRun* open);
  SearchTreeCanvas* canvas() const { return m_canvas; }
  BestByRoundChart* bestChart() const { return m_best; }
  ShapeMapLegend* legend() const { return m_legend; }
  CodeCompareView* compare() const { return m_compare; }  // parent against candidate
  QComboBox* scopeChoice() const { return m_scope; }
  QLabel* note() const { return m_note; }
  const SearchTree* tree() const { return m_tree.get(); }
  const std::vector<SearchNodeState>& states() const { return m_states; }
  int scopeTask() const;  // SearchTree::kAllTasks for every task
  void setScopeTask(int task);

 signals:
  void rowSelected(int row);

 private:
  void fillScopes();
  void rebuild();
  void recolour();
  std::vector<Rgb> colourStates();  // m_states of the open run's history, and their colours
  void showRounds();                // the best-so-far chart and the note
  void showCurrent(int row);
  void updateNote();

  const OpenRun* m_open = nullptr;
  std::shared_ptr<const SearchTree> m_tree;
  std::vector<SearchNodeState> m_states;

  QComboBox* m_scope;
  QToolButton* m_fit;
  QLabel* m_note;
  SearchTreeCanvas* m_canvas;
  BestByRoundChart* m_best;
  ShapeMapLegend* m_legend;
  CodeCompareView* m_compare;
  QSplitter* m_top;
  QSplitter* m_split;
};

}  // namespace ks
