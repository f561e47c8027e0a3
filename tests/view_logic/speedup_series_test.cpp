// The recorded series a run offers (speedup_series.h) and everything that shows one, on the real CUDA-L2
// release and CUDA-L1 file (each skipped with the reason when it is not at ../shared) and on small runs
// built here: the first series is one the file records, the open run's choice and its memory, the charts'
// distribution, the search tree, the Measurements headline, the report, the task label, an empty chart's
// words, and a caught hack never counted as a win in any of them.
#include "views/logic/speedup_series.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <set>

#include "core/formats/load.h"
#include "core/protocol/gemm_baselines.h"
#include "ks_test_paths.h"
#include "tests/view_logic/synthetic_run.h"
#include "views/logic/empty_chart_text.h"
#include "views/logic/loaded_run.h"
#include "views/logic/measured_history.h"
#include "views/logic/open_run.h"
#include "views/logic/recorded_headline.h"
#include "views/report/report_content.h"
#include "views/logic/search_tree.h"
#include "views/logic/speedup_distribution.h"
#include "views/logic/speedup_trust.h"
#include "views/logic/task_label.h"
#include "tests/view_logic/cuda_l2_release.h"

namespace ks {
namespace {

const std::filesystem::path kCudaL1 = KS_SHARED_DIR "/datasets/cuda-l1/h100.jsonl";


std::shared_ptr<const LoadedRun> cudaL1() {
  static const std::shared_ptr<const LoadedRun> run = []() -> std::shared_ptr<const LoadedRun> {
    if (!std::filesystem::exists(kCudaL1)) return nullptr;
    return std::make_shared<const LoadedRun>(loadAny(kCudaL1));
  }();
  return run;
}

#define NEED_CUDA_L1()                                  \
  const std::shared_ptr<const LoadedRun> l1 = cudaL1(); \
  if (!l1) GTEST_SKIP() << "the CUDA-L1 file is not at " << kCudaL1.string() << " (../shared)"

const SpeedupSeries kMatmulOffline{"torch.matmul", "offline"};
const SpeedupSeries kCublasMaxOffline{"cuBLAS-max", "offline"};

// The row of the release's task M×N×K.
int rowOf(const LoadedRun& run, std::int64_t m, std::int64_t n, std::int64_t k) {
  for (int r = 0; r < run.rowCount(); ++r)
    if (const Task& t = run.task(r); t.gemm && t.gemm->m == m && t.gemm->n == n && t.gemm->k == k) return r;
  return -1;
}

TEST(SpeedupSeriesOnTheRelease, TheFirstSeriesIsOneTheReleaseRecordsAndEveryOneIsListed) {
  NEED_CUDA_L2_RELEASE();
  const auto& series = run->series();
  ASSERT_EQ(series.size(), 20u) << "ten baselines, offline and server";
  EXPECT_EQ(series.front(), kMatmulOffline) << "the first CSV's first column, not \"default\"";
  EXPECT_EQ(run->seriesIndex(SpeedupSeries{}), -1) << "the release records nothing against \"default\"";
  EXPECT_EQ(seriesLabel(series.front()), "torch.matmul (offline)");
  EXPECT_EQ(series[10], (SpeedupSeries{"torch.matmul", "server"}));
  EXPECT_NE(run->seriesIndex(kCublasMaxOffline), -1);
  // Every series of the list is recorded by every one of the 1000 kernels.
  for (const SpeedupSeries& s : series) {
    int recorded = 0;
    for (int r = 0; r < run->rowCount(); ++r)
      if (const Candidate* c = run->candidate(r); c && recordedSpeedup(*c, s)) ++recorded;
    EXPECT_EQ(recorded, 1000) << seriesLabel(s);
  }
  // 64_64_64 in the offline CSV: torch.matmul 1.837, cuBLAS-max 1.859; in the server CSV its own numbers.
  const int row = rowOf(*run, 64, 64, 64);
  ASSERT_GE(row, 0);
  EXPECT_DOUBLE_EQ(*recordedSpeedup(*run->candidate(row), kMatmulOffline), 1.837);
  EXPECT_DOUBLE_EQ(*recordedSpeedup(*run->candidate(row), kCublasMaxOffline), 1.859);
  EXPECT_EQ(findSeries(series, "cuBLAS-max (offline)"), kCublasMaxOffline);
  EXPECT_EQ(findSeries(series, "cuBLAS-max"), kCublasMaxOffline) << "a baseline alone: its first mode";
  EXPECT_FALSE(findSeries(series, "default"));
}

TEST(SpeedupSeriesOnTheRelease, TheDistributionOfTheFirstSeriesHasEveryKernel) {
  NEED_CUDA_L2_RELEASE();
  const SpeedupDistribution first(*run, run->series().front());
  EXPECT_EQ(first.points().size(), 1000u);
  EXPECT_TRUE(emptyChartText(run.get(), run->series().front(), first).empty());
  const SpeedupDistribution cublas(*run, kCublasMaxOffline);
  ASSERT_EQ(cublas.points().size(), 1000u);
  const int row = rowOf(*run, 64, 64, 64);
  const auto at = std::find_if(cublas.points().begin(), cublas.points().end(),
                               [&](const SpeedupDistribution::Point& p) { return p.row == row; });
  ASSERT_NE(at, cublas.points().end());
  EXPECT_DOUBLE_EQ(at->speedup, 1.859);
  // What used to be charted: nothing, and now the chart says why in words that name what the file has.
  const SpeedupDistribution none(*run, SpeedupSeries{});
  EXPECT_TRUE(none.points().empty());
  const std::string why = emptyChartText(run.get(), SpeedupSeries{}, none);
  EXPECT_NE(why.find("No candidate records a speedup against default"), std::string::npos) << why;
  EXPECT_NE(why.find("torch.matmul (offline)"), std::string::npos) << why;
  EXPECT_NE(why.find("and 14 more"), std::string::npos) << why;  // six named of twenty
}

TEST(SpeedupSeriesOnTheRelease, AnOpenReleaseStartsOnItsFirstSeriesAndRemembersTheOneChosen) {
  NEED_CUDA_L2_RELEASE();
  NEED_CUDA_L1();
  OpenRun open;
  int changes = 0;
  QObject::connect(&open, &OpenRun::seriesChanged, [&] { ++changes; });
  open.open(QStringLiteral("cuda-l2"), run);
  EXPECT_EQ(open.series(), kMatmulOffline);
  EXPECT_FALSE(open.setSeries(SpeedupSeries{})) << "not recorded: refused";
  EXPECT_EQ(changes, 0);
  EXPECT_TRUE(open.setSeries(kCublasMaxOffline));
  EXPECT_EQ(changes, 1);
  EXPECT_EQ(open.series(), kCublasMaxOffline);
  EXPECT_TRUE(open.setSeries(kCublasMaxOffline));
  EXPECT_EQ(changes, 1) << "the same series again changes nothing";
  // CUDA-L1 does not record cuBLAS-max: it opens on "default", and the release again on cuBLAS-max.
  open.open(QStringLiteral("cuda-l1"), l1);
  EXPECT_EQ(open.series(), SpeedupSeries{});
  open.open(QStringLiteral("cuda-l2"), run);
  EXPECT_EQ(open.series(), kCublasMaxOffline);
}

TEST(SpeedupSeriesOnCudaL1, TheSeriesAreTheBaselinesAsBeforeDefaultFirst) {
  NEED_CUDA_L1();
  const auto& series = l1->series();
  ASSERT_FALSE(series.empty());
  EXPECT_EQ(series.front(), SpeedupSeries{});
  EXPECT_TRUE(series.front().isDefault());
  // The baselines a recorded speedup names, "default" first, then in order of appearance, none with a mode.
  std::vector<std::string> baselines{"default"};
  for (const Task& t : l1->run().tasks)
    for (const Candidate& c : t.candidates)
      for (const Measurement& m : c.measurements)
        if (m.origin == "recorded" && m.speedup &&
            std::find(baselines.begin(), baselines.end(), m.baseline.str()) == baselines.end())
          baselines.push_back(m.baseline);
  ASSERT_EQ(series.size(), baselines.size());
  for (std::size_t i = 0; i < series.size(); ++i) {
    EXPECT_EQ(series[i].baseline, baselines[i]);
    EXPECT_EQ(series[i].mode, "");
    EXPECT_EQ(seriesLabel(series[i]), baselines[i]);
  }
  // The default series reads each candidate's claim as Candidate::speedup() does, and the charts' points
  // are the same as those of the baseline's name.
  for (int r = 0; r < l1->rowCount(); ++r) {
    if (const Candidate* c = l1->candidate(r)) {
      EXPECT_EQ(recordedSpeedup(*c, SpeedupSeries{}), c->speedup()) << r;
    }
  }
  EXPECT_EQ(SpeedupDistribution(*l1, SpeedupSeries{}).points().size(),
            SpeedupDistribution(*l1, std::string("default")).points().size());
  // Its tasks keep their keys as labels and their names.
  EXPECT_EQ(taskLabel(l1->task(0)), l1->task(0).key());
  EXPECT_FALSE(nameRepeatsLabel(l1->task(0)));
}

TEST(SpeedupSeries, ARunThatRecordsNothingHasTheDefaultSeriesAndItsChartsSayWhy) {
  RunFile file;
  Task& t = file.tasks.emplace_back();
  t.level = 1;
  t.number = 1;
  t.name = "1_Matmul";
  t.candidates.emplace_back().id = "a";
  const LoadedRun run(file);
  ASSERT_EQ(run.series().size(), 1u);
  EXPECT_TRUE(run.series().front().isDefault());
  const SpeedupDistribution none(run, run.series().front());
  EXPECT_NE(emptyChartText(&run, run.series().front(), none).find("records no speedup"), std::string::npos);
  EXPECT_EQ(emptyChartText(nullptr, {}, none), "Open a run to chart its recorded speedups.");
  // The synthetic run records "default" and "cuda_graph": those two, in that order.
  const auto synthetic = test::syntheticRun();
  ASSERT_EQ(synthetic->series().size(), 2u);
  EXPECT_TRUE(synthetic->series()[0].isDefault());
  EXPECT_EQ(synthetic->series()[1], (SpeedupSeries{"cuda_graph", ""}));
}

TEST(SpeedupSeries, AReRunsNumberInASeriesIsItsTimingOfThatBaselineByTheModesMethod) {
  runs::MeasuredRun run = test::timedRun(1.8);
  EXPECT_EQ(measuredSpeedup(run, SpeedupSeries{}), 1.8) << "default: the run's own speedup";
  EXPECT_FALSE(measuredSpeedup(run, kMatmulOffline)) << "no baselines timed";
  protocol::GemmBaselines b;
  b.timings = protocol::withFasterLayouts({{"torch.matmul", "cuda-l2-offline", 40, 1, 1, 1.75, 0, 0, ""},
                                           {"torch.matmul", "cuda-l2-server", 40, 1, 1, 1.65, 0, 0, ""},
                                           {"cuBLAS-tn", "cuda-l2-offline", 40, 1, 1, 1.30, 0, 0, ""},
                                           {"cuBLAS-nn", "cuda-l2-offline", 40, 1, 1, 1.40, 0, 0, ""}});
  run.result->baselines = b;
  EXPECT_EQ(measuredSpeedup(run, kMatmulOffline), 1.75);
  EXPECT_EQ(measuredSpeedup(run, (SpeedupSeries{"torch.matmul", "server"})), 1.65);
  EXPECT_EQ(measuredSpeedup(run, kCublasMaxOffline), 1.30) << "the faster layout, the release's rule";
  EXPECT_FALSE(measuredSpeedup(run, (SpeedupSeries{"cuBLAS-tn", "server"})));
  run.row.outcome = "incorrect";
  EXPECT_FALSE(measuredSpeedup(run, kMatmulOffline)) << "an incorrect run has no number";
}

TEST(TaskLabel, AGemmTaskIsItsShapeAndItsNameSaysNothingMore) {
  Task t;
  t.id = "h100_F32F16F16F32/64x4096x4096";
  t.name = "GEMM 64x4096x4096 (h100_F32F16F16F32)";
  t.gemm = GemmShape{64, 4096, 4096, "h100", "F32F16F16F32", "fp16", "fp32"};
  EXPECT_EQ(taskLabel(t), "64×4096×4096");
  EXPECT_TRUE(nameRepeatsLabel(t));
  t.name = "GEMM 64x4096x4096 (h100_F32F16F16F32) with bias";
  EXPECT_FALSE(nameRepeatsLabel(t)) << "a name that adds words keeps them";
  Task kb;
  kb.level = 1;
  kb.number = 12;
  kb.name = "12_Matmul_with_diagonal_matrices_";
  EXPECT_EQ(taskLabel(kb), "L1/12");
  EXPECT_FALSE(nameRepeatsLabel(kb));
}

TEST(TaskLabelOnTheRelease, EveryShapeIsItsOwnLabelAndNoNameAddsToIt) {
  NEED_CUDA_L2_RELEASE();
  std::set<std::string> labels;
  for (const Task& t : run->run().tasks) {
    labels.insert(taskLabel(t));
    EXPECT_TRUE(nameRepeatsLabel(t)) << t.name;
  }
  EXPECT_EQ(labels.size(), 1000u) << "the rows can be told apart by their labels alone";
  EXPECT_TRUE(labels.count("64×4096×4096"));
  EXPECT_TRUE(labels.count("16384×16384×16384"));
}

TEST(RecordedHeadlineOnTheRelease, ListsWhatIsRecordedWithTheShownClaimFirst) {
  NEED_CUDA_L2_RELEASE();
  const int row = rowOf(*run, 64, 64, 64);
  const Candidate& c = *run->candidate(row);
  const SpeedupTrust trusted = speedupTrust(*run, nullptr, row);
  const QString html = recordedHeadlineHtml(c, kMatmulOffline, trusted, QStringLiteral("H100, CUDA-L2"));
  EXPECT_TRUE(
      html.startsWith(QStringLiteral("recorded <b>1.837×</b> vs torch.matmul (offline) (H100, CUDA-L2)")))
      << html.toStdString();
  EXPECT_TRUE(html.contains(QStringLiteral("20 recorded: torch.matmul, cuBLAS-tn, cuBLAS-nn, cuBLAS-max,")))
      << html.toStdString();
  EXPECT_TRUE(html.contains(QStringLiteral("cuBLASLt-auto-tuning-max, each offline and server")))
      << html.toStdString();
  // The series it used to read ("default") is not recorded: it says so, and what is.
  const QString none = recordedHeadlineHtml(c, SpeedupSeries{}, trusted, QStringLiteral("CUDA-L2"));
  EXPECT_TRUE(none.startsWith(QStringLiteral("no speedup recorded vs default · 20 recorded: torch.matmul")))
      << none.toStdString();
  // A caught hack: the verdict first, the claim struck through (claimDisplay), never a plain number.
  std::vector<std::vector<Flag>> flags(static_cast<std::size_t>(run->rowCount()));
  flags[static_cast<std::size_t>(row)].push_back(
      Flag{.family = "cached-output", .severity = FlagSeverity::Hack, .message = "caught"});
  const auto flagged = run->withFlags({flags, {}});
  const QString hack = recordedHeadlineHtml(c, kMatmulOffline, speedupTrust(*flagged, nullptr, row), {});
  EXPECT_TRUE(hack.contains(QStringLiteral("caught hack · <s>1.837×</s>"))) << hack.toStdString();
}

TEST(RecordedHeadline, TheDefaultSeriesHeadlineIsItsOneClaimAsBefore) {
  const auto run = test::syntheticRun();
  const SpeedupTrust trust = speedupTrust(*run, nullptr, test::kRowA);
  EXPECT_EQ(
      recordedHeadlineHtml(*run->candidate(test::kRowA), SpeedupSeries{}, trust, QStringLiteral("x.jsonl")),
      QStringLiteral("recorded <b>1.500×</b> (x.jsonl)"));
  EXPECT_EQ(
      recordedHeadlineHtml(*run->candidate(test::kRowD), SpeedupSeries{}, trust, QStringLiteral("x.jsonl")),
      QStringLiteral("no speedup recorded"));
  EXPECT_EQ(seriesListText({{"default", ""}, {"cuda_graph", ""}}), QStringLiteral("default, cuda_graph"));
}

TEST(SearchTreeOnTheRelease, NodesShowTheChosenSeriesAndNeverAHackAsAWin) {
  NEED_CUDA_L2_RELEASE();
  const SearchTree tree = SearchTree::build(*run, SearchTree::kAllTasks);
  const int row = rowOf(*run, 64, 64, 64);
  const auto node = [&](const std::vector<SearchNodeState>& states) {
    for (std::size_t i = 0; i < tree.nodes().size(); ++i)
      if (tree.nodes()[i].row == row) return states[i];
    return SearchNodeState{};
  };
  const SearchNodeState first = node(searchNodeStates(*run, nullptr, tree, run->series().front()));
  ASSERT_TRUE(first.countsAsWin());
  EXPECT_DOUBLE_EQ(*first.speedup, 1.837);
  EXPECT_DOUBLE_EQ(*node(searchNodeStates(*run, nullptr, tree, kCublasMaxOffline)).speedup, 1.859);
  EXPECT_FALSE(node(searchNodeStates(*run, nullptr, tree, SpeedupSeries{})).speedup)
      << "\"default\" is not recorded: no number";
  std::vector<std::vector<Flag>> flags(static_cast<std::size_t>(run->rowCount()));
  flags[static_cast<std::size_t>(row)].push_back(
      Flag{.family = "cached-output", .severity = FlagSeverity::Hack, .message = "caught"});
  const auto flagged = run->withFlags({flags, {}});
  const SearchNodeState hack = node(searchNodeStates(*flagged, nullptr, tree, kMatmulOffline));
  EXPECT_EQ(hack.status, SearchNodeState::Status::Untrusted);
  EXPECT_FALSE(hack.countsAsWin());
}

TEST(ReportOnTheRelease, TheReportChartsAndSummarizesTheChosenSeries) {
  NEED_CUDA_L2_RELEASE();
  ReportOptions options;
  options.tasks = {run->task(rowOf(*run, 64, 64, 64)).key()};
  options.series = kCublasMaxOffline;
  const ReportContent r = buildReport(*run, nullptr, options);
  EXPECT_EQ(r.baseline, "cuBLAS-max (offline)");
  EXPECT_EQ(r.summary.overall.withSpeedup, 1000u) << "overall: the chosen series, not \"default\"";
  EXPECT_EQ(r.distribution.points().size(), 1000u);
  ASSERT_EQ(r.sections.size(), 1u);
  EXPECT_DOUBLE_EQ(*r.sections[0].recordedSpeedup, 1.859);
  // Flagged: counted apart in the charts' words, the claim shown after its verdict.
  std::vector<std::vector<Flag>> flags(static_cast<std::size_t>(run->rowCount()));
  flags[static_cast<std::size_t>(rowOf(*run, 64, 64, 64))].push_back(
      Flag{.family = "cached-output", .severity = FlagSeverity::Hack, .message = "caught"});
  const ReportContent hacked = buildReport(*run->withFlags({flags, {}}), nullptr, options);
  EXPECT_EQ(hacked.distribution.caughtHacks(), 1);
  EXPECT_EQ(hacked.sections[0].verdict, "caught hack");
}

TEST(ReportOnCudaL1, TheDefaultSeriesReportIsTheSameAsBefore) {
  NEED_CUDA_L1();
  const ReportContent r = buildReport(*l1, nullptr, ReportOptions{{l1->task(0).key()}, {}, {}});
  EXPECT_EQ(r.baseline, "default");
  const RunSummary before = summarize(l1->run());
  EXPECT_EQ(r.summary.overall.withSpeedup, before.overall.withSpeedup);
  EXPECT_DOUBLE_EQ(r.summary.overall.median, before.overall.median);
  EXPECT_EQ(r.summary.byLevel.size(), before.byLevel.size());
  EXPECT_EQ(r.distribution.points().size(), SpeedupDistribution(*l1, std::string("default")).points().size());
  ASSERT_FALSE(r.sections.empty());
  EXPECT_EQ(r.sections[0].recordedSpeedup, l1->candidate(0)->speedup());
}

}  // namespace
}  // namespace ks
