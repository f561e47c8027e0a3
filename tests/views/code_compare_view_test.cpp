// CodeCompareView: exact texts, diff markers, reference choice, extracted sources with the program's line
// numbers, going to a flagged line, synchronized scrolling, and edits of the candidate program (a new
// version, diffed as it changes, reverted, restored with a notice).
#include "views/widgets/code_compare_view.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTest>
#include <QToolButton>

#include "tests/view_logic/synthetic_run.h"
#include "views/widgets/code_editor.h"

namespace ks {
namespace {

constexpr unsigned kDiffBackgrounds = 0b111;  // AddedBackground, RemovedBackground, ChangedBackground

class CodeCompareViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    view.resize(1000, 500);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  }
  QComboBox* candidateChoice() { return view.findChild<QComboBox*>("candidateChoice"); }
  QComboBox* referenceChoice() { return view.findChild<QComboBox*>("referenceChoice"); }

  std::shared_ptr<const LoadedRun> run = test::syntheticRun();
  CodeCompareView view;
};

TEST_F(CodeCompareViewTest, EditorsHoldTheExactTextsAndMarkTheDiff) {
  view.showRow(run, test::kRowA);
  EXPECT_EQ(view.referenceEditor()->text().toStdString(), run->task(test::kRowA).referenceCode);
  EXPECT_EQ(view.candidateProgram().toStdString(), *run->candidate(test::kRowA)->code);
  EXPECT_TRUE(view.referenceEditor()->isReadOnly());
  EXPECT_TRUE(view.candidateEditor()->isReadOnly());
  const int changed = test::lineContaining(*run->candidate(test::kRowA)->code, "torch.mm(") - 1;
  EXPECT_EQ(view.diff().right()[static_cast<std::size_t>(changed)], LineDiff::Status::Changed);
  EXPECT_NE(view.candidateEditor()->markersAtLine(changed) & kDiffBackgrounds, 0u);
  EXPECT_EQ(view.candidateEditor()->markersAtLine(0) & kDiffBackgrounds, 0u);

  view.showRow(run, test::kRowB);  // b is the reference, verbatim
  EXPECT_TRUE(view.diff().identical());
  EXPECT_EQ(view.candidateEditor()->markersAtLine(changed) & kDiffBackgrounds, 0u);
}

TEST_F(CodeCompareViewTest, ComparesAgainstABaselineProgram) {
  view.showRow(run, test::kRowA);
  ASSERT_EQ(referenceChoice()->count(), 2);
  referenceChoice()->setCurrentIndex(1);
  EXPECT_EQ(view.referenceEditor()->text().toStdString(), run->task(test::kRowA).baselinePrograms[0].second);
  EXPECT_EQ(view.candidateProgram().toStdString(), *run->candidate(test::kRowA)->code);
}

TEST_F(CodeCompareViewTest, ShowsExtractedSourcesNumberedWithTheProgramsLines) {
  view.showRow(run, test::kRowE);
  const std::vector<EmbeddedSource> sources = extractEmbeddedSources(*run->candidate(test::kRowE)->code);
  ASSERT_FALSE(sources.empty());
  ASSERT_EQ(candidateChoice()->count(), 1 + static_cast<int>(sources.size()));
  int cuda = 0;
  while (sources[static_cast<std::size_t>(cuda)].language != "cuda") ++cuda;
  candidateChoice()->setCurrentIndex(cuda + 1);
  const EmbeddedSource& source = sources[static_cast<std::size_t>(cuda)];
  EXPECT_EQ(view.sourceEditor()->text().toStdString(), source.text);
  EXPECT_TRUE(view.sourceEditor()->isVisible());
  const int kernelLine = test::lineContaining(source.text, "__global__");
  EXPECT_EQ(view.sourceEditor()->lineNumbered(source.pythonLine(kernelLine)), kernelLine - 1);
  EXPECT_EQ(source.pythonLine(kernelLine),
            test::lineContaining(*run->candidate(test::kRowE)->code, "__global__"));
  // The program keeps its own editor and text while the source shows.
  EXPECT_EQ(view.candidateProgram().toStdString(), *run->candidate(test::kRowE)->code);

  // A flagged program line inside the source is shown in the source; one outside switches to the program.
  const int launch = test::lineContaining(*run->candidate(test::kRowE)->code, "scale_kernel<<<");
  view.goToCandidateLine(launch);
  int line = -1, index = -1;
  view.sourceEditor()->getCursorPosition(&line, &index);
  EXPECT_EQ(view.sourceEditor()->lineNumbered(launch), line);
  const int modelLine = test::lineContaining(*run->candidate(test::kRowE)->code, "class ModelNew");
  view.goToCandidateLine(modelLine);
  EXPECT_EQ(candidateChoice()->currentIndex(), 0);
  view.candidateEditor()->getCursorPosition(&line, &index);
  EXPECT_EQ(line, modelLine - 1);
}

TEST_F(CodeCompareViewTest, ScrollsTheOtherSideAlongTheDiff) {
  // The candidate is the reference with 50 lines inserted at the top.
  std::string reference, inserted;
  for (int i = 0; i < 200; ++i) reference += "x" + std::to_string(i) + " = " + std::to_string(i) + "\n";
  for (int i = 0; i < 50; ++i) inserted += "# added " + std::to_string(i) + "\n";
  RunFile file;
  file.tasks.emplace_back();
  file.tasks[0].referenceCode = reference;
  file.tasks[0].candidates.emplace_back();
  file.tasks[0].candidates[0].code = inserted + reference;
  auto longRun = std::make_shared<const LoadedRun>(std::move(file));
  view.showRow(longRun, 0);
  ASSERT_TRUE(view.isSyncScrolling());
  EXPECT_EQ(view.diff().rightToLeft(100), 50);

  // Scintilla reports a scroll when it repaints: wait for it.
  view.candidateEditor()->scrollToDocumentLine(100);
  EXPECT_TRUE(QTest::qWaitFor([&] { return view.referenceEditor()->firstVisibleDocumentLine() == 50; }));
  view.referenceEditor()->scrollToDocumentLine(20);
  EXPECT_TRUE(QTest::qWaitFor([&] { return view.candidateEditor()->firstVisibleDocumentLine() == 70; }));
  QTest::qWait(50);  // the echo of the candidate's scroll must not move the reference back
  EXPECT_EQ(view.referenceEditor()->firstVisibleDocumentLine(), 20);

  view.setSyncScrolling(false);
  view.referenceEditor()->scrollToDocumentLine(0);
  QTest::qWait(50);
  EXPECT_EQ(view.candidateEditor()->firstVisibleDocumentLine(), 70);
}

TEST_F(CodeCompareViewTest, SaysWhenThereIsNoProgram) {
  view.showRow(run, test::kRowD);
  auto* stack = view.findChild<QStackedWidget*>();
  ASSERT_NE(stack, nullptr);
  EXPECT_FALSE(view.candidateEditor()->isVisible());
  view.showRow(run, test::kRowNone);
  EXPECT_FALSE(view.candidateEditor()->isVisible());
  EXPECT_EQ(view.referenceEditor()->text().toStdString(), run->task(test::kRowNone).referenceCode);
}

TEST_F(CodeCompareViewTest, AnEditIsANewVersionDiffedAsItChangesAndRevertBringsTheRecordedProgramBack) {
  view.showRow(run, test::kRowB);  // b is the reference, verbatim
  ASSERT_TRUE(view.diff().identical());
  QSignalSpy edited(&view, &CodeCompareView::programEdited);
  QSignalSpy reverted(&view, &CodeCompareView::editReverted);
  auto* edit = view.findChild<QToolButton*>("editToggle");
  QTest::keyClicks(view.candidateEditor(), "x");  // read-only until Edit
  EXPECT_FALSE(view.isEdited());
  QTest::mouseClick(edit, Qt::LeftButton);
  ASSERT_TRUE(view.isEditing());
  EXPECT_FALSE(view.candidateEditor()->isReadOnly());
  view.candidateEditor()->setCursorPosition(0, 0);
  QTest::keyClicks(view.candidateEditor(), "# tuned");
  EXPECT_TRUE(view.isEdited());
  ASSERT_FALSE(edited.isEmpty());
  EXPECT_EQ(edited.last().at(0).toString(), view.candidateProgram());
  EXPECT_TRUE(view.candidateProgram().startsWith("# tunedimport torch"));
  EXPECT_EQ(view.recordedProgram().toStdString(), *run->candidate(test::kRowB)->code);
  EXPECT_EQ(view.findChild<QLabel*>("candidateTitle")->toolTip(), "b (edited) · 0.800× recorded");
  // The diff follows the edit once typing pauses.
  QTRY_VERIFY_WITH_TIMEOUT(!view.diff().identical(), 2000);
  EXPECT_EQ(view.diff().right()[0], LineDiff::Status::Changed);

  QTest::mouseClick(view.findChild<QToolButton*>("revertEdit"), Qt::LeftButton);
  EXPECT_EQ(view.candidateProgram().toStdString(), *run->candidate(test::kRowB)->code);
  EXPECT_FALSE(view.isEdited());
  EXPECT_FALSE(view.isEditing());
  EXPECT_EQ(reverted.count(), 1);
  EXPECT_TRUE(view.diff().identical());
  EXPECT_EQ(view.findChild<QLabel*>("candidateTitle")->toolTip(), "b · 0.800× recorded");
}

TEST_F(CodeCompareViewTest, ARestoredEditIsShownWithItsNoticeAndEditable) {
  view.showRow(run, test::kRowA);
  view.showEdit(QStringLiteral("# mine\n"), QStringLiteral("Restored unsaved edit from 12:03"));
  EXPECT_EQ(view.candidateProgram(), "# mine\n");
  EXPECT_TRUE(view.isEdited());
  EXPECT_TRUE(view.isEditing());
  auto* notice = view.findChild<QLabel*>("editNotice");
  EXPECT_TRUE(notice->isVisible());
  EXPECT_EQ(notice->text(), "Restored unsaved edit from 12:03");
  view.showRow(run, test::kRowB);  // another candidate: its recorded program, no notice
  EXPECT_FALSE(notice->isVisible());
  EXPECT_FALSE(view.isEditing());
  EXPECT_EQ(view.candidateProgram().toStdString(), *run->candidate(test::kRowB)->code);
}

}  // namespace
}  // namespace ks
