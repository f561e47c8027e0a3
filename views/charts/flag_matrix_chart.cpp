#include "views/charts/flag_matrix_chart.h"

#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "views/logic/counted.h"
#include "views/logic/loaded_run.h"
#include "views/logic/stage_timer.h"
#include "views/item_models/flag_matrix_model.h"

namespace ks {
namespace {

const QColor kEmpty(0xf3, 0xf5, 0xf7);
const QColor kRuntimeCorner(0x1f, 0x23, 0x28);
const QColor kFocus(0x09, 0x69, 0xda);

// Column headers written bottom to top, so that every family id of the catalog fits above narrow cells.
class RotatedHeader : public QHeaderView {
 public:
  explicit RotatedHeader(QWidget* parent) : QHeaderView(Qt::Horizontal, parent) {
    setSectionsClickable(true);
    setHighlightSections(false);
  }

 protected:
  QSize sectionSizeFromContents(int logical) const override {
    const QString text = model() ? model()->headerData(logical, orientation()).toString() : QString();
    const QFontMetrics fm(font());
    return {fm.height() + 8, fm.horizontalAdvance(text) + 14};
  }

  void paintSection(QPainter* painter, const QRect& rect, int logical) const override {
    if (!rect.isValid() || !model()) return;
    QStyleOptionHeader option;
    initStyleOption(&option);
    option.rect = rect;
    option.section = logical;
    style()->drawControl(QStyle::CE_HeaderSection, &option, painter, this);
    const QString text = model()->headerData(logical, orientation()).toString();
    const QVariant colour = model()->headerData(logical, orientation(), Qt::ForegroundRole);
    painter->save();
    painter->setPen(colour.isValid() ? colour.value<QBrush>().color() : palette().color(QPalette::Text));
    const QFontMetrics fm(font());
    painter->translate(rect.left() + (rect.width() + fm.ascent() - fm.descent()) / 2, rect.bottom() - 7);
    painter->rotate(-90);
    painter->drawText(0, 0, text);
    painter->restore();
  }
};

// A cell: its severity's colour with a gap around it, the count, a corner when a re-run measured it, a frame
// on the current cell (instead of the selection highlight, which would hide the colour).
class CellDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;

  void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override {
    painter->save();
    const QRect r = option.rect.adjusted(1, 1, -1, -1);
    const QVariant background = index.data(Qt::BackgroundRole);
    painter->fillRect(r, background.isValid() ? background.value<QBrush>() : QBrush(kEmpty));
    if (index.data(FlagMatrixModel::RuntimeRole).toBool()) {
      QPainterPath corner;
      corner.moveTo(r.topRight() + QPointF(1, 0));
      corner.lineTo(r.topRight() + QPointF(-7, 0));
      corner.lineTo(r.topRight() + QPointF(1, 8));
      corner.closeSubpath();
      painter->setRenderHint(QPainter::Antialiasing);
      painter->fillPath(corner, kRuntimeCorner);
    }
    const QString text = index.data().toString();
    if (!text.isEmpty()) {
      QFont font = option.font;
      font.setBold(true);
      // Cells fit two digits; a larger count is drawn smaller rather than cut.
      const int width = QFontMetrics(font).horizontalAdvance(text);
      if (width > r.width() - 2 && font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * (r.width() - 2) / width);
      painter->setFont(font);
      painter->setPen(index.data(Qt::ForegroundRole).value<QBrush>().color());
      painter->drawText(r, Qt::AlignCenter, text);
    }
    if (option.state & QStyle::State_HasFocus) {
      painter->setPen(QPen(kFocus, 2));
      painter->setBrush(Qt::NoBrush);
      painter->drawRect(r.adjusted(1, 1, -1, -1));
    }
    painter->restore();
  }
};

QString swatch(const QColor& colour, const QString& label) {
  return QStringLiteral("<span style='background-color: %1'>&nbsp;&nbsp;&nbsp;&nbsp;</span>&nbsp;%2")
      .arg(colour.name(), label);
}

}  // namespace

FlagMatrixChart::FlagMatrixChart(QWidget* parent)
    : QWidget(parent),
      m_model(new FlagMatrixModel(this)),
      m_view(new QTableView(this)),
      m_summary(new QLabel(this)),
      m_legend(new QLabel(this)) {
  m_view->setObjectName(QStringLiteral("flagMatrix"));
  m_view->setHorizontalHeader(new RotatedHeader(m_view));
  m_view->setModel(m_model);
  m_view->setItemDelegate(new CellDelegate(m_view));
  m_view->setShowGrid(false);
  m_view->setSelectionMode(QAbstractItemView::NoSelection);
  m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_view->setMouseTracking(true);
  const QFontMetrics fm(font());
  // Fixed sizes: thousands of task rows are never measured one by one.
  m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  m_view->horizontalHeader()->setDefaultSectionSize(
      std::max(fm.height() + 6, fm.horizontalAdvance(QStringLiteral("00")) + 12));
  m_view->horizontalHeader()->setMinimumSectionSize(fm.height());
  m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  m_view->verticalHeader()->setDefaultSectionSize(fm.height() + 8);
  m_view->verticalHeader()->setSectionsClickable(true);
  m_view->verticalHeader()->setHighlightSections(false);
  m_view->verticalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
  connect(m_view, &QTableView::clicked, this, &FlagMatrixChart::cellClicked);
  connect(m_view, &QTableView::activated, this, &FlagMatrixChart::cellClicked);
  connect(m_view->verticalHeader(), &QHeaderView::sectionClicked, this, [this](int row) {
    const auto rows = m_model->matrix().rowsOf(*m_run, m_history.get(), row, -1);
    emit rowsSelected(QList<int>(rows.begin(), rows.end()));
  });
  connect(m_view->horizontalHeader(), &QHeaderView::sectionClicked, this, &FlagMatrixChart::familyClicked);

  m_summary->setObjectName(QStringLiteral("flagMatrixSummary"));
  m_summary->setWordWrap(true);
  m_legend->setObjectName(QStringLiteral("flagMatrixLegend"));
  m_legend->setTextFormat(Qt::RichText);
  m_legend->setText(
      tr("Worst flag of the family on the task's candidates: %1 &nbsp; %2 &nbsp; %3 &nbsp; · the number: "
         "candidates raising it · <b>◥</b> corner: measured by a re-run's probe")
          .arg(swatch(FlagMatrixModel::severityColor(FlagMatrix::Hack), tr("hack")),
               swatch(FlagMatrixModel::severityColor(FlagMatrix::Suspicious), tr("suspicious")),
               swatch(FlagMatrixModel::severityColor(FlagMatrix::Benign), tr("benign"))));
  m_legend->setWordWrap(true);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(m_summary);
  layout->addWidget(m_view, 1);
  layout->addWidget(m_legend);
  rebuild();
}

void FlagMatrixChart::setRun(std::shared_ptr<const LoadedRun> run) {
  m_run = std::move(run);
  const StageTimer timer("charts: flag matrix");
  rebuild();
}

void FlagMatrixChart::setHistory(std::shared_ptr<const MeasuredHistory> history) {
  m_history = std::move(history);
  rebuild();
}

void FlagMatrixChart::refresh() { rebuild(); }

QString FlagMatrixChart::summary() const { return m_summary->text(); }

void FlagMatrixChart::rebuild() {
  m_model->setRun(m_run, m_history);
  const FlagMatrix& matrix = m_model->matrix();
  if (!m_run)
    m_summary->setText(tr("Open a run to chart its flags per task."));
  else if (!m_run->flagsChecked() && matrix.rowCount() == 0)
    m_summary->setText(tr("The static checks have not finished: no flags to chart yet."));
  else if (matrix.rowCount() == 0)
    m_summary->setText(
        tr("No task has a hack or suspicious flag (%1 checked).")
            .arg(counted(static_cast<qsizetype>(m_run->run().tasks.size()), tr("task"), tr("tasks"))));
  else {
    QString text =
        tr("<b>%1</b> of %2 have a hack or suspicious flag, <b>%3</b> a hack")
            .arg(matrix.rowCount())
            .arg(counted(static_cast<qsizetype>(m_run->run().tasks.size()), tr("task"), tr("tasks")))
            .arg(matrix.hackTaskCount());
    if (matrix.runtimeTaskCount() > 0)
      text += tr(" · %1 with flags measured by a re-run").arg(matrix.runtimeTaskCount());
    m_summary->setText(text + tr(" · click a cell to list those candidates"));
  }
}

void FlagMatrixChart::cellClicked(const QModelIndex& index) {
  if (!index.isValid() || !m_run) return;
  const FlagMatrix& matrix = m_model->matrix();
  if (matrix.cell(index.row(), index.column()).worst == FlagMatrix::None) {
    const auto rows = matrix.rowsOf(*m_run, m_history.get(), index.row(), -1);
    emit rowsSelected(QList<int>(rows.begin(), rows.end()));
    return;
  }
  const auto rows = matrix.rowsOf(*m_run, m_history.get(), index.row(), index.column());
  emit familyChosen(QString::fromStdString(matrix.families()[static_cast<std::size_t>(index.column())]),
                    QList<int>(rows.begin(), rows.end()));
}

void FlagMatrixChart::familyClicked(int column) {
  const FlagMatrix& matrix = m_model->matrix();
  if (!m_run || column < 0 || column >= matrix.columnCount() || matrix.familyTaskCount(column) == 0) return;
  QList<int> rows;
  for (int r = 0; r < matrix.rowCount(); ++r)
    if (matrix.cell(r, column).worst != FlagMatrix::None)
      for (int row : matrix.rowsOf(*m_run, m_history.get(), r, column)) rows << row;
  std::sort(rows.begin(), rows.end());
  emit familyChosen(QString::fromStdString(matrix.families()[static_cast<std::size_t>(column)]), rows);
}

}  // namespace ks
