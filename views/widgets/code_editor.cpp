#include "views/widgets/code_editor.h"

#include <Qsci/qscilexercpp.h>
#include <Qsci/qscilexerpython.h>
#include <Qsci/qscistyle.h>
#include <Qsci/qscistyledtext.h>

#include <QColor>
#include <QFontDatabase>
#include <algorithm>
#include <map>

#include "core/model/control_characters.h"

namespace ks {
namespace {

constexpr int kNumberMargin = 0;
constexpr int kMarkerMargin = 1;
constexpr int kFoldMargin = 2;
constexpr int kErrorIndicator = 8;  // indicators 0-7 belong to lexers
constexpr int kWarningIndicator = 9;
// Annotation styles, past the lexers' and Scintilla's predefined styles (0-39) and below 128.
constexpr int kErrorAnnotationStyle = 120;
constexpr int kWarningAnnotationStyle = 121;
constexpr int kNoteAnnotationStyle = 122;

void useFont(QsciLexer* lexer, const QFont& font) {
  lexer->setDefaultFont(font);
  lexer->setFont(font);  // every style: comments and strings keep the monospaced font
}

}  // namespace

CodeEditor::CodeEditor(QWidget* parent)
    : QsciScintilla(parent), m_python(new QsciLexerPython(this)), m_cpp(new QsciLexerCPP(this)) {
  QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  font.setPointSizeF(std::max(9.0, font.pointSizeF()));
  useFont(m_python, font);
  useFont(m_cpp, font);
  m_python->setFoldComments(true);
  m_python->setIndentationWarning(QsciLexerPython::NoWarning);
  m_cpp->setFoldComments(true);

  setUtf8(true);
  // Bidirectional overrides and isolates take no space and, where a viewer applies them, reorder what a
  // line reads ("Trojan Source"): each shows as a mark with its name (RLO, LRI, ...), as control
  // characters already do, so a program cannot hide one in its code.
  for (const BidiControl& c : kBidiControls) SendScintilla(SCI_SETREPRESENTATION, c.utf8, c.name);
  setReadOnly(true);
  setFont(font);
  setMarginsFont(font);
  setTabWidth(4);
  setIndentationGuides(true);
  setCaretLineVisible(true);
  setCaretLineBackgroundColor(QColor(0xee, 0xf2, 0xf8));
  setBraceMatching(QsciScintilla::SloppyBraceMatch);
  setSelectionBackgroundColor(QColor(0xb6, 0xd3, 0xf5));
  setMarginsBackgroundColor(QColor(0xf6, 0xf8, 0xfa));
  setMarginsForegroundColor(QColor(0x6e, 0x77, 0x81));
  SendScintilla(SCI_SETSCROLLWIDTHTRACKING, 1);
  SendScintilla(SCI_SETSCROLLWIDTH, 1);

  setMarginType(kNumberMargin, NumberMargin);
  setMarginType(kMarkerMargin, SymbolMargin);
  setMarginWidth(kMarkerMargin, 14);
  setMarginSensitivity(kMarkerMargin, false);
  setFolding(BoxedTreeFoldStyle, kFoldMargin);
  defineMarkers();
  connect(this, &QsciScintillaBase::SCN_UPDATEUI, this, [this](int updated) {
    if (updated & SC_UPDATE_V_SCROLL) emit scrolled();
  });
  setLexer(m_python);
  defineProblemStyles();
  updateLineNumbers();
}

void CodeEditor::defineProblemStyles() {
  indicatorDefine(SquiggleIndicator, kErrorIndicator);
  setIndicatorForegroundColor(QColor(0xcf, 0x22, 0x2e), kErrorIndicator);
  indicatorDefine(SquiggleIndicator, kWarningIndicator);
  setIndicatorForegroundColor(QColor(0xbf, 0x87, 0x00), kWarningIndicator);
  setAnnotationDisplay(AnnotationBoxed);
}

void CodeEditor::defineMarkers() {
  const auto background = [this](Marker marker, QColor color) {
    markerDefine(Background, marker);
    setMarkerBackgroundColor(color, marker);
  };
  background(AddedBackground, QColor(0xe6, 0xff, 0xec));
  background(RemovedBackground, QColor(0xff, 0xeb, 0xe9));
  background(ChangedBackground, QColor(0xff, 0xf5, 0xd6));
  const auto symbol = [this](Marker marker, MarkerSymbol shape, QColor color) {
    markerDefine(shape, marker);
    setMarkerBackgroundColor(color, marker);
    setMarkerForegroundColor(color, marker);
  };
  symbol(AddedBar, LeftRectangle, QColor(0x2d, 0xa4, 0x4e));
  symbol(RemovedBar, LeftRectangle, QColor(0xcf, 0x22, 0x2e));
  symbol(ChangedBar, LeftRectangle, QColor(0xbf, 0x87, 0x00));
  symbol(HackFlag, Circle, QColor(0xcf, 0x22, 0x2e));
  symbol(SuspiciousFlag, Circle, QColor(0xd4, 0x8a, 0x00));
  symbol(BenignFlag, Circle, QColor(0x09, 0x69, 0xda));
  symbol(FocusArrow, RightArrow, QColor(0x09, 0x69, 0xda));
  symbol(ErrorMark, Circle, QColor(0xcf, 0x22, 0x2e));
  symbol(WarningMark, Circle, QColor(0xbf, 0x87, 0x00));
  // Background markers colour the text area only; the margin shows bars, flags and the focus arrow.
  unsigned mask = 0;
  for (Marker m : {AddedBar, RemovedBar, ChangedBar, HackFlag, SuspiciousFlag, BenignFlag, FocusArrow,
                   ErrorMark, WarningMark})
    mask |= 1u << m;
  setMarginMarkerMask(kMarkerMargin, static_cast<int>(mask));
  setMarginMarkerMask(kNumberMargin, 0);
}

void CodeEditor::showText(const QString& text, Language language, std::vector<int> lineNumbers) {
  setLexer(language == Language::Python ? static_cast<QsciLexer*>(m_python) : m_cpp);
  defineProblemStyles();  // a new lexer resets the indicators
  setText(text);
  SendScintilla(SCI_EMPTYUNDOBUFFER);  // undo stops at the text shown, never at an empty editor
  markerDeleteAll();
  clearProblems();
  m_lineNumbers = std::move(lineNumbers);
  updateLineNumbers();
  setCursorPosition(0, 0);
  setFirstVisibleLine(0);
}

int CodeEditor::lineNumbered(int number) const {
  if (m_lineNumbers.empty()) return number >= 1 && number <= lines() ? number - 1 : -1;
  const auto it = std::find(m_lineNumbers.begin(), m_lineNumbers.end(), number);
  return it == m_lineNumbers.end() ? -1 : static_cast<int>(it - m_lineNumbers.begin());
}

void CodeEditor::updateLineNumbers() {
  int widest = std::max(1, lines());
  if (m_lineNumbers.empty()) {
    clearMarginText();
    setMarginType(kNumberMargin, NumberMargin);
  } else {
    // Scintilla numbers from 1; a right-justified text margin shows the lines of the enclosing file.
    setMarginType(kNumberMargin, TextMarginRightJustified);
    for (int line = 0; line < lines() && line < static_cast<int>(m_lineNumbers.size()); ++line) {
      setMarginText(line, QString::number(m_lineNumbers[static_cast<std::size_t>(line)]), STYLE_LINENUMBER);
      widest = std::max(widest, m_lineNumbers[static_cast<std::size_t>(line)]);
    }
  }
  setMarginWidth(kNumberMargin, QString(QString::number(widest).size() + 1, QLatin1Char('9')));
}

void CodeEditor::showDiff(const std::vector<LineDiff::Status>& statuses) {
  clearDiff();
  for (std::size_t i = 0; i < statuses.size(); ++i) {
    const int line = static_cast<int>(i);
    switch (statuses[i]) {
      case LineDiff::Status::Same:
        break;
      case LineDiff::Status::Added:
        markerAdd(line, AddedBackground);
        markerAdd(line, AddedBar);
        break;
      case LineDiff::Status::Removed:
        markerAdd(line, RemovedBackground);
        markerAdd(line, RemovedBar);
        break;
      case LineDiff::Status::Changed:
        markerAdd(line, ChangedBackground);
        markerAdd(line, ChangedBar);
        break;
    }
  }
}

void CodeEditor::clearDiff() {
  for (Marker m : {AddedBackground, RemovedBackground, ChangedBackground, AddedBar, RemovedBar, ChangedBar})
    markerDeleteAll(m);
}

void CodeEditor::markFlag(int line, FlagSeverity severity) {
  if (line < 0 || line >= lines()) return;
  const Marker marker = severity == FlagSeverity::Hack         ? HackFlag
                        : severity == FlagSeverity::Suspicious ? SuspiciousFlag
                                                               : BenignFlag;
  const unsigned present = markersAtLine(line);
  if (marker == SuspiciousFlag && (present & (1u << HackFlag))) return;
  if (marker == BenignFlag && (present & ((1u << HackFlag) | (1u << SuspiciousFlag)))) return;
  if (marker == HackFlag) markerDelete(line, SuspiciousFlag);
  if (marker != BenignFlag) markerDelete(line, BenignFlag);
  markerAdd(line, marker);
}

void CodeEditor::clearFlags() {
  for (Marker m : {HackFlag, SuspiciousFlag, BenignFlag}) markerDeleteAll(m);
}

void CodeEditor::focusLine(int line) {
  line = std::clamp(line, 0, std::max(0, lines() - 1));
  markerDeleteAll(FocusArrow);
  markerAdd(line, FocusArrow);
  ensureLineVisible(line);
  const int visible = static_cast<int>(SendScintilla(SCI_VISIBLEFROMDOCLINE, line));
  const int onScreen = static_cast<int>(SendScintilla(SCI_LINESONSCREEN));
  setFirstVisibleLine(std::max(0, visible - onScreen / 3));
  // Anchor at the end, caret at the start: the whole line is highlighted and the cursor sits on it.
  if (line + 1 < lines())
    setSelection(line + 1, 0, line, 0);
  else
    setSelection(line, static_cast<int>(text(line).size()), line, 0);
}

int CodeEditor::firstVisibleDocumentLine() const {
  return static_cast<int>(
      SendScintilla(SCI_DOCLINEFROMVISIBLE, static_cast<unsigned long>(firstVisibleLine())));
}

void CodeEditor::scrollToDocumentLine(int line) {
  setFirstVisibleLine(
      static_cast<int>(SendScintilla(SCI_VISIBLEFROMDOCLINE, static_cast<unsigned long>(line))));
}

}  // namespace ks

namespace ks {

void CodeEditor::setEditable(bool on) {
  setReadOnly(!on);
  setCaretWidth(on ? 2 : 1);
}

void CodeEditor::showProblems(const std::vector<CodeProblem>& problems) {
  clearProblems();
  // Annotation styles live in the style table, which a lexer change resets: define them each time.
  const QFont font = lexer() ? lexer()->defaultFont() : this->font();
  const QsciStyle errorStyle(kErrorAnnotationStyle, QStringLiteral("problem error"), QColor(0x82, 0x07, 0x1e),
                             QColor(0xff, 0xeb, 0xe9), font);
  const QsciStyle warningStyle(kWarningAnnotationStyle, QStringLiteral("problem warning"),
                               QColor(0x6a, 0x48, 0x00), QColor(0xff, 0xf5, 0xd6), font);
  const QsciStyle noteStyle(kNoteAnnotationStyle, QStringLiteral("problem note"), QColor(0x3d, 0x44, 0x4d),
                            QColor(0xee, 0xf2, 0xf8), font);
  std::map<int, std::vector<const CodeProblem*>> byLine;
  for (const CodeProblem& p : problems) {
    const int line = p.line > 0 ? lineNumbered(p.line) : -1;
    if (line >= 0) byLine[line].push_back(&p);
  }
  for (const auto& [line, onLine] : byLine) {
    QList<QsciStyledText> texts;
    bool error = false, warning = false;
    for (std::size_t i = 0; i < onLine.size(); ++i) {
      const CodeProblem& p = *onLine[i];
      error = error || p.severity == CodeProblem::Severity::Error;
      warning = warning || p.severity == CodeProblem::Severity::Warning;
      const QsciStyle& style = p.severity == CodeProblem::Severity::Error     ? errorStyle
                               : p.severity == CodeProblem::Severity::Warning ? warningStyle
                                                                              : noteStyle;
      texts << QsciStyledText(p.message + (i + 1 < onLine.size() ? QStringLiteral("\n") : QString()), style);
    }
    annotate(line, texts);
    if (error || warning) {
      const QString text = this->text(line);
      int first = 0;
      while (first < text.size() && text[first].isSpace()) ++first;
      int last = static_cast<int>(text.size());
      while (last > first && text[last - 1].isSpace()) --last;
      fillIndicatorRange(line, first, line, std::max(last, first + 1),
                         error ? kErrorIndicator : kWarningIndicator);
      markerAdd(line, error ? ErrorMark : WarningMark);
    }
  }
  m_problemLines = static_cast<int>(byLine.size());
}

void CodeEditor::clearProblems() {
  clearAnnotations();
  for (int indicator : {kErrorIndicator, kWarningIndicator})
    clearIndicatorRange(0, 0, std::max(0, lines() - 1),
                        static_cast<int>(text(std::max(0, lines() - 1)).size()), indicator);
  markerDeleteAll(ErrorMark);
  markerDeleteAll(WarningMark);
  m_problemLines = 0;
}

}  // namespace ks
