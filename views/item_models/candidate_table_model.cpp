#include "views/item_models/candidate_table_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QIcon>
#include <QPainter>
#include <QPixmap>
#include <QPolygonF>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "core/flags/flag_counts.h"
#include "core/flags/flag_families.h"
#include "core/formats/parallel_for.h"
#include "core/runs/agreement.h"
#include "core/runs/outcome.h"
#include "views/logic/measured_format.h"
#include "views/logic/runtime_evidence.h"
#include "views/logic/speedup_format.h"
#include "views/logic/task_label.h"
#include "views/logic/baseline_label.h"

namespace ks {
namespace {

// A red warning sign for a measured number that a runtime probe caught as a hack; drawn once, not themed, so
// that it reads the same on every platform style.
QIcon hackIcon() {
  static const QIcon icon = [] {
    QPixmap pixmap(32, 32);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(QColor(0x82, 0x07, 0x1e), 2));
    p.setBrush(QColor(0xcf, 0x22, 0x2e));
    p.drawPolygon(QPolygonF({QPointF(16, 2), QPointF(30, 29), QPointF(2, 29)}));
    p.setPen(QPen(Qt::white, 4, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(QPointF(16, 11), QPointF(16, 19));
    p.drawPoint(QPointF(16, 25));
    return QIcon(pixmap);
  }();
  return icon;
}

FlagSeverity rankSeverity(int rank) {
  return rank >= 3 ? FlagSeverity::Hack : rank == 2 ? FlagSeverity::Suspicious : FlagSeverity::Benign;
}

// `text` in lines of at most kHeaderLine characters where it can be broken: after a hyphen or at a space
// ("cuBLASLt-auto-tuning-max (server)" → "cuBLASLt-" / "auto-tuning-" / "max (server)"). A piece longer
// than a line keeps its own line.
QString headerLines(const std::string& text) {
  constexpr std::size_t kHeaderLine = 13;
  std::vector<std::string> pieces;  // each ends after its break: "cuBLASLt-", "max ", "(server)"
  std::string piece;
  for (char ch : text) {
    piece += ch;
    if (ch == '-' || ch == ' ') pieces.push_back(std::move(piece)), piece.clear();
  }
  if (!piece.empty()) pieces.push_back(piece);
  QStringList lines;
  std::string line;
  const auto trimmed = [](std::string s) {
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
  };
  for (const std::string& p : pieces) {
    if (!line.empty() && trimmed(line + p).size() > kHeaderLine) {
      lines << QString::fromStdString(trimmed(line));
      line.clear();
    }
    line += p;
  }
  if (!line.empty()) lines << QString::fromStdString(trimmed(line));
  return lines.join('\n');
}

void appendLower(std::string& out, const std::string& s) {
  if (!out.empty()) out += ' ';
  for (char ch : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
}

}  // namespace

CandidateTableModel::CandidateTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void CandidateTableModel::setRun(std::shared_ptr<const LoadedRun> run) {
  beginResetModel();
  m_run = std::move(run);
  m_series.clear();
  m_chosen = 0;
  m_reference = -1;
  m_allGemm = false;
  m_values.clear();
  m_speedups.clear();
  m_taskText.clear();
  m_taskLabels.clear();
  if (m_run) {
    m_series = m_run->series();
    m_reference = m_run->seriesIndex(SpeedupSeries{});
    m_allGemm = !m_run->run().tasks.empty();
    for (const Task& task : m_run->run().tasks) {
      m_allGemm = m_allGemm && task.gemm.has_value();
      m_taskLabels.push_back(taskLabel(task));
      std::string text;
      appendLower(text, task.key());
      appendLower(text, task.name);
      if (task.gemm) appendLower(text, m_taskLabels.back());  // "64×4096×4096" as shown
      m_taskText.push_back(std::move(text));
    }
    const int rows = m_run->rowCount();
    m_values.resize(static_cast<std::size_t>(rows));
    m_speedups.assign(static_cast<std::size_t>(rows) * m_series.size(),
                      std::numeric_limits<double>::quiet_NaN());
    // Rows are independent (each writes its own values and speedups): a million of them in chunks on every
    // core, half the wall time of one loop on the 2-core machine; a small run stays on this thread.
    parallelRanges(static_cast<std::size_t>(rows), chunkCount(static_cast<std::size_t>(rows), kMinChunkRows),
                   [this](std::size_t, std::size_t first, std::size_t last) {
                     fillRows(static_cast<int>(first), static_cast<int>(last));
                   });
  }
  m_runtime = readRuntimeMarks();
  computeFlagValues();
  endResetModel();
}

void CandidateTableModel::fillRows(int first, int last) {
  for (int r = first; r < last; ++r) {
    RowValues& v = m_values[static_cast<std::size_t>(r)];
    const Task& task = m_run->task(r);
    const Candidate* c = m_run->candidate(r);
    v.task = m_run->row(r).task;
    v.level = task.level;
    v.number = task.number;
    v.candidateIndex = m_run->row(r).candidate;
    if (!c) continue;
    v.step = c->step.value_or(-1);
    v.hasCode = c->code.has_value();
    for (std::size_t b = 0; b < m_series.size(); ++b)
      if (const std::optional<double> s = recordedSpeedup(*c, m_series[b]))
        m_speedups[static_cast<std::size_t>(r) * m_series.size() + b] = *s;
  }
}

bool CandidateTableModel::rowContains(int row, const std::string& word) const {
  const RowValues& v = values(row);
  if (taskText(v.task).find(word) != std::string::npos) return true;
  std::string id;
  if (const Candidate* c = m_run->candidate(row)) appendLower(id, c->id);
  if (id.find(word) != std::string::npos) return true;
  for (std::uint16_t f : v.families) {
    std::string family;
    appendLower(family, m_familyIds[f]);
    if (family.find(word) != std::string::npos) return true;
  }
  return false;
}

bool CandidateTableModel::setHistory(std::shared_ptr<const MeasuredHistory> history) {
  m_history = std::move(history);
  return refreshMeasured();
}

bool CandidateTableModel::refreshMeasured() {
  RuntimeMarks runtime = readRuntimeMarks();
  const bool changed = runtime != m_runtime;
  if (changed) {
    emit layoutAboutToBeChanged();
    m_runtime = std::move(runtime);
    computeFlagValues();
    emit layoutChanged();
  }
  computeTrust();  // a failed build changes it without a flag
  if (rowCount() > 0) emit dataChanged(index(0, 0), index(rowCount() - 1, flagsColumn()));
  return changed;
}

CandidateTableModel::RuntimeMarks CandidateTableModel::readRuntimeMarks() const {
  RuntimeMarks marks(m_values.size());
  for (std::size_t r = 0; m_history && r < marks.size(); ++r) {
    const runs::MeasuredRun* run = m_history->latestOfRecorded(static_cast<int>(r));
    if (!run || !run->result) continue;
    for (const auto& f : run->result->runtimeFlags) {
      FlagSeverity severity;
      if (runtimeSeverity(f.severity, &severity)) marks[r].emplace_back(f.family, severityRank(severity));
    }
  }
  return marks;
}

std::vector<std::string> CandidateTableModel::runtimeHackFamilies(int row) const {
  return ks::runtimeHackFamilies(m_history.get(), row);
}

double CandidateTableModel::measuredSpeedup(int row) const {
  const runs::MeasuredRun* run = m_history ? m_history->latestOfRecorded(row) : nullptr;
  if (run) return run->row.speedup ? *run->row.speedup : std::numeric_limits<double>::quiet_NaN();
  const Measurement* m = fileMeasured(row);
  return m && m->speedup && runs::outcomeOf(*m) == runs::Outcome::Correct
             ? *m->speedup
             : std::numeric_limits<double>::quiet_NaN();
}

const Measurement* CandidateTableModel::fileMeasured(int row) const {
  if (m_history && m_history->latestOfRecorded(row)) return nullptr;  // a re-run here is newer
  const Candidate* c = m_run ? m_run->candidate(row) : nullptr;
  return c ? c->lastMeasured() : nullptr;
}

double CandidateTableModel::referenceSpeedup(int row) const {
  return m_reference < 0 ? std::numeric_limits<double>::quiet_NaN() : speedup(row, m_reference);
}

void CandidateTableModel::setChosenSeries(int series) {
  if (series < 0 || series >= seriesCount() || series == m_chosen) return;
  const int old = chosenColumn();
  m_chosen = series;
  emit headerDataChanged(Qt::Horizontal, std::min(old, chosenColumn()), std::max(old, chosenColumn()));
}

MeasuredHistory::Agreement CandidateTableModel::agreement(int row) const {
  // Against the claim of what a re-run measures against: "default", the task's reference (a CUDA-L2
  // release records none; its re-runs' numbers per baseline are in the Measurements pane).
  const double recorded = referenceSpeedup(row);
  const std::optional<double> claim = std::isnan(recorded) ? std::nullopt : std::optional<double>(recorded);
  if (const Measurement* m = fileMeasured(row)) return runs::agreement(*m, claim);
  if (!m_history) return MeasuredHistory::Agreement::NotMeasured;
  return m_history->agreement(row, claim);
}

void CandidateTableModel::refreshFlags(std::shared_ptr<const LoadedRun> flagged) {
  emit layoutAboutToBeChanged();
  m_run = std::move(flagged);
  computeFlagValues();
  emit layoutChanged();
}

void CandidateTableModel::computeTrust() {
  m_trust.assign(m_values.size(), SpeedupTrust{});
  // The rule, where something could speak against a row's number (a static flag, a re-run): a million
  // rows of a fresh file have neither.
  for (std::size_t r = 0; m_run && r < m_values.size(); ++r)
    if (!m_run->flags(static_cast<int>(r)).empty() ||
        (m_history && m_history->latestOfRecorded(static_cast<int>(r))))
      m_trust[r] = speedupTrust(*m_run, m_history.get(), static_cast<int>(r));
}

void CandidateTableModel::computeFlagValues() {
  computeTrust();
  m_familyIds.clear();
  for (const auto& family : flagFamilies()) m_familyIds.emplace_back(family.id);
  m_familyRowCounts.assign(m_familyIds.size(), 0);
  m_flaggedRows = 0;
  for (std::size_t r = 0; r < m_values.size(); ++r) {
    RowValues& v = m_values[r];
    v.families.clear();
    v.flagCount = 0;
    v.worstSeverity = 0;
    if (m_run->flags(static_cast<int>(r)).empty() && (r >= m_runtime.size() || m_runtime[r].empty()))
      continue;
    std::vector<int> familyRank;  // the worst severity of each of v.families
    const auto add = [&](const std::string& family, int rank) {
      ++v.flagCount;
      v.worstSeverity = std::max(v.worstSeverity, rank);
      auto it = std::find(m_familyIds.begin(), m_familyIds.end(), family);
      if (it == m_familyIds.end()) {
        m_familyIds.push_back(family);
        m_familyRowCounts.push_back(0);
        it = m_familyIds.end() - 1;
      }
      const auto index = static_cast<std::uint16_t>(it - m_familyIds.begin());
      const auto seen = std::find(v.families.begin(), v.families.end(), index);
      if (seen != v.families.end()) {
        int& worst = familyRank[static_cast<std::size_t>(seen - v.families.begin())];
        worst = std::max(worst, rank);
        return;
      }
      v.families.push_back(index);
      familyRank.push_back(rank);
      ++m_familyRowCounts[index];
    };
    for (const Flag& f : m_run->flags(static_cast<int>(r))) add(f.family, severityRank(f.severity));
    if (r < m_runtime.size())
      for (const auto& [family, rank] : m_runtime[r]) add(family, rank);
    // The worst family first (the column shows the hack, not the first benign family it found);
    // families of one severity stay in the order they were raised.
    std::vector<std::size_t> order(v.families.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return familyRank[a] > familyRank[b]; });
    std::vector<std::uint16_t> sorted;
    for (std::size_t i : order) sorted.push_back(v.families[i]);
    v.families = std::move(sorted);
    if (countsAsFlagged(rankSeverity(v.worstSeverity))) ++m_flaggedRows;
  }
}

int CandidateTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !m_run ? 0 : m_run->rowCount();
}

int CandidateTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : codeColumn() + 1;
}

QVariant CandidateTableModel::data(const QModelIndex& index, int role) const {
  if (!m_run || !index.isValid()) return {};
  const int row = index.row();
  const int column = index.column();
  const bool isSpeedup = column >= FirstSpeedupColumn && column < measuredColumn();
  const bool isMeasured = column == measuredColumn();
  using Agreement = MeasuredHistory::Agreement;
  switch (role) {
    case Qt::DisplayRole:
      return display(row, column);
    case Qt::ToolTipRole:
      return toolTip(row, column);
    case Qt::TextAlignmentRole:
      if (isSpeedup || isMeasured || column == LevelColumn || column == StepColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
      if (column == codeColumn()) return QVariant::fromValue(Qt::AlignCenter);
      return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
      if (isSpeedup) {
        const double s = speedup(row, column - FirstSpeedupColumn);
        if (std::isnan(s)) return QBrush(QColor(0x80, 0x80, 0x80));
        if (s < 1.0) return QBrush(QColor(0xb0, 0x20, 0x20));
      }
      if (isMeasured && agreement(row) == Agreement::NotMeasured) return QBrush(QColor(0x80, 0x80, 0x80));
      if (isMeasured && m_history) {  // the PyTorch fallback's number is no win of the kernel's: muted
        const runs::MeasuredRun* run = m_history->latestOfRecorded(row);
        if (run && fellBack(*run)) return QBrush(QColor(0x80, 0x80, 0x80));
      }
      return {};
    case Qt::FontRole:
      // docs/hacks.md: a number produced by a hack, or a fallback's, is shown struck out, with the evidence
      // (speedup_trust.h); a recorded claim is when a hack was caught in its code or its re-run.
      if ((isMeasured && !trust(row).trusted && agreement(row) != Agreement::NotMeasured) ||
          (isSpeedup && trust(row).hack)) {
        QFont font;
        font.setStrikeOut(true);
        return font;
      }
      return {};
    case Qt::DecorationRole:
      if (isMeasured && !trust(row).trusted && agreement(row) != Agreement::NotMeasured) return hackIcon();
      return {};
    case Qt::BackgroundRole:
      if (column == flagsColumn()) {
        const int worst = values(row).worstSeverity;
        if (worst == 3) return QBrush(QColor(0xf8, 0xd7, 0xda));
        if (worst == 2) return QBrush(QColor(0xff, 0xf0, 0xc2));
      }
      if (isMeasured) {
        const Agreement a = agreement(row);
        if (a == Agreement::Failed || (a != Agreement::NotMeasured && !trust(row).trusted))
          return QBrush(QColor(0xf8, 0xd7, 0xda));
        if (a == Agreement::Disagrees) return QBrush(QColor(0xff, 0xf0, 0xc2));
      }
      return {};
    default:
      return {};
  }
}

QVariant CandidateTableModel::display(int row, int column) const {
  const Task& task = m_run->task(row);
  const Candidate* c = m_run->candidate(row);
  const RowValues& v = values(row);
  if (column == TaskColumn) return QString::fromStdString(m_taskLabels[static_cast<std::size_t>(v.task)]);
  if (column == LevelColumn) return v.level;
  if (column == NameColumn) return QString::fromStdString(task.name);
  if (column == CandidateColumn) return c ? QString::fromStdString(c->id) : QStringLiteral("—");
  if (column == StepColumn) return v.step >= 0 ? QVariant(v.step) : QVariant();
  if (column < measuredColumn()) {
    const double s = speedup(row, column - FirstSpeedupColumn);
    return std::isnan(s) ? QStringLiteral("—") : formatSpeedup(s);
  }
  if (column == measuredColumn()) return measuredDisplay(row);
  if (column == flagsColumn()) {
    QStringList ids;
    for (auto f : v.families) ids << QString::fromStdString(m_familyIds[f]);
    return ids.join(QStringLiteral(", "));
  }
  if (column == codeColumn()) return v.hasCode ? QStringLiteral("✓") : QString();
  return {};
}

QVariant CandidateTableModel::toolTip(int row, int column) const {
  const Candidate* c = m_run->candidate(row);
  if (column == NameColumn) return QString::fromStdString(m_run->task(row).name);
  if (column == TaskColumn && m_run->task(row).gemm) {  // the shape alone: the key and name say the rest
    const Task& task = m_run->task(row);
    return task.name.empty() ? QString::fromStdString(task.key())
                             : QStringLiteral("%1\n%2").arg(QString::fromStdString(task.key()),
                                                            QString::fromStdString(task.name));
  }
  if (column == measuredColumn()) return measuredToolTip(row);
  if (column >= FirstSpeedupColumn && column < measuredColumn() && c) {
    const SpeedupSeries& series = m_series[static_cast<std::size_t>(column - FirstSpeedupColumn)];
    const QString label = QString::fromStdString(seriesLabel(series));
    if (const Measurement* found = recordedMeasurement(*c, series)) {
      const Measurement& m = *found;
      QString tip = series.mode.empty()
                        ? tr("%1 against baseline \"%2\", as recorded in the file")
                              .arg(formatSpeedup(*m.speedup), QString::fromStdString(series.baseline))
                        : tr("%1 against baseline \"%2\" in timing mode \"%3\", as recorded in the file")
                              .arg(formatSpeedup(*m.speedup), QString::fromStdString(series.baseline),
                                   QString::fromStdString(series.mode));
      if (m.baselineMs && m.candidateMs)
        tip += tr("\n%1 ms → %2 ms").arg(*m.baselineMs, 0, 'g', 4).arg(*m.candidateMs, 0, 'g', 4);
      if (!m.device.empty()) tip += tr("\non %1").arg(QString::fromStdString(m.device));
      if (trust(row).hack)
        for (const std::string& reason : trust(row).reasons)
          tip += tr("\nStruck out: %1").arg(QString::fromStdString(reason));
      return tip;
    }
    return tr("No speedup recorded against \"%1\"").arg(label);
  }
  if (column == flagsColumn()) {
    // Every flag, the worst first (a stable sort keeps static before runtime within a severity).
    std::vector<std::pair<int, QString>> lines;
    for (const Flag& f : m_run->flags(row))
      lines.emplace_back(severityRank(f.severity),
                         QStringLiteral("%1 · %2: %3")
                             .arg(QString::fromUtf8(severityName(f.severity)),
                                  QString::fromStdString(f.family), QString::fromStdString(f.message)));
    const runs::MeasuredRun* run = m_history ? m_history->latestOfRecorded(row) : nullptr;
    if (run && run->result)
      for (const auto& f : run->result->runtimeFlags) {
        FlagSeverity severity = FlagSeverity::Suspicious;
        const int rank = runtimeSeverity(f.severity, &severity) ? severityRank(severity) : 0;
        lines.emplace_back(
            rank, tr("%1 · %2 (runtime, %3): %4")
                      .arg(QString::fromStdString(f.severity), QString::fromStdString(f.family),
                           QString::fromStdString(run->result->device), QString::fromStdString(f.message)));
      }
    if (lines.empty()) return {};
    std::stable_sort(lines.begin(), lines.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    QStringList text;
    for (const auto& [rank, line] : lines) text << line;
    return text.join('\n');
  }
  if (column == codeColumn())
    return values(row).hasCode ? tr("The file records a program") : tr("The file records no program");
  return {};
}

QVariant CandidateTableModel::measuredDisplay(int row) const {
  const runs::MeasuredRun* run = m_history ? m_history->latestOfRecorded(row) : nullptr;
  if (!run) return fileMeasuredDisplay(row);
  // Failures are short ("✗ timeout") so that they fit the column; the colour and the tooltip say more.
  if (run->row.outcome == "error") return tr("✗ %1").arg(QString::fromStdString(run->row.errorKind));
  if (run->row.outcome == "incorrect") return tr("✗ incorrect");
  if (!run->row.speedup) return tr("not timed");
  // The verdict first: "hack · 10059.9×", struck through by the font.
  const SpeedupTrust& t = trust(row);
  const QString verdict = t.hack ? tr("hack") : t.fellBack ? tr("fell back") : QString();
  return verdict.isEmpty() ? formatSpeedup(*run->row.speedup)
                           : QStringLiteral("%1 · %2").arg(verdict, formatSpeedup(*run->row.speedup));
}

QVariant CandidateTableModel::fileMeasuredDisplay(int row) const {
  const Measurement* m = fileMeasured(row);
  if (!m) return QStringLiteral("—");
  // As a re-run's (measuredDisplay): a failure short, the verdict before a number the rule speaks against.
  switch (runs::outcomeOf(*m)) {
    case runs::Outcome::Incorrect:
      return tr("✗ incorrect");
    case runs::Outcome::Error:
      return tr("✗ error");
    case runs::Outcome::Correct:
      break;
  }
  if (!m->speedup) return tr("not timed");
  const SpeedupTrust& t = trust(row);
  const QString verdict = t.hack ? tr("hack") : t.fellBack ? tr("fell back") : QString();
  return verdict.isEmpty() ? formatSpeedup(*m->speedup)
                           : QStringLiteral("%1 · %2").arg(verdict, formatSpeedup(*m->speedup));
}

QString CandidateTableModel::measuredToolTip(int row) const {
  const runs::MeasuredRun* run = m_history ? m_history->latestOfRecorded(row) : nullptr;
  if (!run && fileMeasured(row)) {
    const Measurement& m = *fileMeasured(row);
    const runs::Outcome outcome = runs::outcomeOf(m);
    QString tip = outcome == runs::Outcome::Incorrect
                      ? tr("Incorrect: %1").arg(QString::fromStdString(m.error))
                  : outcome == runs::Outcome::Error ? tr("Error: %1").arg(QString::fromStdString(m.error))
                  : m.speedup                       ? tr("Measured %1").arg(formatSpeedup(*m.speedup))
                                                    : tr("Correct, not timed");
    tip +=
        tr(" by KernelScope on %1, %2 (carried by the file, origin \"measured\"; Run (F9) re-times it "
           "here)")
            .arg(QString::fromStdString(m.device.empty() ? std::string("an unnamed device") : m.device.str()),
                 QString::fromStdString(m.when.str()));
    for (const std::string& reason : trust(row).reasons)
      tip += tr("\nStruck out: %1").arg(QString::fromStdString(reason));
    return tip;
  }
  if (!run) return tr("Not measured here: Run (F9) re-times the recorded program on this machine");
  const auto& r = run->row;
  QString tip = r.outcome == "error"       ? tr("Error (%1)").arg(QString::fromStdString(r.errorKind))
                : r.outcome == "incorrect" ? tr("Incorrect: the output does not match the reference")
                : r.speedup                ? tr("Measured %1").arg(speedupWithSpread(*run))
                                           : tr("Correct, not timed");
  tip += tr(" on %1, %2 (%3)")
             .arg(QString::fromStdString(r.device), QString::fromStdString(r.recordedAt),
                  QString::fromStdString(r.origin));
  const double recorded = referenceSpeedup(row);
  switch (agreement(row)) {
    case MeasuredHistory::Agreement::Agrees:
    case MeasuredHistory::Agreement::Disagrees: {
      const bool disagrees = agreement(row) == MeasuredHistory::Agreement::Disagrees;
      const double change = *r.speedup / recorded - 1.0;
      tip +=
          tr("\nRecorded %1: measured is %2% %3%4")
              .arg(formatSpeedup(recorded))
              .arg(std::abs(change) * 100, 0, 'f', 0)
              .arg(change < 0 ? tr("lower") : tr("higher"))
              .arg(
                  disagrees
                      ? tr(", more than the %1% they may differ by").arg(runs::kDisagreement * 100, 0, 'f', 0)
                      : QString());
      break;
    }
    default:
      break;
  }
  for (const std::string& reason : trust(row).reasons)
    tip += tr("\nStruck out: %1").arg(QString::fromStdString(reason));
  if (!runtimeHackFamilies(row).empty()) tip += tr("\nThe Flags pane has what the probes measured");
  return tip;
}

QVariant CandidateTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  const bool isSpeedup = section >= FirstSpeedupColumn && section < measuredColumn();
  if (role == Qt::DisplayRole) {
    switch (section) {
      case TaskColumn:
        return m_allGemm ? tr("Shape (M×N×K)") : tr("Task");
      case LevelColumn:
        return tr("Level");
      case NameColumn:
        return tr("Name");
      case CandidateColumn:
        return tr("Candidate");
      case StepColumn:
        return tr("Step");
      default:
        break;
    }
    if (isSpeedup) {
      // The chosen series is the Speedup column and says which one it is; the others are "vs <series>".
      const SpeedupSeries& series = m_series[static_cast<std::size_t>(section - FirstSpeedupColumn)];
      const QString label = series.mode.empty()
                                ? baselineLabel(series.baseline)
                                : tr("vs %1").arg(QString::fromStdString(seriesLabel(series)));
      if (section != chosenColumn()) return series.isDefault() ? tr("vs default") : label;
      if (series.isDefault()) return label;  // "Speedup"
      // A baseline and a mode on lines of their own, so that the column stays about as narrow as its
      // numbers: "Speedup vs" / "cuBLAS-max" / "(offline)".
      if (!series.mode.empty())
        return tr("Speedup vs\n%1").arg(headerLines(series.baseline + " (" + series.mode + ")"));
      return tr("Speedup %1").arg(label);
    }
    if (section == measuredColumn()) return tr("Measured");
    if (section == flagsColumn()) return tr("Flags");
    if (section == codeColumn()) return tr("Code");
  }
  if (role == Qt::ToolTipRole && isSpeedup)
    return tr("Recorded speedup against %1 (a claim read from the file); the vs box chooses the baseline "
              "the Speedup column shows")
        .arg(QString::fromStdString(
            seriesLabel(m_series[static_cast<std::size_t>(section - FirstSpeedupColumn)])));
  if (role == Qt::ToolTipRole && section == TaskColumn && m_allGemm)
    return tr("The GEMM's shape: A is M×K, B is K×N (the task's key and name in each row's tooltip)");
  if (role == Qt::ToolTipRole && section == measuredColumn())
    return tr("Latest speedup measured here for the recorded program (vs the reference), else the one the "
              "file carries from an earlier KernelScope run (origin \"measured\"); coloured when it "
              "differs from the recorded one by more than %1% or the run failed, struck out with a warning "
              "sign when the run's probes caught a hack")
        .arg(runs::kDisagreement * 100, 0, 'f', 0);
  if (role == Qt::TextAlignmentRole && (isSpeedup || section == measuredColumn()))
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  return {};
}

}  // namespace ks
