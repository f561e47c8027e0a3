// Presentation mode in the window over a sample run (arrow keys step, Esc leaves, the slides
// saved in the run's sidecar and read back when the run is opened again), File ▸ Export's report and the
// charts' "Save Chart as PNG/SVG". The sample run is copied into a temporary folder, since the sidecar is
// written next to the run.
#include <gtest/gtest.h>

#include <QAction>
#include <QChartView>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>

#include "app/kernelscope/main_window.h"
#include "app/kernelscope/report_export.h"
#include "views/charts/chart_export.h"
#include "views/charts/charts_view.h"
#include "views/logic/loaded_run.h"
#include "views/logic/open_run.h"
#include "views/report/slide_deck.h"
#include "views/widgets/presentation_view.h"
#include "views/widgets/task_table.h"
#include "ks_test_paths.h"

namespace ks {
namespace {

const QString kHackSample = QStringLiteral(KS_SOURCE_DIR "/sample_runs/cached-output-hack.kscope.jsonl");

QString readAll(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

class Presentation : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir.isValid());
    run = dir.filePath(QStringLiteral("hacks.kscope.jsonl"));
    ASSERT_TRUE(QFile::copy(kHackSample, run));
  }
  // Opens the copy in `window` and waits for its flags.
  void open(MainWindow& window) {
    QSignalSpy flagged(&window, &MainWindow::flagsShown);
    window.openPath(run);
    ASSERT_TRUE(flagged.wait(30000));
  }
  int row(MainWindow& window, const char* candidate) {
    return window.run()->findRow("L1/901", candidate);
  }
  QTemporaryDir dir;
  QString run;
};

TEST_F(Presentation, ArrowKeysStepEscLeavesAndTheSidecarRoundTrips) {
  {
    MainWindow window;
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    open(window);
    PresentationView* p = window.presentationView();
    EXPECT_TRUE(p->deck().empty());
    for (const char* id : {"r2", "r3"}) {
      window.taskTable()->setCurrentRow(row(window, id));
      QString error;
      ASSERT_TRUE(p->addRow(window.openRun()->currentRow(), &error)) << error.toStdString();
    }
    EXPECT_FALSE(p->addRow(-1));
    ASSERT_TRUE(QFileInfo::exists(SlideDeck::sidecarPath(run)));

    ASSERT_TRUE(p->start());
    ASSERT_TRUE(QTest::qWaitForWindowExposed(p));
    EXPECT_TRUE(p->isFullScreen());
    EXPECT_EQ(p->slideCount(), 2);
    EXPECT_EQ(p->slideRow(), row(window, "r2"));
    // The caught hack says so first, then the numbers, the flags with their evidence lines and the diff.
    const QString first = p->slideText();
    EXPECT_TRUE(first.contains("candidate r2")) << first.toStdString();
    EXPECT_TRUE(first.contains("Caught hack"));
    EXPECT_LT(first.indexOf("Caught hack"), first.indexOf("Numbers"));
    EXPECT_TRUE(first.contains("cached-output"));
    EXPECT_TRUE(first.contains("diff against parent r1"));

    QTest::keyClick(p, Qt::Key_Right);
    EXPECT_EQ(p->slideIndex(), 1);
    EXPECT_TRUE(p->slideText().contains("candidate r3"));
    QTest::keyClick(p, Qt::Key_Right);  // the last slide stays
    EXPECT_EQ(p->slideIndex(), 1);
    QTest::keyClick(p, Qt::Key_Left);
    EXPECT_EQ(p->slideIndex(), 0);
    EXPECT_TRUE(p->slideText().contains("candidate r2"));

    QSignalSpy left(p, &PresentationView::left);
    QTest::keyClick(p, Qt::Key_Escape);
    EXPECT_EQ(left.count(), 1);
    EXPECT_FALSE(p->isVisible());
  }
  // A new window reads the sidecar with the run: the same slides, in the same order.
  MainWindow again;
  again.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&again));
  open(again);
  PresentationView* p = again.presentationView();
  ASSERT_EQ(p->deck().slides().size(), 2u);
  EXPECT_EQ(p->deck().slides()[0], (Slide{"L1/901", "r2"}));
  EXPECT_EQ(p->deck().slides()[1], (Slide{"L1/901", "r3"}));
  ASSERT_TRUE(p->start());
  EXPECT_EQ(p->slideRow(), row(again, "r2"));
  ASSERT_TRUE(p->removeRow(row(again, "r2")));
  EXPECT_EQ(SlideDeck::load(run).slides(), (std::vector<Slide>{{"L1/901", "r3"}}));
  p->leave();
}

TEST_F(Presentation, WithoutSlidesItShowsTheCurrentCandidateAndABrokenSidecarIsKept) {
  QFile broken(SlideDeck::sidecarPath(run));
  ASSERT_TRUE(broken.open(QIODevice::WriteOnly));
  broken.write("{not json");
  broken.close();
  MainWindow window;
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  open(window);
  PresentationView* p = window.presentationView();
  EXPECT_FALSE(p->deckError().isEmpty());
  EXPECT_TRUE(p->deck().empty());
  window.taskTable()->setCurrentRow(row(window, "r3"));
  ASSERT_TRUE(p->start());
  EXPECT_EQ(p->slideCount(), 1);
  EXPECT_TRUE(p->slideText().contains("candidate r3"));
  QTest::keyClick(p, Qt::Key_Escape);
  EXPECT_EQ(readAll(SlideDeck::sidecarPath(run)), QStringLiteral("{not json"));
}

// The model's analysis on a slide and in the exported page is rendered, as the Analysis pane renders it,
// not shown as its markdown source ("## What changed", backticks).
TEST_F(Presentation, TheSlideAndTheReportRenderTheAnalysisMarkdown) {
  MainWindow window;
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  open(window);
  window.taskTable()->setCurrentRow(row(window, "r2"));
  PresentationView* p = window.presentationView();
  ASSERT_TRUE(p->start());
  const QString text = p->slideText();
  EXPECT_TRUE(text.contains("What changed")) << text.toStdString();
  EXPECT_FALSE(text.contains("## What changed")) << text.toStdString();
  EXPECT_FALSE(text.contains("`forward`")) << text.toStdString();
  // "What changed" is a heading of the slide's document and `forward` is set in a fixed-pitch font.
  const QTextDocument* slide = p->findChild<QTextBrowser*>(QStringLiteral("slide"))->document();
  bool heading = false;
  for (QTextBlock b = slide->begin(); b.isValid(); b = b.next())
    heading = heading || (b.text() == "What changed" && b.blockFormat().headingLevel() > 0);
  EXPECT_TRUE(heading);
  const QTextCursor found = slide->find(QStringLiteral("calls forward many times"));
  ASSERT_FALSE(found.isNull()) << text.toStdString();
  QTextCursor code(found);
  code.setPosition(found.selectionStart() + 7);  // after the "f" of forward: its format
  const QTextCharFormat format = code.charFormat();
  const QString families = format.fontFamilies().toStringList().join(',');
  EXPECT_TRUE(format.fontFixedPitch() || families.contains("monospace") || families.contains("ourier"))
      << families.toStdString();
  const QTextCursor plain = slide->find(QStringLiteral("The benchmark calls"));
  ASSERT_FALSE(plain.isNull());
  EXPECT_FALSE(plain.charFormat().fontFamilies().toStringList().join(',').contains("monospace"));
  p->leave();

  bool ok = false;
  const QString html = dir.filePath(QStringLiteral("analysis.html"));
  exportReport(*window.openRun(), html, false, &ok);
  ASSERT_TRUE(ok);
  const QString page = readAll(html);
  EXPECT_TRUE(page.contains("<h5>What changed</h5>"));
  EXPECT_TRUE(page.contains("<code>forward</code>"));
  EXPECT_FALSE(page.contains("## What changed"));
}

TEST_F(Presentation, FileExportWritesTheReportAndChartsSaveAsPngAndSvg) {
  MainWindow window;
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  open(window);
  bool ok = false;
  const QString html = dir.filePath(QStringLiteral("report.html"));
  exportReport(*window.openRun(), html, false, &ok);
  ASSERT_TRUE(ok);
  const QString page = readAll(html);
  EXPECT_TRUE(page.contains("<svg")) << "charts inline";
  EXPECT_TRUE(page.contains("href=\"#t-L1-901-r2\""));
  EXPECT_TRUE(page.contains("<s>8.124×</s>"));
  const QString pdf = dir.filePath(QStringLiteral("one.pdf"));
  window.taskTable()->setCurrentRow(row(window, "r3"));
  exportReport(*window.openRun(), pdf, true, &ok);
  ASSERT_TRUE(ok);
  EXPECT_TRUE(readAll(pdf).startsWith("%PDF"));

  window.showPane(MainWindow::Pane::Charts);
  QTest::qWait(50);
  QChartView* histogram = window.chartsView()->histogramView();
  QStringList names;
  for (QAction* a : histogram->actions()) names << a->objectName();
  EXPECT_EQ(names, (QStringList{"savePng", "saveSvg"}));
  EXPECT_EQ(histogram->contextMenuPolicy(), Qt::ActionsContextMenu);
  const QString png = dir.filePath(QStringLiteral("h.png"));
  const QString svg = dir.filePath(QStringLiteral("h.svg"));
  ASSERT_TRUE(saveChartPng(histogram, png));
  ASSERT_TRUE(saveChartSvg(histogram, svg, QStringLiteral("histogram")));
  const QImage image(png);
  EXPECT_EQ(image.size(), histogram->size() * histogram->devicePixelRatio());
  const QString svgText = readAll(svg);
  EXPECT_TRUE(svgText.contains("<svg"));
  EXPECT_TRUE(svgText.contains("Recorded speedup") || svgText.contains("speedup")) << "the chart's text is vector text";
}

// README: presentation mode on a sample run (docs/screenshots/update.sh copies it).
TEST(Screenshots, PresentationMode) {
  QTemporaryDir dir;
  const QString run = dir.filePath(QStringLiteral("hacks.kscope.jsonl"));
  ASSERT_TRUE(QFile::copy(kHackSample, run));
  MainWindow window;
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  QSignalSpy flagged(&window, &MainWindow::flagsShown);
  window.openPath(run);
  ASSERT_TRUE(flagged.wait(30000));
  window.taskTable()->setCurrentRow(window.run()->findRow("L1/901", "r2"));
  PresentationView* p = window.presentationView();
  ASSERT_TRUE(p->start());
  ASSERT_TRUE(QTest::qWaitForWindowExposed(p));
  p->resize(1600, 900);
  QTest::qWait(100);
  const QString out = QStringLiteral(KS_BINARY_DIR "/screenshots");
  ASSERT_TRUE(QDir().mkpath(out));
  ASSERT_TRUE(p->grab().save(QDir(out).filePath(QStringLiteral("presentation.png"))));
  p->leave();
}

}  // namespace
}  // namespace ks
