// AnalysisView (recorded markdown, or a plain "none recorded" plus the generated summary) and FlagsView
// (rows, and a click asking for the flagged line).
#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include "tests/view_logic/synthetic_run.h"
#include "views/item_models/flag_table_model.h"
#include "views/widgets/analysis_view.h"
#include "views/widgets/flags_view.h"

namespace ks {
namespace {

TEST(AnalysisView, RendersTheRecordedAnalysisAsMarkdown) {
  const auto run = test::syntheticRun();
  AnalysisView view;
  view.showRow(run, test::kRowC);
  EXPECT_TRUE(view.markdownShown().contains(QString::fromStdString(run->candidate(test::kRowC)->analysis.value())));
  const QString text = view.toPlainText();
  EXPECT_TRUE(text.contains("Why it is faster"));
  EXPECT_FALSE(text.contains("## Why"));  // rendered, not shown as source
  EXPECT_TRUE(text.contains("3.000×"));   // the recorded measurements table
  EXPECT_FALSE(text.contains("No analysis recorded"));
}

TEST(AnalysisView, SaysPlainlyWhenNoneIsRecordedAndSummarizesTheChange) {
  const auto run = test::syntheticRun();
  AnalysisView view;
  view.showRow(run, test::kRowE);
  const QString text = view.toPlainText();
  EXPECT_TRUE(text.contains("No analysis recorded for this candidate."));
  EXPECT_TRUE(text.contains("scale_kernel"));
  EXPECT_TRUE(text.contains("scale_ext"));
  EXPECT_TRUE(text.contains("torch.matmul"));
  EXPECT_TRUE(text.contains("9_Matmul_scale"));  // underscores escaped, not read as emphasis

  view.showRow(run, test::kRowD);
  EXPECT_TRUE(view.toPlainText().contains("records no program"));
  view.showRow(run, test::kRowNone);
  EXPECT_TRUE(view.toPlainText().contains("no candidate"));
}

TEST(FlagsView, ListsTheFlagsAndAsksForTheLineOnClick) {
  const auto run = test::syntheticRun();
  FlagsView view;
  view.resize(800, 200);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  view.showRow(run, test::kRowE);
  ASSERT_EQ(view.model()->rowCount(), 1);
  EXPECT_EQ(view.model()->index(0, FlagTableModel::SeverityColumn).data().toString(), "hack");
  EXPECT_EQ(view.model()->index(0, FlagTableModel::ConfidenceColumn).data().toString(), "90%");
  QSignalSpy requested(&view, &FlagsView::lineRequested);
  const QRect cell = view.view()->visualRect(view.model()->index(0, FlagTableModel::MessageColumn));
  QTest::mouseClick(view.view()->viewport(), Qt::LeftButton, {}, cell.center());
  ASSERT_EQ(requested.count(), 1);
  EXPECT_EQ(requested.first().first().toInt(), run->flags(test::kRowE)[0].lines[0]);

  view.showRow(run, test::kRowA);
  EXPECT_EQ(view.model()->rowCount(), 0);
  EXPECT_FALSE(view.view()->isVisible());  // a sentence replaces the empty table
}

}  // namespace
}  // namespace ks
