// Text that was drawn over other text or squeezed until it broke mid-word, at the smallest screen the
// layout is made for (1024 × 700): the Search tab's key ("fastercaught hack…"), the "Best so far by round"
// chart's labels, the runtime flags in the Measurements pane's details after a re-run ("sev/erit",
// "fami/ly") and the task list's Name header ("lam").
#include <gtest/gtest.h>

#include <QLogValueAxis>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <QAbstractTextDocumentLayout>
#include <QChart>
#include <QChartView>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QSettings>
#include <QSignalSpy>
#include <QStyle>
#include <QTableView>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTextLayout>

#include "app/kernelscope/main_window.h"
#include "core/formats/load.h"
#include "ks_test_paths.h"
#include "tests/view_logic/synthetic_run.h"
#include "views/charts/best_by_round_chart.h"
#include "views/logic/loaded_run.h"
#include "views/logic/open_run.h"
#include "views/item_models/candidate_table_model.h"
#include "views/widgets/measurements_view.h"
#include "views/widgets/run_result_view.h"
#include "views/widgets/search_tree_view.h"
#include "views/widgets/shape_map_legend.h"
#include "views/widgets/task_table.h"
#include "tests/views/gui_test_support.h"

namespace ks {
namespace {

using guitest::kSearchSample;
using guitest::forgetWindowLayout;



void showSmallest(MainWindow& window) {
  forgetWindowLayout();
  window.resize(MainWindow::kSmallestScreen);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  QTest::qWait(50);
  ASSERT_EQ(window.size(), MainWindow::kSmallestScreen);
}

// The words a line break of `document`'s layout cuts in two ("sev|erity"): the last character of a line and
// the first of the next are both letters or digits.
QStringList brokenWords(QTextDocument* document) {
  document->documentLayout()->blockBoundingRect(document->lastBlock());  // lays the whole document out
  QStringList broken;
  for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
    const QTextLayout* layout = block.layout();
    const QString text = block.text();
    for (int i = 0; layout && i + 1 < layout->lineCount(); ++i) {
      const QTextLine line = layout->lineAt(i);
      const int end = line.textStart() + line.textLength();
      if (end > 0 && end < text.size() && text[end - 1].isLetterOrNumber() && text[end].isLetterOrNumber())
        broken << text.left(end) + QStringLiteral("|") + text.mid(end);
    }
  }
  return broken;
}

TEST(LegibleText, TheSearchTabsKeyDrawsNoWordOverAnother) {
  MainWindow window;
  showSmallest(window);
  window.showRun(kSearchSample, std::make_shared<const LoadedRun>(loadAny(kSearchSample.toStdString())));
  window.showPane(MainWindow::Pane::Search);
  QTest::qWait(50);
  const ShapeMapLegend* legend = window.searchTreeView()->legend();
  ASSERT_TRUE(legend->isVisible());
  const auto parts = legend->parts(legend->width());
  ASSERT_GE(parts.size(), 11u);  // bar, slower, faster, ticks, three swatches with their words
  for (std::size_t i = 0; i < parts.size(); ++i) {
    EXPECT_TRUE(legend->rect().contains(parts[i].rect))
        << parts[i].text.toStdString() << " outside the key at width " << legend->width();
    if (!parts[i].text.isEmpty()) {
      EXPECT_GE(parts[i].rect.width(), legend->fontMetrics().horizontalAdvance(parts[i].text))
          << parts[i].text.toStdString();
    }
    for (std::size_t j = i + 1; j < parts.size(); ++j)
      EXPECT_FALSE(parts[i].rect.intersects(parts[j].rect))
          << '"' << parts[i].text.toStdString() << "\" and \"" << parts[j].text.toStdString() << '"';
  }
  EXPECT_GE(legend->height(), legend->heightForWidth(legend->width()));
  // Every word the key says is in it.
  QStringList words;
  for (const auto& p : parts) words << p.text;
  for (const char* word :
       {"slower", "faster", "caught hack or fallback: not a win", "no number", "incorrect or error"})
    EXPECT_TRUE(words.contains(QString::fromUtf8(word))) << word;
}

TEST(LegibleText, TheBestSoFarChartsLabelsFitItsWidth) {
  MainWindow window;
  showSmallest(window);
  window.showRun(kSearchSample, std::make_shared<const LoadedRun>(loadAny(kSearchSample.toStdString())));
  window.showPane(MainWindow::Pane::Search);
  QTest::qWait(50);
  BestByRoundChart* best = window.searchTreeView()->bestChart();
  ASSERT_FALSE(best->rounds().empty());
  ASSERT_TRUE(best->chartView()->isVisible());
  QChart* chart = best->chartView()->chart();
  // The title and the key are a label that wraps, not chart texts that are cut or overlap at this width.
  EXPECT_TRUE(chart->title().isEmpty());
  EXPECT_FALSE(chart->legend()->isVisible());
  const QLabel* key = best->key();
  ASSERT_TRUE(key->isVisible());
  EXPECT_TRUE(key->wordWrap());
  EXPECT_TRUE(key->text().contains("Best so far by round")) << key->text().toStdString();
  EXPECT_GE(key->height(), key->heightForWidth(key->width())) << key->text().toStdString();
  EXPECT_LE(key->width(), best->width());
  // Ticks on whole rounds, and no more labels on either axis than fit the plot with room between them.
  auto* x = qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).value(0));
  auto* y = qobject_cast<QLogValueAxis*>(chart->axes(Qt::Vertical).value(0));
  ASSERT_TRUE(x && y);
  EXPECT_EQ(x->tickType(), QValueAxis::TicksDynamic);
  EXPECT_EQ(x->tickAnchor(), std::round(x->tickAnchor()));
  EXPECT_GE(x->tickInterval(), 1.0);
  EXPECT_EQ(x->tickInterval(), std::round(x->tickInterval()));
  EXPECT_TRUE(x->titleText().isEmpty() && y->titleText().isEmpty()) << "the key names the axes";
  const QRectF plot = chart->plotArea();
  const QFontMetrics fm(y->labelsFont());
  const double yLabels = std::log2(y->max() / y->min()) / std::log2(y->base()) + 1;
  EXPECT_LE(yLabels * fm.height(), plot.height()) << yLabels << " labels, base " << y->base();
  const double xLabels = (x->max() - x->min()) / x->tickInterval();
  EXPECT_LE(xLabels * fm.horizontalAdvance(QStringLiteral("3")), plot.width());
  // Room for the plot beside the axis labels.
  EXPECT_GE(chart->plotArea().width(), 100) << "chart " << best->width() << " px wide";
}

TEST(LegibleText, TheRuntimeFlagsOfARerunBreakNoWordInTheMeasurementsDetails) {
  MainWindow window;
  showSmallest(window);
  QSignalSpy history(&window, &MainWindow::historyShown);
  window.showRun(QStringLiteral("/tmp/synthetic-run.jsonl"), test::syntheticRun());
  ASSERT_TRUE(history.wait(10000));
  window.taskTable()->setCurrentRow(test::kRowC);
  protocol::RuntimeFlag hack;
  hack.family = "cached-output";
  hack.severity = "hack";
  hack.probe = "repeat-calls";
  hack.lines = {4};
  hack.message = "Two calls on different inputs returned the same storage: the output is cached.";
  protocol::RuntimeFlag stream = hack;
  stream.family = "extra-stream";
  stream.severity = "suspicious";
  stream.probe = "streams";
  stream.message = "The candidate launched work on a stream the harness does not time.";
  window.openRun()->addRun(test::kRowC, {test::timedRun(10059.9, "sha256:recorded", {hack, stream}), true});
  window.showPane(MainWindow::Pane::Measurements);
  QTest::qWait(50);
  auto* details = window.measurementsView()->resultView()->findChild<QTextBrowser*>("runResultText");
  ASSERT_TRUE(details && details->isVisible());
  const QString text = details->toPlainText();
  ASSERT_TRUE(text.contains("Runtime flags")) << text.toStdString();
  ASSERT_TRUE(text.contains("cached-output"));
  const QStringList broken = brokenWords(details->document());
  EXPECT_TRUE(broken.isEmpty()) << details->width()
                                << " px: " << broken.join(QStringLiteral(" / ")).toStdString();
}

// Every header of the task list shows its words whole, with the sort arrow's room, on the synthetic run
// (a Candidate column) and on the CUDA-L1 release (none, where Name was "lam").
void expectWholeHeaders(MainWindow& window) {
  QHeaderView* header = window.taskTable()->view()->horizontalHeader();
  const int margin = header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
  QString sizes;
  int shown = 0;
  for (int c = 0; c < header->count(); ++c) {
    if (header->isSectionHidden(c)) continue;
    ++shown;
    const QString name = header->model()->headerData(c, Qt::Horizontal).toString();
    sizes += QStringLiteral(" %1=%2").arg(name).arg(header->sectionSize(c));
    // Its words (the widest of its lines) and the header's margins, and the sort arrow's room in the sorted
    // column.
    int words = 0;
    for (const QString& line : name.split('\n'))
      words = std::max(words, header->fontMetrics().horizontalAdvance(line));
    const int arrow = header->style()->pixelMetric(QStyle::PM_HeaderMarkSize, nullptr, header) + 2 * margin;
    const int least = words + 2 * margin + (c == header->sortIndicatorSection() ? arrow : 0);
    EXPECT_GE(header->sectionSize(c), least) << name.toStdString();
  }
  EXPECT_GE(shown, 5) << sizes.toStdString();
  EXPECT_EQ(window.size(), MainWindow::kSmallestScreen) << sizes.toStdString();
}

TEST(LegibleText, TheTaskListsHeadersAreWhole) {
  {
    MainWindow window;
    showSmallest(window);
    window.showRun(QStringLiteral("/tmp/synthetic-run.jsonl"), test::syntheticRun());
    QTest::qWait(50);
    expectWholeHeaders(window);
  }
  // The CUDA-L2 release: its Speedup column names a baseline and a mode ("Speedup vs torch.matmul
  // (offline)"), the longest header of any run.
  if (const QString l2 = QStringLiteral(KS_SHARED_DIR "/datasets/cuda-l2");
      QFileInfo::exists(l2 + "/kernels")) {
    MainWindow window;
    showSmallest(window);
    window.showRun(l2, std::make_shared<const LoadedRun>(loadAny(l2.toStdString())));
    QTest::qWait(50);
    expectWholeHeaders(window);
  }
  const QString release = QStringLiteral(KS_SHARED_DIR "/datasets/cuda-l1/h100.jsonl");
  if (!QFileInfo::exists(release)) GTEST_SKIP() << "no CUDA-L1 release at " << release.toStdString();
  MainWindow window;
  showSmallest(window);
  window.showRun(release, std::make_shared<const LoadedRun>(loadAny(release.toStdString())));
  QTest::qWait(50);
  expectWholeHeaders(window);
}

}  // namespace
}  // namespace ks
