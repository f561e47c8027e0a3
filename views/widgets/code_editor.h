#pragma once
// A source editor for the explorer, read-only unless made editable: QScintilla with the Python or C++/CUDA
// lexer, line numbers (optionally the lines of an enclosing file, for a CUDA source extracted from a Python
// program), folding, diff markers (line background plus a bar in the marker margin), flag markers by
// severity, a focused line, and the problems a run reported (an annotation under the line, a squiggle under
// its text and a marker in the margin).
#include <Qsci/qsciscintilla.h>

#include <vector>

#include "core/flags/flag.h"
#include "views/logic/code_problems.h"
#include "views/logic/line_diff.h"

class QsciLexerCPP;
class QsciLexerPython;

namespace ks {

class CodeEditor : public QsciScintilla {
  Q_OBJECT

 public:
  enum class Language { Python, Cpp };

  explicit CodeEditor(QWidget* parent = nullptr);

  // Replaces the text; clears every marker. `lineNumbers[i]` is the number shown for line i (the line of
  // the enclosing file); empty: 1, 2, 3...
  void showText(const QString& text, Language language, std::vector<int> lineNumbers = {});
  // The 0-based line numbered `number`, or -1 when no line carries it.
  int lineNumbered(int number) const;
  void showDiff(const std::vector<LineDiff::Status>& lines);
  void clearDiff();
  // Marks 0-based `line` with the flag marker of `severity` (the worst one wins the margin).
  void markFlag(int line, FlagSeverity severity);
  void clearFlags();
  // Moves the cursor to 0-based `line`, selects it, marks it and scrolls it into the upper third.
  void focusLine(int line);
  void setEditable(bool on);
  bool isEditable() const { return !isReadOnly(); }
  // Shows each problem tied to a line (CodeProblem::line, numbered as lineNumbered() reads) under that
  // line; replaces the problems shown before.
  void showProblems(const std::vector<CodeProblem>& problems);
  void clearProblems();
  int problemLineCount() const { return m_problemLines; }  // lines that carry a problem

  int firstVisibleDocumentLine() const;
  void scrollToDocumentLine(int line);

 signals:
  // The first visible line changed (Scintilla reports it once the view has updated, not synchronously).
  void scrolled();

 private:
  enum Marker {
    AddedBackground,
    RemovedBackground,
    ChangedBackground,
    AddedBar,
    RemovedBar,
    ChangedBar,
    HackFlag,
    SuspiciousFlag,
    BenignFlag,
    FocusArrow,
    ErrorMark,
    WarningMark,
  };
  void defineMarkers();
  void defineProblemStyles();
  void updateLineNumbers();

  QsciLexerPython* m_python;
  QsciLexerCPP* m_cpp;
  std::vector<int> m_lineNumbers;
  int m_problemLines = 0;
};

}  // namespace ks
