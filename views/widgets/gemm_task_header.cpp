#include "views/widgets/gemm_task_header.h"

#include <QGridLayout>
#include <QLabel>
#include <QToolButton>

#include "views/logic/gemm_task_summary.h"
#include "views/logic/loaded_run.h"
#include "views/logic/open_run.h"

namespace ks {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

GemmTaskHeader::GemmTaskHeader(QWidget* parent)
    : QWidget(parent),
      m_summary(new QLabel(this)),
      m_tiles(new QLabel(this)),
      m_more(new QToolButton(this)),
      m_description(new QLabel(this)) {
  setObjectName(QStringLiteral("gemmTaskHeader"));
  m_summary->setObjectName(QStringLiteral("gemmSummary"));
  m_tiles->setObjectName(QStringLiteral("gemmTiles"));
  m_description->setObjectName(QStringLiteral("gemmDescription"));
  for (QLabel* l : {m_summary, m_tiles, m_description}) {
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  }
  m_summary->setTextFormat(Qt::RichText);
  m_tiles->setTextFormat(Qt::RichText);
  m_description->setTextFormat(Qt::MarkdownText);
  m_description->setWordWrap(true);
  m_description->hide();
  m_more->setObjectName(QStringLiteral("gemmMore"));
  m_more->setText(tr("Reference in words and code"));
  m_more->setCheckable(true);
  m_more->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  m_more->setArrowType(Qt::RightArrow);
  m_more->setAutoRaise(true);
  connect(m_more, &QToolButton::toggled, this, [this](bool on) {
    m_description->setVisible(on);
    m_more->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
  });
  auto* layout = new QGridLayout(this);
  layout->setContentsMargins(6, 2, 6, 2);
  layout->setVerticalSpacing(0);
  layout->addWidget(m_summary, 0, 0);
  layout->addWidget(m_more, 0, 1, Qt::AlignRight);
  layout->addWidget(m_tiles, 1, 0, 1, 2);
  layout->addWidget(m_description, 2, 0, 1, 2);
  layout->setColumnStretch(0, 1);
  hide();
}

void GemmTaskHeader::observe(const OpenRun* open) {
  m_open = open;
  connect(open, &OpenRun::currentChanged, this, &GemmTaskHeader::showRow);
}

void GemmTaskHeader::showRow(int row) {
  const auto& run = m_open ? m_open->run() : nullptr;
  if (!run || row < 0 || row >= run->rowCount() || !run->task(row).gemm) {
    hide();
    return;
  }
  const GemmTaskSummary s = gemmTaskSummary(run->task(row), run->candidate(row));
  m_summary->setText(tr("<b>GEMM</b> C = A·B · %1").arg(q(s.shape).toHtmlEscaped()));
  m_tiles->setText(s.tiles.empty() ? tr("<i>Tile configuration: none found in the kernel's source</i>")
                                   : tr("Kernel tiles: %1").arg(q(s.tiles).toHtmlEscaped()));
  m_tiles->setToolTip(s.tileLines.empty() ? QString()
                                          : tr("Read from the kernel's source:\n%1").arg(q(s.tileLines)));
  QString markdown = q(s.words);
  if (!s.code.empty()) markdown += QStringLiteral("\n\n```python\n%1\n```\n").arg(q(s.code));
  m_description->setText(markdown);
  m_more->setVisible(!markdown.isEmpty());
  show();
}

}  // namespace ks
