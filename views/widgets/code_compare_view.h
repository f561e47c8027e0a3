#pragma once
// Reference and candidate side by side: two CodeEditors with diff markers (LineDiff), synchronized
// scrolling along the diff's alignment (toggleable), a choice of reference (the task's reference or a
// baseline program) and of candidate view (the program or one CUDA/C++ source extracted from it).
// The candidate program lives in its own editor and document, never replaced by an extracted source. Edit
// (Ctrl+E) makes it editable: the edited text is a new version of the candidate ("r2 (edited)"), kept apart
// from the recorded program (recordedProgram()), diffed against the reference as it changes, and reported
// (programEdited) for autosave; Revert brings the recorded program back. A run's problems are shown on the
// program's lines (showProblems).
#include <QWidget>
#include <memory>
#include <vector>

#include "core/flags/flag.h"
#include "core/pysource/embedded_sources.h"
#include "views/logic/code_problems.h"
#include "views/logic/line_diff.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QSplitter;
class QStackedWidget;
class QTimer;
class QToolButton;

namespace ks {

class CodeEditor;
class ElidedLabel;
class GemmTaskHeader;
class LoadedRun;
class OpenRun;

class CodeCompareView : public QWidget {
  Q_OBJECT

 public:
  explicit CodeCompareView(QWidget* parent = nullptr);

  // Follows `open` from now on: its run, flags, history and current row, and shows the runtime flags and
  // problems of the history's runs of the program on show (docs/architecture.md).
  void observe(const OpenRun* open);
  void showRow(std::shared_ptr<const LoadedRun> run, int row);  // row < 0: nothing selected
  // The run's flagged snapshot arrived: re-mark the flagged lines.
  void refreshFlags(std::shared_ptr<const LoadedRun> flagged);
  // The runtime flags of the newest re-run of the selected candidate's recorded program, marked on their
  // lines beside the static ones (showRow forgets them).
  void setRuntimeFlags(std::vector<Flag> flags);

  CodeEditor* referenceEditor() const { return m_reference; }
  CodeEditor* candidateEditor() const { return m_program; }  // the candidate program
  CodeEditor* sourceEditor() const { return m_source; }      // the extracted source on show
  GemmTaskHeader* gemmHeader() const { return m_gemm; }      // shown for GEMM tasks
  QString candidateProgram() const;  // as shown: the recorded program or the user's edit of it
  QString recordedProgram() const;   // as the file records it; empty when it records none
  bool hasProgram() const;           // the selected row has a candidate with a program
  bool isEdited() const;             // the program shown differs from the recorded one
  bool isEditing() const;
  // Shows `text`, an earlier edit of the selected candidate, in place of its recorded program, editable,
  // with `notice` above it ("Restored unsaved edit from 12:03").
  void showEdit(const QString& text, const QString& notice);
  // Replaces the program on show with `text` as an edit (a repaired copy): editable, one step the user can
  // undo back to what was shown (their own edit included), reported by programEdited like typing, so it is
  // autosaved and Run times it; the recorded program stays as the file has it (Revert shows it again).
  void applyEdit(const QString& text);
  // Shows the problems of a run of the program on show (replacing earlier ones); an empty list clears them.
  void showProblems(const std::vector<CodeProblem>& problems);
  // The Search tab's compare: the reference side starts at the candidate's first parent that
  // the task holds ("Parent: r1", offered in every mode after the baselines), and the program cannot be
  // edited here (edits belong to the Code tab, which autosaves them).
  void setParentMode(bool on);
  bool isParentMode() const { return m_parentMode; }
  // The parent on the reference side (its id), empty when the reference or a baseline is shown.
  QString shownParent() const;
  QComboBox* referenceChoice() const { return m_referenceChoice; }
  const LineDiff& diff() const { return m_diff; }
  bool isSyncScrolling() const;

  QByteArray saveState() const;  // splitter sizes and the sync switch
  void restoreState(const QByteArray& state);

 public slots:
  void setSyncScrolling(bool on);
  // Shows 1-based line `line` of the candidate program, in the extracted source on show when it holds it.
  void goToCandidateLine(int line);
  void setEditing(bool on);
  void revertEdit();  // the recorded program again, not editable; emits editReverted

 signals:
  // The user changed the program: `text` is the edited version (never the recorded program itself).
  void programEdited(const QString& text);
  // The program on show is the recorded one again (Revert, or edits that undid themselves).
  void editReverted();
  void editingChanged(bool on);

 private:
  void showRunEvidence();  // of the observed history, for the row and program on show
  void showReference(int choice);
  void showCandidateView(int choice);
  void updateDiff();
  void markFlags(CodeEditor* editor);
  void programChanged();
  void fillCandidateChoices(const std::string& program);
  void updateCandidateTitle();
  void syncFrom(CodeEditor* from, CodeEditor* to, bool fromLeft);
  QWidget* makeSide(const QString& role, QList<QWidget*> titles, QList<QWidget*> tools, QWidget* body);

  const OpenRun* m_open = nullptr;
  std::shared_ptr<const LoadedRun> m_run;
  int m_row = -1;
  std::vector<EmbeddedSource> m_sources;
  std::vector<int> m_parentRows;  // rows of the parents offered after the baselines, in choice order
  bool m_parentMode = false;
  std::vector<CodeProblem> m_problems;  // of the last run shown
  std::vector<Flag> m_runtimeFlags;
  LineDiff m_diff;
  // The line a synchronized scroll moved each side to: that side's next scroll report is an echo.
  int m_echoLeft = -1;
  int m_echoRight = -1;
  bool m_loadingProgram = false;  // the program text is being replaced, not edited
  bool m_edited = false;

  ElidedLabel* m_referenceTitle;
  ElidedLabel* m_candidateTitle;  // the id, "(edited)"
  QLabel* m_candidateVerdict;     // the trust rule's verdict; hidden when it has none
  ElidedLabel* m_candidateClaim;  // "· 368.2× recorded", struck through for a caught hack
  QComboBox* m_referenceChoice;
  QComboBox* m_candidateChoice;
  CodeEditor* m_reference;
  CodeEditor* m_program;
  CodeEditor* m_source;
  QLabel* m_placeholder;
  QToolButton* m_edit;
  QToolButton* m_revert;
  QLabel* m_editNotice;
  QTimer* m_rediff;
  QStackedWidget* m_candidateStack;
  QSplitter* m_splitter;
  QLabel* m_note;
  GemmTaskHeader* m_gemm;
  QLabel* m_stats;
  QCheckBox* m_sync;
};

}  // namespace ks
