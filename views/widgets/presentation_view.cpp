#include "views/widgets/presentation_view.h"

#include <QKeyEvent>
#include <QLabel>
#include <QScrollBar>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "views/logic/loaded_run.h"
#include "views/logic/open_run.h"
#include "views/report/report_content.h"
#include "views/report/report_html.h"
#include "views/logic/stage_timer.h"

namespace ks {

PresentationView::PresentationView(QWidget* parent)
    : QWidget(parent, Qt::Window), m_page(new QTextBrowser(this)), m_footer(new QLabel(this)) {
  setObjectName(QStringLiteral("presentation"));
  setWindowTitle(tr("KernelScope presentation"));
  m_page->setObjectName(QStringLiteral("slide"));
  m_page->setFocusPolicy(Qt::NoFocus);  // the keys step through slides
  m_page->setFrameShape(QFrame::NoFrame);
  QFont font = m_page->font();
  font.setPointSize(20);
  m_page->setFont(font);
  m_page->document()->setDefaultFont(font);
  m_page->document()->setDocumentMargin(36);
  m_footer->setAlignment(Qt::AlignRight);
  m_footer->setStyleSheet(QStringLiteral("color:#666;padding:6px 24px;font-size:14pt"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(m_page, 1);
  layout->addWidget(m_footer);
  setFocusPolicy(Qt::StrongFocus);
}

void PresentationView::observe(const OpenRun* open) {
  m_open = open;
  connect(open, &OpenRun::opened, this, [this] {
    const StageTimer timer("view: presentation (slides sidecar)");
    m_deckError.clear();
    m_deck = SlideDeck::load(m_open->path(), &m_deckError);
    if (isVisible()) leave();
  });
  connect(open, &OpenRun::flagsChanged, this, &PresentationView::refresh);
  connect(open, &OpenRun::historyChanged, this, &PresentationView::refresh);
  connect(open, &OpenRun::seriesChanged, this, &PresentationView::refresh);  // the claim shown
  connect(open, &OpenRun::runAdded, this, [this](int row) {
    if (row == slideRow()) refresh();
  });
}

bool PresentationView::addRow(int row, QString* error) {
  if (!m_open || !m_open->run() || row < 0 || row >= m_open->run()->rowCount()) return false;
  m_deck.add(SlideDeck::slideOf(*m_open->run(), row));
  return m_deck.save(m_open->path(), error);
}

bool PresentationView::removeRow(int row, QString* error) {
  if (!m_open || !m_open->run() || row < 0 || row >= m_open->run()->rowCount()) return false;
  m_deck.remove(SlideDeck::slideOf(*m_open->run(), row));
  return m_deck.save(m_open->path(), error);
}

bool PresentationView::start() {
  if (!m_open || !m_open->run()) return false;
  m_rows = m_deck.rows(*m_open->run());
  if (m_rows.empty() && m_open->currentRow() >= 0) m_rows = {m_open->currentRow()};
  if (m_rows.empty()) return false;
  showFullScreen();
  activateWindow();
  setFocus();
  showSlide(0);
  return true;
}

void PresentationView::leave() {
  hide();
  m_index = -1;
  emit left();
}

int PresentationView::slideRow() const {
  return m_index >= 0 && m_index < slideCount() ? m_rows[static_cast<std::size_t>(m_index)] : -1;
}

QString PresentationView::slideText() const { return m_page->toPlainText(); }

void PresentationView::showSlide(int index) {
  if (index < 0 || index >= slideCount() || !m_open || !m_open->run()) return;
  m_index = index;
  refresh();
}

void PresentationView::refresh() {
  const int row = slideRow();
  if (row < 0 || !m_open->run() || row >= m_open->run()->rowCount()) return;
  ReportContent content;
  content.sections.push_back(buildSection(*m_open->run(), m_open->history().get(), row, m_open->series()));
  ReportHtmlOptions options;
  options.flavour = ReportHtmlOptions::Flavour::QtRichText;
  options.codePointSize = 14;
  m_page->setHtml(QString::fromStdString(sectionHtml(content, 0, options)));
  m_footer->setText(tr("%1 · slide %2 of %3 · ← → step · Esc leaves")
                        .arg(QString::fromStdString(m_open->run()->run().title))
                        .arg(m_index + 1)
                        .arg(slideCount()));
}

void PresentationView::keyPressEvent(QKeyEvent* event) {
  QScrollBar* bar = m_page->verticalScrollBar();
  switch (event->key()) {
    case Qt::Key_Right:
    case Qt::Key_PageDown:
    case Qt::Key_Space:
      showSlide(m_index + 1);
      break;
    case Qt::Key_Left:
    case Qt::Key_PageUp:
    case Qt::Key_Backspace:
      showSlide(m_index - 1);
      break;
    case Qt::Key_Down:
      bar->setValue(bar->value() + bar->singleStep() * 3);
      break;
    case Qt::Key_Up:
      bar->setValue(bar->value() - bar->singleStep() * 3);
      break;
    case Qt::Key_Escape:
      leave();
      break;
    default:
      QWidget::keyPressEvent(event);
  }
}

}  // namespace ks
