#include "views/logic/search_tree.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "core/runs/outcome.h"
#include "views/logic/loaded_run.h"
#include "views/logic/measured_history.h"
#include "views/logic/speedup_format.h"
#include "views/logic/speedup_trust.h"

namespace ks {
namespace {

std::string joinedBySemicolons(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : "; ") + item;
  return text;
}

// The parent links of the candidates (local indices into `rows`): tree parent and extra parents.
struct Links {
  std::vector<int> parent;
  std::vector<std::pair<int, int>> extra;  // {parent, child}
};

}  // namespace

void SearchTree::addIssue(std::string text) {
  ++m_issueCount;
  if (m_issues.size() < kMaxIssues) m_issues.push_back(std::move(text));
}

SearchTree SearchTree::build(const LoadedRun& run, int task) {
  SearchTree tree;
  tree.m_rowNode.assign(static_cast<std::size_t>(run.rowCount()), -1);

  // The candidates in scope, in file order; LoadedRun keeps a task's rows together.
  std::vector<int> rows;
  rows.reserve(static_cast<std::size_t>(run.rowCount()));
  for (int row = 0; row < run.rowCount(); ++row) {
    const LoadedRun::Row& r = run.row(row);
    if (r.candidate >= 0 && (task == kAllTasks || r.task == task)) rows.push_back(row);
  }
  const int n = static_cast<int>(rows.size());
  const auto candidateOf = [&](int local) { return run.candidate(rows[static_cast<std::size_t>(local)]); };
  const auto nameOf = [&](int local) {
    return "\"" + candidateOf(local)->id + "\" of " + run.task(rows[static_cast<std::size_t>(local)]).key();
  };

  // Parent links, resolved within each task.
  Links links;
  links.parent.assign(static_cast<std::size_t>(n), -1);
  bool hasStep = false;
  std::unordered_map<std::string_view, int> ids;
  for (int begin = 0; begin < n;) {
    const int taskIndex = run.row(rows[static_cast<std::size_t>(begin)]).task;
    int end = begin;
    while (end < n && run.row(rows[static_cast<std::size_t>(end)]).task == taskIndex) ++end;
    ids.clear();
    ids.reserve(static_cast<std::size_t>(end - begin));
    for (int i = begin; i < end; ++i) ids.emplace(candidateOf(i)->id, i);
    for (int i = begin; i < end; ++i) {
      const Candidate* c = candidateOf(i);
      hasStep = hasStep || c->step.has_value();
      for (const std::string& p : c->parents) {
        const auto found = ids.find(p);
        if (found == ids.end()) {
          tree.addIssue("candidate " + nameOf(i) + " names parent \"" + p +
                        "\", which is not a candidate of that task: drawn without that link");
        } else if (found->second == i) {
          tree.addIssue("candidate " + nameOf(i) + " names itself as its parent: link ignored");
        } else if (links.parent[static_cast<std::size_t>(i)] < 0) {
          links.parent[static_cast<std::size_t>(i)] = found->second;
        } else {
          links.extra.emplace_back(found->second, i);
        }
      }
    }
    begin = end;
  }
  const bool hasEdge = !links.extra.empty() ||
                       std::any_of(links.parent.begin(), links.parent.end(), [](int p) { return p >= 0; });
  tree.m_kind = hasStep ? Kind::Rounds : hasEdge ? Kind::Lineage : Kind::Flat;

  if (tree.m_kind == Kind::Flat) {  // file order, wrapped
    tree.m_nodes.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      tree.m_nodes.push_back(
          {rows[static_cast<std::size_t>(i)], -1, i / kFlatColumns, static_cast<double>(i % kFlatColumns)});
      tree.m_rowNode[static_cast<std::size_t>(rows[static_cast<std::size_t>(i)])] = i;
    }
    tree.m_width = std::min(n, kFlatColumns);
    const int layers = (n + kFlatColumns - 1) / kFlatColumns;
    tree.m_byLayer.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) tree.m_byLayer[static_cast<std::size_t>(i)] = i;
    for (int l = 0; l <= layers; ++l) tree.m_layerBegin.push_back(std::min(n, l * kFlatColumns));
    return tree;
  }

  // Cycles in the tree links: the node whose parent closes the loop becomes a root.
  {
    std::vector<char> state(static_cast<std::size_t>(n), 0);  // 0 new, 1 on the walk, 2 done
    std::vector<int> walk;
    for (int i = 0; i < n; ++i) {
      walk.clear();
      int at = i;
      while (at >= 0 && state[static_cast<std::size_t>(at)] == 0) {
        state[static_cast<std::size_t>(at)] = 1;
        walk.push_back(at);
        at = links.parent[static_cast<std::size_t>(at)];
      }
      if (at >= 0 && state[static_cast<std::size_t>(at)] == 1) {
        tree.addIssue("the lineage of candidate " + nameOf(walk.back()) +
                      " loops back to itself: drawn as a root");
        links.parent[static_cast<std::size_t>(walk.back())] = -1;
      }
      for (int w : walk) state[static_cast<std::size_t>(w)] = 2;
    }
  }

  // Children in file order (compressed rows), then a depth-first order: parents before children.
  std::vector<int> childBegin(static_cast<std::size_t>(n) + 1, 0);
  for (int i = 0; i < n; ++i)
    if (const int p = links.parent[static_cast<std::size_t>(i)]; p >= 0)
      ++childBegin[static_cast<std::size_t>(p) + 1];
  for (int i = 0; i < n; ++i)
    childBegin[static_cast<std::size_t>(i) + 1] += childBegin[static_cast<std::size_t>(i)];
  std::vector<int> children(static_cast<std::size_t>(childBegin[static_cast<std::size_t>(n)]));
  {
    std::vector<int> fill(childBegin.begin(), childBegin.end() - 1);
    for (int i = 0; i < n; ++i)
      if (const int p = links.parent[static_cast<std::size_t>(i)]; p >= 0)
        children[static_cast<std::size_t>(fill[static_cast<std::size_t>(p)]++)] = i;
  }
  std::vector<int> order;  // local indices, depth-first
  order.reserve(static_cast<std::size_t>(n));
  {
    std::vector<int> stack;
    for (int root = 0; root < n; ++root) {
      if (links.parent[static_cast<std::size_t>(root)] >= 0) continue;
      stack.push_back(root);
      while (!stack.empty()) {
        const int at = stack.back();
        stack.pop_back();
        order.push_back(at);
        for (int c = childBegin[static_cast<std::size_t>(at) + 1] - 1;
             c >= childBegin[static_cast<std::size_t>(at)]; --c)
          stack.push_back(children[static_cast<std::size_t>(c)]);
      }
    }
  }
  std::vector<int> nodeOf(static_cast<std::size_t>(n), -1);
  for (int k = 0; k < n; ++k) nodeOf[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] = k;

  // Layers, parents first.
  int firstStep = std::numeric_limits<int>::max();
  if (tree.m_kind == Kind::Rounds)
    for (int i = 0; i < n; ++i)
      if (const auto& step = candidateOf(i)->step) firstStep = std::min(firstStep, *step);
  tree.m_firstRound = tree.m_kind == Kind::Rounds ? firstStep : 0;
  tree.m_nodes.resize(static_cast<std::size_t>(n));
  int layers = 0;
  for (int k = 0; k < n; ++k) {
    const int local = order[static_cast<std::size_t>(k)];
    const int p = links.parent[static_cast<std::size_t>(local)];
    SearchNode& node = tree.m_nodes[static_cast<std::size_t>(k)];
    node.row = rows[static_cast<std::size_t>(local)];
    node.parent = p >= 0 ? nodeOf[static_cast<std::size_t>(p)] : -1;
    const int parentLayer = node.parent >= 0 ? tree.m_nodes[static_cast<std::size_t>(node.parent)].layer : -1;
    const std::optional<int>& step = candidateOf(local)->step;
    node.layer = tree.m_kind == Kind::Rounds && step ? *step - firstStep : parentLayer + 1;
    if (node.layer <= parentLayer) {
      tree.addIssue("candidate " + nameOf(local) + " is in round " + std::to_string(*step) +
                    ", not after its parent \"" + candidateOf(p)->id + "\" (round " +
                    std::to_string(tree.roundOfLayer(parentLayer)) + "): drawn one layer below its parent");
      node.layer = parentLayer + 1;
    }
    layers = std::max(layers, node.layer + 1);
    tree.m_rowNode[static_cast<std::size_t>(node.row)] = k;
  }
  for (const auto& [p, c] : links.extra)
    tree.m_extraEdges.emplace_back(nodeOf[static_cast<std::size_t>(p)], nodeOf[static_cast<std::size_t>(c)]);

  // Horizontal positions.
  std::vector<int> perLayer(static_cast<std::size_t>(layers), 0);
  if (!hasEdge) {  // rounds without links: each layer is a row in file order
    for (SearchNode& node : tree.m_nodes) node.x = perLayer[static_cast<std::size_t>(node.layer)]++;
    tree.m_width = *std::max_element(perLayer.begin(), perLayer.end());
  } else {  // leaf order: leaves take slots depth-first, a parent sits midway over its children
    double slot = 0;
    for (int k = 0; k < n; ++k) {
      const int local = order[static_cast<std::size_t>(k)];
      if (childBegin[static_cast<std::size_t>(local)] == childBegin[static_cast<std::size_t>(local) + 1])
        tree.m_nodes[static_cast<std::size_t>(k)].x = slot++;
    }
    for (int k = n - 1; k >= 0; --k) {
      const int local = order[static_cast<std::size_t>(k)];
      const int b = childBegin[static_cast<std::size_t>(local)],
                e = childBegin[static_cast<std::size_t>(local) + 1];
      if (b == e) continue;
      const double first =
          tree.m_nodes[static_cast<std::size_t>(
                           nodeOf[static_cast<std::size_t>(children[static_cast<std::size_t>(b)])])]
              .x;
      const double last =
          tree.m_nodes[static_cast<std::size_t>(
                           nodeOf[static_cast<std::size_t>(children[static_cast<std::size_t>(e - 1)])])]
              .x;
      tree.m_nodes[static_cast<std::size_t>(k)].x = (first + last) / 2;
    }
    tree.m_width = slot;
    for (const SearchNode& node : tree.m_nodes) ++perLayer[static_cast<std::size_t>(node.layer)];
  }

  // By layer (a stable counting sort: within a layer the depth-first order is left to right).
  tree.m_layerBegin.assign(static_cast<std::size_t>(layers) + 1, 0);
  for (int l = 0; l < layers; ++l)
    tree.m_layerBegin[static_cast<std::size_t>(l) + 1] =
        tree.m_layerBegin[static_cast<std::size_t>(l)] + perLayer[static_cast<std::size_t>(l)];
  tree.m_byLayer.resize(static_cast<std::size_t>(n));
  std::vector<int> fill(tree.m_layerBegin.begin(), tree.m_layerBegin.end() - 1);
  for (int k = 0; k < n; ++k)
    tree.m_byLayer[static_cast<std::size_t>(
        fill[static_cast<std::size_t>(tree.m_nodes[static_cast<std::size_t>(k)].layer)]++)] = k;
  return tree;
}

std::vector<int>::const_iterator SearchTree::layerBegin(int layer) const {
  return m_byLayer.begin() + m_layerBegin[static_cast<std::size_t>(layer)];
}

std::vector<int>::const_iterator SearchTree::layerEnd(int layer) const {
  return m_byLayer.begin() + m_layerBegin[static_cast<std::size_t>(layer) + 1];
}

int SearchTree::nodeOfRow(int row) const {
  return row >= 0 && row < static_cast<int>(m_rowNode.size()) ? m_rowNode[static_cast<std::size_t>(row)] : -1;
}

int SearchTree::nodeAt(int layer, double x, double reach) const {
  if (layer < 0 || layer >= layerCount()) return -1;
  const auto begin = layerBegin(layer), end = layerEnd(layer);
  auto at = std::lower_bound(begin, end, x, [this](int node, double value) {
    return m_nodes[static_cast<std::size_t>(node)].x < value;
  });
  int best = -1;
  double bestDistance = reach;
  for (auto it : {at, at == begin ? end : at - 1}) {
    if (it == end) continue;
    const double distance = std::abs(m_nodes[static_cast<std::size_t>(*it)].x - x);
    if (distance <= bestDistance) {
      bestDistance = distance;
      best = *it;
    }
  }
  return best;
}

namespace {

SearchNodeState::Status failedStatus(runs::Outcome outcome) {
  return outcome == runs::Outcome::Incorrect ? SearchNodeState::Status::Incorrect
                                             : SearchNodeState::Status::Error;
}

}  // namespace

SearchNodeState searchNodeState(const LoadedRun& run, const MeasuredHistory* history, int row,
                                const SpeedupSeries& series) {
  SearchNodeState s;
  const Candidate* c = run.candidate(row);
  if (!c) return s;
  if (const runs::MeasuredRun* measured = history ? history->latestOfRecorded(row) : nullptr) {
    s.measuredHere = true;
    if (measured->correct()) {
      if (measured->row.speedup) {
        s.status = SearchNodeState::Status::Number;
        s.speedup = measured->row.speedup;
      }
    } else {
      s.status = failedStatus(runs::outcomeOf(measured->row.outcome));
      s.problem = measured->row.errorKind;
    }
  } else {
    // The last one measured here, else the first recorded in the series (a failed run's verdict included).
    const Measurement* chosen = c->lastMeasured();
    for (const Measurement& m : c->measurements)
      if (!chosen && m.baseline == series.baseline && (series.mode.empty() || m.mode == series.mode))
        chosen = &m;
    if (chosen && runs::outcomeOf(*chosen) != runs::Outcome::Correct) {
      // The file's verdict of a failed run: coloured like a failed re-run.
      s.status = failedStatus(runs::outcomeOf(*chosen));
      s.problem = chosen->error.str();
    } else if (chosen) {
      if (chosen->speedup || (chosen->baselineMs && chosen->candidateMs && *chosen->candidateMs > 0)) {
        s.status = SearchNodeState::Status::Number;
        s.speedup = chosen->speedup ? chosen->speedup : *chosen->baselineMs / *chosen->candidateMs;
      }
    }
  }
  const SpeedupTrust trust = speedupTrust(run, history, row);
  if (!trust.trusted) {
    if (s.status == SearchNodeState::Status::Number) s.status = SearchNodeState::Status::Untrusted;
    if (s.problem.empty()) s.problem = joinedBySemicolons(trust.reasons);
  }
  return s;
}

std::vector<SearchNodeState> searchNodeStates(const LoadedRun& run, const MeasuredHistory* history,
                                              const SearchTree& tree, const SpeedupSeries& series) {
  std::vector<SearchNodeState> states;
  states.reserve(tree.nodes().size());
  for (const SearchNode& node : tree.nodes())
    states.push_back(searchNodeState(run, history, node.row, series));
  return states;
}

Rgb searchNodeColour(const SearchNodeState& state) {
  switch (state.status) {
    case SearchNodeState::Status::Number:
      return speedupColour(*state.speedup);
    case SearchNodeState::Status::Untrusted:
      return shape_colours::kUntrusted;
    case SearchNodeState::Status::Incorrect:
    case SearchNodeState::Status::Error:
      return search_colours::kFailed;
    case SearchNodeState::Status::NoNumber:
      break;
  }
  return search_colours::kNoNumber;
}

namespace {

// The first paragraphs of a markdown text as plain text, about `limit` characters.
QString ideaText(const std::string& analysis, int limit) {
  QString text = QString::fromStdString(analysis).trimmed();
  QStringList kept;
  int length = 0;
  for (QString line : text.split('\n')) {
    line = line.trimmed();
    if (line.startsWith('#')) continue;                 // headings name sections, they are not the idea
    if (line.startsWith(QStringLiteral("```"))) break;  // nor is code
    if (line.isEmpty()) {
      if (length >= limit / 2) break;
      continue;
    }
    kept << line;
    length += static_cast<int>(line.size());
    if (length >= limit) break;
  }
  QString idea = kept.join(' ');
  if (idea.size() > limit) idea = idea.left(limit - 1) + QChar(0x2026);
  return idea;
}

}  // namespace

QString searchNodeToolTip(const LoadedRun& run, const SearchTree& tree, int node,
                          const SearchNodeState& state) {
  const SearchNode& n = tree.nodes()[static_cast<std::size_t>(node)];
  const Candidate* c = run.candidate(n.row);
  QStringList lines;
  QString head = QStringLiteral("%1 · %2").arg(QString::fromStdString(run.task(n.row).key()),
                                               QString::fromStdString(c ? c->id : std::string()));
  if (tree.kind() == SearchTree::Kind::Rounds && c && c->step)
    head += QObject::tr(" · round %1").arg(*c->step);
  if (c && !c->parents.empty()) {
    QStringList parents;
    for (const std::string& p : c->parents) parents << QString::fromStdString(p);
    head += QObject::tr(" · from %1").arg(parents.join(QStringLiteral(", ")));
  }
  lines << head;
  const QString where = state.measuredHere ? QObject::tr(" (measured here)") : QString();
  const QString problem = QString::fromStdString(state.problem);
  switch (state.status) {
    case SearchNodeState::Status::Number:
      lines << QObject::tr("%1 faster than the reference%2").arg(formatSpeedup(*state.speedup), where);
      break;
    case SearchNodeState::Status::Untrusted:
      lines << QObject::tr("Not a win: %1 — %2").arg(formatSpeedup(*state.speedup), problem);
      break;
    case SearchNodeState::Status::Incorrect:
      lines << QObject::tr("Incorrect: the output does not match the reference%1%2")
                   .arg(where, problem.isEmpty() ? QString() : QStringLiteral(" — ") + problem);
      break;
    case SearchNodeState::Status::Error:
      lines << QObject::tr("Error: no verdict%1%2")
                   .arg(where, problem.isEmpty() ? QString() : QStringLiteral(" — ") + problem);
      break;
    case SearchNodeState::Status::NoNumber:
      lines << (problem.isEmpty() ? QObject::tr("Not measured")
                                  : QObject::tr("Not measured — %1").arg(problem));
      break;
  }
  const QString idea = c ? ideaText(c->analysis.valueOrEmpty(), 400) : QString();
  lines << (idea.isEmpty() ? QObject::tr("No idea or analysis recorded") : QObject::tr("Idea: %1").arg(idea));
  return lines.join('\n');
}

std::vector<RoundBest> bestSoFarByRound(const SearchTree& tree, const std::vector<SearchNodeState>& states) {
  std::vector<RoundBest> rounds;
  if (tree.kind() == SearchTree::Kind::Flat) return rounds;
  for (int layer = 0; layer < tree.layerCount(); ++layer) {
    RoundBest r;
    r.round = tree.roundOfLayer(layer);
    for (auto it = tree.layerBegin(layer); it != tree.layerEnd(layer); ++it) {
      const SearchNodeState& s = states[static_cast<std::size_t>(*it)];
      ++r.candidates;
      if (s.status == SearchNodeState::Status::Incorrect || s.status == SearchNodeState::Status::Error)
        ++r.failed;
      if (s.countsAsWin() && (!r.best || *s.speedup > *r.best)) {
        r.best = s.speedup;
        r.bestRow = tree.nodes()[static_cast<std::size_t>(*it)].row;
      }
    }
    r.bestSoFar = r.best;
    r.bestSoFarRow = r.bestRow;
    if (!rounds.empty() && rounds.back().bestSoFar &&
        (!r.bestSoFar || *rounds.back().bestSoFar >= *r.bestSoFar)) {
      r.bestSoFar = rounds.back().bestSoFar;
      r.bestSoFarRow = rounds.back().bestSoFarRow;
    }
    rounds.push_back(r);
  }
  return rounds;
}

}  // namespace ks
