#pragma once
// Presentation mode: the open run's chosen candidates as full-screen slides in large type — the
// verdict first when the trust rule speaks against a number, the recorded and re-measured numbers with
// their interval and method, the flags with their evidence lines, the model's idea, the diff with changed
// lines marked and the reference. Each slide is a report section (views/report/report_content.h, written by
// report_html.h), so a slide says what `kscope report` says. Right, Page Down and Space step on; Left, Page
// Up and Backspace step back; Up and Down scroll a long slide; Esc leaves. The slides are the run's sidecar
// deck (slide_deck.h), read when a run is opened and written whenever a slide is added or removed.
#include <QString>
#include <QWidget>
#include <vector>

#include "views/report/slide_deck.h"

class QLabel;
class QTextBrowser;

namespace ks {

class OpenRun;

class PresentationView : public QWidget {
  Q_OBJECT

 public:
  explicit PresentationView(QWidget* parent = nullptr);

  // Follows `open`: reads the opened run's sidecar, refreshes the slide shown when flags or runs arrive.
  void observe(const OpenRun* open);

  const SlideDeck& deck() const { return m_deck; }
  QString deckError() const { return m_deckError; }  // why the sidecar could not be read; empty when fine
  // Adds (removes) row `row` of the open run to (from) the slides and writes the sidecar; false with *error.
  bool addRow(int row, QString* error = nullptr);
  bool removeRow(int row, QString* error = nullptr);

  // Shows the slides full screen from the first, or, with no slides chosen, the current row as the only one.
  // False when there is nothing to show.
  bool start();
  void leave();
  int slideCount() const { return static_cast<int>(m_rows.size()); }
  int slideIndex() const { return m_index; }
  int slideRow() const;  // the LoadedRun row on screen; -1 when none
  QString slideText() const;  // the slide's plain text (tests, screenshots)

 signals:
  void left();

 protected:
  void keyPressEvent(QKeyEvent* event) override;

 private:
  void showSlide(int index);
  void refresh();

  const OpenRun* m_open = nullptr;
  SlideDeck m_deck;
  QString m_deckError;
  std::vector<int> m_rows;
  int m_index = -1;
  QTextBrowser* m_page;
  QLabel* m_footer;
};

}  // namespace ks
