#include "views/item_models/flag_matrix_model.h"

#include <QBrush>
#include <QFont>
#include <QRegularExpression>

#include "core/flags/flag_families.h"
#include "views/logic/counted.h"
#include "views/logic/loaded_run.h"

namespace ks {
namespace {

constexpr int kMaxTipFlags = 12;  // sentences listed in a cell's tooltip; the rest are counted
constexpr int kNameChars = 24;    // characters of a task's name in its row header

QString qs(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

const char* severityWord(FlagMatrix::Severity s) {
  switch (s) {
    case FlagMatrix::Hack:
      return "hack";
    case FlagMatrix::Suspicious:
      return "suspicious";
    case FlagMatrix::Benign:
      return "benign";
    case FlagMatrix::None:
      break;
  }
  return "none";
}

// "12_Matmul_with_diagonal_matrices_" → "Matmul_with_diagonal_matr…": the key already has the number.
QString shortName(const std::string& name) {
  static const QRegularExpression number(QStringLiteral("^\\d+_"));
  QString s = QString::fromStdString(name).remove(number);
  return s.size() > kNameChars ? s.left(kNameChars - 1) + QStringLiteral("…") : s;
}

}  // namespace

FlagMatrixModel::FlagMatrixModel(QObject* parent) : QAbstractTableModel(parent) {}

void FlagMatrixModel::setRun(std::shared_ptr<const LoadedRun> run,
                             std::shared_ptr<const MeasuredHistory> history) {
  m_run = std::move(run);
  m_history = std::move(history);
  refresh();
}

void FlagMatrixModel::refresh() {
  beginResetModel();
  m_matrix = m_run ? FlagMatrix(*m_run, m_history.get()) : FlagMatrix();
  endResetModel();
}

QColor FlagMatrixModel::severityColor(FlagMatrix::Severity severity) {
  switch (severity) {
    case FlagMatrix::Hack:
      return {0xcf, 0x22, 0x2e};
    case FlagMatrix::Suspicious:
      return {0xf2, 0xc1, 0x4e};
    case FlagMatrix::Benign:
      return {0xa8, 0xd1, 0xf5};
    case FlagMatrix::None:
      break;
  }
  return {};
}

QColor FlagMatrixModel::textColor(FlagMatrix::Severity severity) {
  return severity == FlagMatrix::Hack ? QColor(Qt::white) : QColor(0x1f, 0x23, 0x28);
}

int FlagMatrixModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : m_matrix.rowCount();
}

int FlagMatrixModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : m_matrix.columnCount();
}

QVariant FlagMatrixModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  const FlagMatrix::Cell& cell = m_matrix.cell(index.row(), index.column());
  switch (role) {
    case Qt::DisplayRole:
      return cell.worst == FlagMatrix::None ? QString() : QString::number(cell.candidates);
    case Qt::BackgroundRole:
      return cell.worst == FlagMatrix::None ? QVariant() : QVariant(QBrush(severityColor(cell.worst)));
    case Qt::ForegroundRole:
      return QBrush(textColor(cell.worst));
    case Qt::TextAlignmentRole:
      return QVariant::fromValue(Qt::AlignCenter);
    case Qt::ToolTipRole:
      return cellToolTip(index.row(), index.column());
    case SeverityRole:
      return static_cast<int>(cell.worst);
    case RuntimeRole:
      return cell.runtime;
    default:
      return {};
  }
}

QString FlagMatrixModel::cellToolTip(int row, int column) const {
  const FlagMatrix::TaskRow& t = m_matrix.tasks()[static_cast<std::size_t>(row)];
  const Task& task = m_run->run().tasks[static_cast<std::size_t>(t.task)];
  const std::string& family = m_matrix.families()[static_cast<std::size_t>(column)];
  const FlagFamily* known = findFlagFamily(family);
  const FlagMatrix::Cell& cell = m_matrix.cell(row, column);
  QString tip = QStringLiteral("<b>%1</b> %2<br><b>%3</b>%4")
                    .arg(QString::fromStdString(task.key()).toHtmlEscaped(),
                         QString::fromStdString(task.name).toHtmlEscaped(), QString::fromStdString(family),
                         known ? QStringLiteral(" — ") + qs(known->title).toHtmlEscaped() : QString());
  if (cell.worst == FlagMatrix::None)
    return tip + tr("<br>Not raised on this task. Click to select its %1.")
                     .arg(counted(t.rowCount, tr("candidate"), tr("candidates")));
  tip += tr("<br>worst: %1 · raised by %2 of %3")
             .arg(QString::fromUtf8(severityWord(cell.worst)))
             .arg(cell.candidates)
             .arg(counted(t.rowCount, tr("candidate"), tr("candidates")));
  const auto entries = m_matrix.entries(*m_run, m_history.get(), row, column);
  QString list;
  int shown = 0;
  for (const auto& e : entries) {
    if (shown++ == kMaxTipFlags) break;
    const Candidate* c = m_run->candidate(e.row);
    const QString source = e.flag.origin == "runtime"
                               ? tr("runtime, %1").arg(QString::fromStdString(e.device))
                               : QString::fromStdString(e.flag.origin);
    QString lines;
    for (int line : e.flag.lines)
      lines += (lines.isEmpty() ? tr(" line ") : QStringLiteral(", ")) + QString::number(line);
    list += QStringLiteral("<li>%1 <i>%2 · %3%4</i>: %5</li>")
                .arg(c ? QString::fromStdString(c->id).toHtmlEscaped() : QString(),
                     QString::fromUtf8(severityName(e.flag.severity)), source, lines,
                     QString::fromStdString(e.flag.message).toHtmlEscaped());
  }
  tip += QStringLiteral("<ul style='margin-left: 12px; -qt-list-indent: 0'>%1</ul>").arg(list);
  if (static_cast<int>(entries.size()) > kMaxTipFlags)
    tip += tr("… and %1 more<br>").arg(static_cast<int>(entries.size()) - kMaxTipFlags);
  return tip + tr("Click to list these candidates in the task list, filtered by %1.")
                   .arg(QString::fromStdString(family));
}

QVariant FlagMatrixModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation == Qt::Horizontal) {
    if (section < 0 || section >= m_matrix.columnCount()) return {};
    const std::string& family = m_matrix.families()[static_cast<std::size_t>(section)];
    const int tasks = m_matrix.familyTaskCount(section);
    if (role == Qt::DisplayRole) return QString::fromStdString(family);
    if (role == Qt::ForegroundRole)
      return QBrush(tasks > 0 ? QColor(0x1f, 0x23, 0x28) : QColor(0x8c, 0x95, 0x9f));
    if (role == Qt::ToolTipRole) {
      const FlagFamily* known = findFlagFamily(family);
      QString tip = QStringLiteral("<b>%1</b>").arg(QString::fromStdString(family));
      if (known)
        tip += QStringLiteral(" — %1 (%2)<br>%3")
                   .arg(qs(known->title).toHtmlEscaped(), QString::fromUtf8(severityName(known->severity)),
                        qs(known->description).toHtmlEscaped());
      return tip + tr("<br>Raised on %1; click to list their candidates.")
                       .arg(counted(tasks, tr("task charted"), tr("tasks charted")));
    }
    return {};
  }
  if (section < 0 || section >= m_matrix.rowCount() || !m_run) return {};
  const FlagMatrix::TaskRow& t = m_matrix.tasks()[static_cast<std::size_t>(section)];
  const Task& task = m_run->run().tasks[static_cast<std::size_t>(t.task)];
  if (role == Qt::DisplayRole)
    return QStringLiteral("%1  %2").arg(QString::fromStdString(task.key()), shortName(task.name));
  if (role == Qt::ToolTipRole)
    return tr("%1 %2 — %3; click to select them")
        .arg(QString::fromStdString(task.key()), QString::fromStdString(task.name),
             counted(t.rowCount, tr("candidate"), tr("candidates")));
  if (role == Qt::TextAlignmentRole) return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
  return {};
}

}  // namespace ks
