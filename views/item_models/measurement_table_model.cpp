#include "views/item_models/measurement_table_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <algorithm>
#include <cmath>

#include "core/runs/agreement.h"
#include "views/logic/measured_format.h"
#include "views/logic/speedup_format.h"
#include "views/logic/speedup_trust.h"

namespace ks {
namespace {

const QColor kMuted(0x80, 0x80, 0x80);

QString general(double v) { return std::isfinite(v) ? QString::number(v, 'g', 2) : QStringLiteral("—"); }

}  // namespace

MeasurementTableModel::MeasurementTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void MeasurementTableModel::showRow(std::shared_ptr<const LoadedRun> run,
                                    std::shared_ptr<const MeasuredHistory> history, int row) {
  beginResetModel();
  m_run = std::move(run);
  m_history = std::move(history);
  m_row = m_run && row >= 0 && row < m_run->rowCount() ? row : -1;
  endResetModel();
}

void MeasurementTableModel::refresh() {
  beginResetModel();
  endResetModel();
}

const Candidate* MeasurementTableModel::candidate() const {
  return m_row < 0 ? nullptr : m_run->candidate(m_row);
}

int MeasurementTableModel::claimCount() const {
  const Candidate* c = candidate();
  return c ? static_cast<int>(c->measurements.size()) : 0;
}

const MeasuredHistory::Entry* MeasurementTableModel::entry(int row) const {
  if (!m_history || row < claimCount()) return nullptr;
  const auto& entries = m_history->entries(m_row);
  const auto index = static_cast<std::size_t>(row - claimCount());
  return index < entries.size() ? &entries[index] : nullptr;
}

int MeasurementTableModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || m_row < 0) return 0;
  return claimCount() + (m_history ? static_cast<int>(m_history->entries(m_row).size()) : 0);
}

int MeasurementTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant MeasurementTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || m_row < 0) return {};
  if (role == Qt::TextAlignmentRole) {
    const int c = index.column();
    const bool number =
        c == SpeedupColumn || c == MaxErrorColumn || c == ClockGapColumn || c == KernelsColumn;
    return QVariant::fromValue((number ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
  }
  if (index.row() < claimCount())
    return claimData(candidate()->measurements[static_cast<std::size_t>(index.row())], index.column(), role);
  if (const MeasuredHistory::Entry* e = entry(index.row())) return runData(*e, index.column(), role);
  return {};
}

QVariant MeasurementTableModel::claimData(const Measurement& m, int column, int role) const {
  // A claim is shown by the one rule (speedup_trust.h): the verdict first, struck through for a hack.
  const SpeedupTrust trust = speedupTrust(*m_run, m_history.get(), m_row);
  const ClaimDisplay shown = claimDisplay(trust);
  if (role == Qt::FontRole && column == SpeedupColumn && m.speedup && shown.struck) {
    QFont font;
    font.setStrikeOut(true);
    return font;
  }
  if (role == Qt::BackgroundRole && column == OutcomeColumn && !shown.verdict.empty())
    return QBrush(QColor(0xf8, 0xd7, 0xda));
  if (role == Qt::ForegroundRole && column != SpeedupColumn) return QBrush(kMuted);
  if (role == Qt::ToolTipRole) {
    QString tip = tr("A claim read from the file (%1), not measured by KernelScope")
                      .arg(QString::fromStdString(m_run->run().path));
    for (const std::string& reason : trust.reasons)
      tip += tr("\n%1: %2")
                 .arg(shown.struck ? tr("Struck through") : tr("Not a win"), QString::fromStdString(reason));
    return tip;
  }
  if (role != Qt::DisplayRole) return {};
  switch (column) {
    case WhenColumn:
      return m.when.empty() ? QStringLiteral("—") : localTime(m.when);
    case WhatColumn:
      return m.origin == "recorded" ? tr("recorded in the file")
                                    : tr("%1 in the file").arg(QString::fromStdString(m.origin));
    case DeviceColumn:
      return m.device.empty() ? QStringLiteral("—") : QString::fromStdString(m.device);
    case OutcomeColumn:
      return shown.verdict.empty() ? tr("claimed")
                                   : tr("%1 · claimed").arg(QString::fromStdString(shown.verdict));
    case SpeedupColumn:
      return m.speedup ? formatSpeedup(*m.speedup) : QStringLiteral("—");
    case VsColumn:
      return QString::fromStdString(m.baseline);
    case OriginColumn:
      return tr("file");
    default:
      return QStringLiteral("—");
  }
}

QVariant MeasurementTableModel::runData(const MeasuredHistory::Entry& e, int column, int role) const {
  const runs::MeasuredRun& run = e.run;
  const protocol::EvaluateResult* r = run.result ? &*run.result : nullptr;
  if (role == Qt::BackgroundRole && column == OutcomeColumn) {
    if (run.row.outcome == "error" || run.row.outcome == "incorrect" || !runTrust(run).trusted)
      return QBrush(QColor(0xf8, 0xd7, 0xda));
    return {};
  }
  // A caught hack's or a fallback's number is struck through (speedup_trust.h).
  if (role == Qt::FontRole && column == SpeedupColumn && run.row.speedup && !runTrust(run).trusted) {
    QFont font;
    font.setStrikeOut(true);
    return font;
  }
  if (role == Qt::BackgroundRole && column == SpeedupColumn && e.recordedProgram && run.row.speedup) {
    const Candidate* c = candidate();
    const auto recorded = c ? c->speedup() : std::nullopt;
    if (recorded && runs::disagrees(*run.row.speedup, *recorded)) return QBrush(QColor(0xff, 0xf0, 0xc2));
    return {};
  }
  if (role == Qt::ToolTipRole) {
    switch (column) {
      case WhatColumn: {
        QString tip = tr("%1\ncode %2")
                          .arg(e.recordedProgram ? tr("The program the file records")
                               : run.repair      ? tr("The candidate's program, repaired (--repair)")
                                                 : tr("An edited version of the candidate"),
                               QString::fromStdString(run.row.codeHash));
        if (const QString repairs = repairLines(run); !repairs.isEmpty())
          tip += QStringLiteral("\n") + repairs;
        return tip;
      }
      case SpeedupColumn: {
        const SpeedupTrust trust = runTrust(run);
        QString tip =
            r && r->timing
                ? tr("Reference median / candidate median: %1 ms / %2 ms over %3 trials (%4); in "
                     "brackets the 95% bootstrap interval over the trials (it covers their spread, not "
                     "what changes between runs), or for older results ± the candidate's coefficient of "
                     "variation")
                      .arg(r->timing->reference.medianMs, 0, 'g', 4)
                      .arg(r->timing->candidate.medianMs, 0, 'g', 4)
                      .arg(r->timing->trials)
                      .arg(QString::fromStdString(r->timing->clock))
                : (r ? QString::fromStdString(r->timingNote) : QString());
        for (const std::string& reason : trust.reasons)
          tip += tr("\nStruck through: %1").arg(QString::fromStdString(reason));
        return tip;
      }
      case ClockGapColumn:
        return tr(
            "Median of host wall-clock minus the official clock per candidate call: work on other streams "
            "or threads shows here");
      case KernelsColumn: {
        if (!r) return {};
        QStringList names;
        for (const auto& k : r->kernels)
          if (k.model == "candidate")
            names << QStringLiteral("%1 × %2 (%3 µs)")
                         .arg(QString::fromStdString(k.name))
                         .arg(k.calls)
                         .arg(k.totalUs, 0, 'f', 1);
        return names.isEmpty() ? QString::fromStdString(r->kernelsNote) : names.join('\n');
      }
      case OutcomeColumn: {
        QStringList lines;
        if (run.error) lines << QString::fromStdString(run.error->message);
        for (const std::string& reason : runTrust(run).reasons) lines << QString::fromStdString(reason);
        return lines.isEmpty() ? QVariant() : QVariant(lines.join('\n'));
      }
      default:
        return {};
    }
  }
  if (role != Qt::DisplayRole) return {};
  const Candidate* c = candidate();
  switch (column) {
    case WhenColumn:
      return localTime(run.row.recordedAt);
    case WhatColumn: {
      const QString id = QString::fromStdString(c ? c->id : run.row.candidateId);
      return e.recordedProgram ? id
             : run.repair      ? tr("%1 (%2)").arg(id, repairText(run))
                               : tr("%1 (edited)").arg(id);
    }
    case DeviceColumn: {
      const QString host = hostText(run);
      return host.isEmpty() ? deviceText(run) : QStringLiteral("%1, %2").arg(deviceText(run), host);
    }
    case OutcomeColumn:
      return trustedOutcomeText(run);
    case SpeedupColumn:
      return speedupWithSpread(run);
    case VsColumn:
      return tr("reference");
    case MaxErrorColumn: {
      if (!r || r->correctness.seeds.empty()) return QStringLiteral("—");
      double worst = 0;
      for (const auto& s : r->correctness.seeds) worst = std::max(worst, s.maxAbsErr);
      return general(worst);
    }
    case ClockGapColumn:
      return r && r->timing ? tr("%1 ms").arg(general(r->timing->candidate.clockGapMs)) : QStringLiteral("—");
    case KernelsColumn: {
      if (!r || r->kernels.empty()) return QStringLiteral("—");
      return static_cast<int>(
          std::count_if(r->kernels.begin(), r->kernels.end(),
                        [](const protocol::KernelLaunch& k) { return k.model == "candidate"; }));
    }
    case OriginColumn:
      return QString::fromStdString(run.row.origin);
    default:
      return {};
  }
}

QVariant MeasurementTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case WhenColumn:
      return tr("When");
    case WhatColumn:
      return tr("Program");
    case DeviceColumn:
      return tr("Device");
    case OutcomeColumn:
      return tr("Result");
    case SpeedupColumn:
      return tr("Speedup");
    case VsColumn:
      return tr("vs");
    case MaxErrorColumn:
      return tr("Max error");
    case ClockGapColumn:
      return tr("Clock gap");
    case KernelsColumn:
      return tr("Kernels");
    case OriginColumn:
      return tr("By");
    default:
      return {};
  }
}

}  // namespace ks
