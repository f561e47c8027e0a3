#pragma once
// The search behind a run, laid out for the Search tab (views/widgets/search_tree_view.h): one node per
// candidate, under the parent it was derived from (Candidate::parents, the first one the task holds; later
// parents are extra edges), one layer per round (Candidate::step) when the run records rounds, else per
// depth in the lineage. A run with neither is laid out flat, in file order, and says so (kind() == Flat).
//
// Layout: a layered tree in leaf order. Leaves take consecutive slots in a depth-first walk of the forest
// and a parent sits midway between its first and last child, so a subtree spans a run of slots no other
// subtree shares: two nodes of one layer are at least one slot apart and edges of different subtrees never
// cross. A child is always in a later layer than its parent; a file whose rounds say otherwise (a child in
// its parent's round or earlier) is drawn one layer below the parent and the problem is listed in issues().
// Linear in the candidates apart from one sort (100 000 in well under a second, bench/bench_search_tree.cpp).
//
// What each node shows (its number, its colour, its tooltip) and the best-so-far-by-round series are here
// too, so the widgets only draw. Colours follow the one trust rule (speedup_trust.h) and the shape map's
// diverging scale (shape_map.h). No widgets (tested without a display).
#include <QObject>
#include <QString>
#include <QStringList>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "views/logic/shape_map.h"
#include "views/logic/speedup_series.h"

namespace ks {

class LoadedRun;
class MeasuredHistory;

struct SearchNode {
  int row = -1;     // the LoadedRun row of the candidate
  int parent = -1;  // index (in SearchTree::nodes) of the node it is drawn under; -1: a root
  int layer = 0;    // 0-based; SearchTree::roundOfLayer gives the round it stands for
  double x = 0;     // horizontal position in slots (>= 0); nodes of one layer are >= 1 slot apart
};

class SearchTree {
 public:
  enum class Kind {
    Rounds,   // the run records rounds (steps): layer = round
    Lineage,  // parent links but no rounds: layer = depth in the lineage
    Flat,     // neither: file order, wrapped into lines of kFlatColumns
  };
  static constexpr int kFlatColumns = 25;
  static constexpr int kAllTasks = -1;
  static constexpr std::size_t kMaxIssues = 20;  // listed; the rest are counted (issueCount)

  SearchTree() = default;
  // The candidates of task `task` (an index into run.run().tasks), or of every task side by side.
  static SearchTree build(const LoadedRun& run, int task = kAllTasks);

  Kind kind() const { return m_kind; }
  // Parents before children: a node's parent has a smaller index (a depth-first order of the forest).
  const std::vector<SearchNode>& nodes() const { return m_nodes; }
  // Links to second and later parents: {parent node, child node}. They are drawn, not laid out.
  const std::vector<std::pair<int, int>>& extraEdges() const { return m_extraEdges; }
  int layerCount() const { return static_cast<int>(m_layerBegin.size()) - 1; }
  // The round a layer stands for (Rounds: the step; otherwise the layer itself).
  int roundOfLayer(int layer) const { return m_firstRound + layer; }
  double width() const { return m_width; }  // slots: every x is in [0, width)
  // The nodes of layer `layer`, left to right.
  std::vector<int>::const_iterator layerBegin(int layer) const;
  std::vector<int>::const_iterator layerEnd(int layer) const;
  // The node of row `row`; -1 when the row is not in the tree.
  int nodeOfRow(int row) const;
  // The node of layer `layer` nearest x within `reach` slots; -1 when none.
  int nodeAt(int layer, double x, double reach) const;
  // Lineage problems met while laying out (unknown parents, cycles, a child not after its parent's round).
  const std::vector<std::string>& issues() const { return m_issues; }
  std::size_t issueCount() const { return m_issueCount; }

 private:
  void addIssue(std::string text);

  Kind m_kind = Kind::Flat;
  std::vector<SearchNode> m_nodes;
  std::vector<std::pair<int, int>> m_extraEdges;
  std::vector<int> m_byLayer;     // node indices by (layer, x)
  std::vector<int> m_layerBegin;  // into m_byLayer, layerCount() + 1 entries
  std::vector<int> m_rowNode;     // by LoadedRun row, -1 when not in the tree
  std::vector<std::string> m_issues;
  std::size_t m_issueCount = 0;
  int m_firstRound = 0;
  double m_width = 0;
};

// What a node shows.
struct SearchNodeState {
  enum class Status {
    Number,     // a speedup to colour on the diverging scale
    Untrusted,  // a number the trust rule does not let count as a win (caught hack, fell back)
    Incorrect,  // its run's output did not match the reference
    Error,      // its run never reached a verdict (build, crash, timeout)
    NoNumber,   // never measured
  };
  Status status = Status::NoNumber;
  std::optional<double> speedup;  // the number shown (also for Untrusted)
  bool measuredHere = false;      // from a re-run in the results history, not the file
  std::string problem;            // Incorrect / Error: what went wrong, when known; Untrusted: the reasons
  bool countsAsWin() const { return status == Status::Number && speedup.has_value(); }
};

namespace search_colours {
inline constexpr Rgb kFailed{0x24, 0x29, 0x2f};    // incorrect or error: near black
inline constexpr Rgb kNoNumber{0xff, 0xff, 0xff};  // never measured: white, outlined
}  // namespace search_colours

// Row `row`'s state: the newest re-run of its recorded program when `history` has one (correct and timed,
// incorrect, or an error), else the file's own measurement: the last one KernelScope measured (against the
// task's reference), else the first recorded in `series` (the open run's, OpenRun::series): its verdict
// when it records a failed run (`outcome` incorrect or error, read by the rule a re-run's is,
// core/runs/outcome.h), else its number; then the trust rule (speedupTrust) over it.
SearchNodeState searchNodeState(const LoadedRun& run, const MeasuredHistory* history, int row,
                                const SpeedupSeries& series = {});
std::vector<SearchNodeState> searchNodeStates(const LoadedRun& run, const MeasuredHistory* history,
                                              const SearchTree& tree,
                                              const SpeedupSeries& series = {});  // one per node
Rgb searchNodeColour(const SearchNodeState& state);
// The hover text: id, round, parents, the number or verdict, and the idea (the candidate's analysis, its
// first paragraphs up to about 400 characters, as plain text).
QString searchNodeToolTip(const LoadedRun& run, const SearchTree& tree, int node,
                          const SearchNodeState& state);

// One round of a search: its best trusted number and the best of every round up to it.
struct RoundBest {
  int round = 0;
  int candidates = 0;
  int failed = 0;              // incorrect or error
  std::optional<double> best;  // the round's best trusted speedup
  int bestRow = -1;
  std::optional<double> bestSoFar;  // the best trusted speedup of this round and every earlier one
  int bestSoFarRow = -1;
};
// One entry per layer of `tree` (empty for a Flat tree). Only numbers that count as wins are counted.
std::vector<RoundBest> bestSoFarByRound(const SearchTree& tree, const std::vector<SearchNodeState>& states);

}  // namespace ks
