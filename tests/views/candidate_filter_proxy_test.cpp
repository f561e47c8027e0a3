// CandidateTableModel + CandidateFilterProxy: columns, filtering by level / text / speedup range / flags,
// sorting, on 100 000 rows (their times are printed; bench_gui holds the targets).
#include "views/item_models/candidate_filter_proxy.h"

#include <gtest/gtest.h>

#include <QElapsedTimer>
#include <QPersistentModelIndex>
#include <algorithm>
#include <cmath>
#include <iostream>
#include <tuple>

#include "tests/view_logic/synthetic_run.h"
#include "views/item_models/candidate_table_model.h"

namespace ks {
namespace {

using FlagFilter = CandidateFilterProxy::FlagFilter;

class CandidateFilterProxyTest : public ::testing::Test {
 protected:
  void SetUp() override { model.setRun(test::syntheticRun()); }
  QList<int> shownRows() const {
    QList<int> rows;
    for (int r = 0; r < proxy.rowCount(); ++r) rows << proxy.sourceRow(r);
    std::sort(rows.begin(), rows.end());
    return rows;
  }

  CandidateTableModel model;
  CandidateFilterProxy proxy{&model};
};

TEST_F(CandidateFilterProxyTest, ModelHasOneRowPerCandidateAndOneColumnPerBaseline) {
  EXPECT_EQ(model.rowCount(), 6);
  ASSERT_EQ(model.seriesCount(), 2);                                                // default, cuda_graph
  EXPECT_EQ(model.columnCount(), CandidateTableModel::FirstSpeedupColumn + 2 + 3);  // measured, flags, code
  EXPECT_EQ(model.index(test::kRowA, model.measuredColumn()).data().toString(), "—");  // no history given
  EXPECT_EQ(model.headerData(model.speedupColumn(1), Qt::Horizontal, Qt::DisplayRole).toString(),
            "vs CUDA graph");
  EXPECT_EQ(model.index(test::kRowA, CandidateTableModel::TaskColumn).data().toString(), "L1/1");
  EXPECT_EQ(model.index(test::kRowA, model.speedupColumn(0)).data().toString(), "1.500×");
  EXPECT_EQ(model.index(test::kRowB, model.speedupColumn(1)).data().toString(), "—");
  EXPECT_EQ(model.index(test::kRowE, model.flagsColumn()).data().toString(), "extra-stream");
  EXPECT_EQ(model.index(test::kRowD, model.codeColumn()).data().toString(), "");
  EXPECT_EQ(model.index(test::kRowNone, CandidateTableModel::CandidateColumn).data().toString(), "—");
  EXPECT_TRUE(std::isnan(model.speedup(test::kRowD, 0)));
}

TEST_F(CandidateFilterProxyTest, FiltersByLevel) {
  proxy.setLevel(1);
  EXPECT_EQ(shownRows(), (QList<int>{test::kRowA, test::kRowB, test::kRowC}));
  proxy.setLevel(3);
  EXPECT_EQ(shownRows(), QList<int>{test::kRowNone});
  proxy.setLevel(0);
  EXPECT_EQ(proxy.rowCount(), 6);
}

TEST_F(CandidateFilterProxyTest, FiltersByEveryWordOfTheText) {
  proxy.setText("MAT");
  EXPECT_EQ(shownRows(), (QList<int>{test::kRowA, test::kRowB, test::kRowE}));
  proxy.setText("mat l2/");
  EXPECT_EQ(shownRows(), QList<int>{test::kRowE});
  proxy.setText("extra-stream");  // flag families are searchable too
  EXPECT_EQ(shownRows(), QList<int>{test::kRowE});
  proxy.setText("no-such-thing");
  EXPECT_EQ(proxy.rowCount(), 0);
}

TEST_F(CandidateFilterProxyTest, FiltersBySpeedupRangeOfOneBaseline) {
  proxy.setSpeedupRange(0, 1.0, 0);
  EXPECT_EQ(shownRows(), (QList<int>{test::kRowA, test::kRowC, test::kRowE}));
  proxy.setSpeedupRange(0, 0, 2.0);
  EXPECT_EQ(shownRows(), (QList<int>{test::kRowA, test::kRowB}));
  proxy.setSpeedupRange(0, 1.5, 3.0);  // bounds are inclusive
  EXPECT_EQ(shownRows(), (QList<int>{test::kRowA, test::kRowC}));
  proxy.setSpeedupRange(1, 1.0, 0);
  EXPECT_EQ(shownRows(), QList<int>{test::kRowA});
}

TEST_F(CandidateFilterProxyTest, FiltersByFlags) {
  proxy.setFlagFilter(FlagFilter::Flagged);
  EXPECT_EQ(shownRows(), QList<int>{test::kRowE});
  proxy.setFlagFilter(FlagFilter::Unflagged);
  EXPECT_EQ(proxy.rowCount(), 5);
  const auto& ids = model.familyIds();
  const int family = static_cast<int>(std::find(ids.begin(), ids.end(), "extra-stream") - ids.begin());
  proxy.setFlagFilter(FlagFilter::Family, family);
  EXPECT_EQ(shownRows(), QList<int>{test::kRowE});
  proxy.clearFilters();
  EXPECT_EQ(proxy.rowCount(), 6);
}

TEST_F(CandidateFilterProxyTest, SortsSpeedupsNumericallyWithMissingOnesLast) {
  proxy.sort(model.speedupColumn(0), Qt::DescendingOrder);
  QList<int> order;
  for (int r = 0; r < proxy.rowCount(); ++r) order << proxy.sourceRow(r);
  EXPECT_EQ(order.mid(0, 4), (QList<int>{test::kRowE, test::kRowC, test::kRowA, test::kRowB}));
  proxy.sort(CandidateTableModel::TaskColumn, Qt::AscendingOrder);
  EXPECT_EQ(proxy.sourceRow(0), test::kRowA);
  EXPECT_EQ(proxy.sourceRow(5), test::kRowNone);
}

// Every column sorts as the rule says (rows without a value first when ascending, ties in task order),
// and descending is ascending read backwards.
TEST_F(CandidateFilterProxyTest, EveryColumnSortsBothWays) {
  const auto byTask = [&](int a, int b) {
    const auto& x = model.values(a);
    const auto& y = model.values(b);
    return std::tie(x.level, x.number, x.candidateIndex) < std::tie(y.level, y.number, y.candidateIndex);
  };
  for (int column = 0; column < model.columnCount(); ++column) {
    SCOPED_TRACE(column);
    proxy.sort(column, Qt::AscendingOrder);
    QList<int> ascending;
    for (int r = 0; r < proxy.rowCount(); ++r) ascending << proxy.sourceRow(r);
    ASSERT_EQ(ascending.size(), model.rowCount());
    for (int r = 1; r < ascending.size(); ++r) {
      const int a = ascending[r - 1], b = ascending[r];
      if (column >= CandidateTableModel::FirstSpeedupColumn && column < model.measuredColumn()) {
        const double x = model.speedup(a, column - CandidateTableModel::FirstSpeedupColumn);
        const double y = model.speedup(b, column - CandidateTableModel::FirstSpeedupColumn);
        EXPECT_TRUE(std::isnan(x) || (!std::isnan(y) && x <= y)) << a << " before " << b;
        if ((std::isnan(x) && std::isnan(y)) || x == y) {
          EXPECT_TRUE(byTask(a, b)) << a << " before " << b;
        }
      }
      if (column == CandidateTableModel::TaskColumn) {
        EXPECT_TRUE(byTask(a, b));
      }
    }
    proxy.sort(column, Qt::DescendingOrder);
    QList<int> descending;
    for (int r = 0; r < proxy.rowCount(); ++r) descending << proxy.sourceRow(r);
    std::reverse(descending.begin(), descending.end());
    EXPECT_EQ(descending, ascending);
  }
}

// A filter or a sort moves the view's current row along (persistent indexes), and drops it when hidden.
TEST_F(CandidateFilterProxyTest, PersistentIndexesFollowFiltersAndSorts) {
  proxy.sort(CandidateTableModel::TaskColumn, Qt::AscendingOrder);
  const QPersistentModelIndex current = proxy.index(proxy.proxyRow(test::kRowC), 2);
  ASSERT_TRUE(current.isValid());
  proxy.sort(model.speedupColumn(0), Qt::DescendingOrder);
  ASSERT_TRUE(current.isValid());
  EXPECT_EQ(proxy.sourceRow(current.row()), test::kRowC);
  EXPECT_EQ(current.column(), 2);
  proxy.setLevel(1);
  ASSERT_TRUE(current.isValid());
  EXPECT_EQ(proxy.sourceRow(current.row()), test::kRowC);
  proxy.setLevel(2);  // kRowC is level 1: hidden
  EXPECT_FALSE(current.isValid());
  EXPECT_EQ(proxy.proxyRow(test::kRowC), -1);
  EXPECT_EQ(proxy.mapFromSource(model.index(test::kRowC, 0)), QModelIndex());
}

TEST(CandidateFilterProxyLarge, FilterAndSortOf100000RowsStayInteractive) {
  CandidateTableModel model;
  model.setRun(test::largeRun(100000));
  CandidateFilterProxy proxy(&model);
  proxy.sort(CandidateTableModel::TaskColumn);
  ASSERT_EQ(proxy.rowCount(), 100000);

  // Each step is timed up to the first question a view asks (rowCount builds the mapping).
  QElapsedTimer timer;
  timer.start();
  proxy.setText("matmul");
  const int textRows = proxy.rowCount();
  const qint64 textMs = timer.restart();
  proxy.setText({});
  const int allRows = proxy.rowCount();
  const qint64 clearMs = timer.restart();
  proxy.setSpeedupRange(0, 2.0, 0);
  const int rangeRows = proxy.rowCount();
  const qint64 rangeMs = timer.restart();
  proxy.sort(model.speedupColumn(0), Qt::DescendingOrder);
  const qint64 sortMs = timer.elapsed();

  int expectedText = 0;
  int expectedRange = 0;
  for (int r = 0; r < model.rowCount(); ++r) {
    expectedText += model.rowContains(r, "matmul");
    expectedRange += model.speedup(r, 0) >= 2.0;
  }
  EXPECT_GT(expectedText, 0);
  EXPECT_EQ(textRows, expectedText);
  EXPECT_EQ(allRows, 100000);
  EXPECT_EQ(rangeRows, expectedRange);
  for (int r = 1; r < proxy.rowCount(); ++r)
    ASSERT_GE(model.speedup(proxy.sourceRow(r - 1), 0), model.speedup(proxy.sourceRow(r), 0));
  // Printed, not asserted: the target (100 ms) is met in bench_gui, not in a test on a loaded machine.
  std::cout << "100 000 rows: text filter " << textMs << " ms, clear " << clearMs << " ms, range " << rangeMs
            << " ms, sort " << sortMs << " ms\n";
}

}  // namespace
}  // namespace ks
