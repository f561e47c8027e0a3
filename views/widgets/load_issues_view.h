#pragma once
// Every problem met while reading the open file (file:line: message). Read-only: activating a row does
// nothing; Ctrl+C copies the selected issues as "file:line: severity: message" lines.
#include <QWidget>
#include <memory>

class QLabel;
class QStackedWidget;
class QTableView;

namespace ks {

class LoadIssueModel;
class LoadedRun;
class OpenRun;

class LoadIssuesView : public QWidget {
  Q_OBJECT

 public:
  explicit LoadIssuesView(QWidget* parent = nullptr);

  // Follows `open` from now on: its run, flags, history and current row (docs/architecture.md).
  void observe(const OpenRun* open);
  void setRun(std::shared_ptr<const LoadedRun> run);
  QTableView* view() const { return m_view; }
  int issueCount() const;

 private:
  void copySelection() const;

  std::shared_ptr<const LoadedRun> m_run;
  LoadIssueModel* m_model;
  QTableView* m_view;
  QLabel* m_empty;
  QStackedWidget* m_stack;
};

}  // namespace ks
