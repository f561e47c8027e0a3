// The Search tab's model (views/logic/search_tree.h): the layered layout of a run's lineage, the flat
// fallback, what each node shows and the best-so-far-by-round series.
#include "views/logic/search_tree.h"

#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <set>

#include "core/formats/load.h"
#include "tests/view_logic/synthetic_run.h"
#include "views/logic/loaded_run.h"
#include "views/logic/measured_history.h"
#include "ks_test_paths.h"

namespace ks {
namespace {

struct Spec {
  std::string id;
  std::vector<std::string> parents;
  std::optional<int> step;
  std::optional<double> speedup;
  std::string outcome;  // of its re-run in the results history (failedRuns), when not a number
  std::string analysis;
};

Task makeTask(int number, const std::vector<Spec>& specs) {
  Task task;
  task.level = 1;
  task.number = number;
  task.name = "task" + std::to_string(number);
  task.referenceCode = "import torch\n";
  for (const Spec& s : specs) {
    Candidate& c = task.candidates.emplace_back();
    c.id = s.id;
    c.parents = s.parents;
    c.step = s.step;
    c.code = "class ModelNew: pass  # " + s.id + "\n";
    c.analysis = s.analysis;
    if (s.speedup) {
      Measurement m;
      m.speedup = s.speedup;
      m.origin = "measured";
      c.measurements.push_back(m);
    }
  }
  return task;
}

std::shared_ptr<const LoadedRun> runOf(std::vector<Task> tasks, std::vector<std::vector<Flag>> flags = {}) {
  RunFile file;
  file.format = "kscope-run";
  file.tasks = std::move(tasks);
  return std::make_shared<const LoadedRun>(std::move(file), std::move(flags));
}

// The failed re-runs of `specs` (their outcome) as the results history holds them, for a run of one task.
MeasuredHistory failedRuns(const LoadedRun& run, const std::vector<Spec>& specs) {
  MeasuredHistory history(run.rowCount());
  for (int row = 0; row < run.rowCount(); ++row)
    for (const Spec& s : specs)
      if (run.candidate(row) && run.candidate(row)->id == s.id && !s.outcome.empty()) {
        runs::MeasuredRun failed;
        failed.row.id = test::nextResultId();
        failed.row.outcome = s.outcome;
        failed.row.errorKind = s.outcome == "error" ? "build" : "";
        history.add(row, {failed, true});
      }
  return history;
}

// A branching search: r0 seeds round 0; three ideas in round 1; r7 merges two round-2 kernels.
std::vector<Spec> branching() {
  return {{"r0", {}, 0, 1.0, "", "Seed: the reference as written."},
          {"r1", {"r0"}, 1, 1.4, "", "## Idea\nFuse the bias into the GEMM epilogue."},
          {"r2", {"r0"}, 1, std::nullopt, "incorrect", "Use half precision accumulators."},
          {"r3", {"r0"}, 1, 0.7, "", "Split K across two blocks."},
          {"r4", {"r1"}, 2, 2.5, "", "Vectorise loads with float4."},
          {"r5", {"r1"}, 2, std::nullopt, "error", "Use tensor cores through wmma."},
          {"r6", {"r3"}, 2, 1.1, "", "Tune the split."},
          {"r7", {"r4", "r6"}, 3, 2.2, "", "Combine both."}};
}

const SearchNode& nodeOf(const SearchTree& tree, const LoadedRun& run, const std::string& id) {
  for (const SearchNode& n : tree.nodes())
    if (run.candidate(n.row)->id == id) return n;
  throw std::runtime_error("no node " + id);
}

// The properties every layout must have: every node once, parents before children and in an earlier layer,
// layers left to right with at least one slot between nodes, and x within the width.
void expectWellFormed(const SearchTree& tree, std::size_t candidates) {
  ASSERT_EQ(tree.nodes().size(), candidates);
  std::set<int> rows;
  for (std::size_t k = 0; k < tree.nodes().size(); ++k) {
    const SearchNode& n = tree.nodes()[k];
    EXPECT_TRUE(rows.insert(n.row).second) << "row " << n.row << " twice";
    EXPECT_EQ(tree.nodeOfRow(n.row), static_cast<int>(k));
    EXPECT_GE(n.x, 0);
    EXPECT_LT(n.x, tree.width());
    if (n.parent >= 0) {
      ASSERT_LT(n.parent, static_cast<int>(k)) << "parent after child";
      EXPECT_LT(tree.nodes()[static_cast<std::size_t>(n.parent)].layer, n.layer);
    }
  }
  std::size_t counted = 0;
  for (int layer = 0; layer < tree.layerCount(); ++layer) {
    double previous = -1;
    for (auto it = tree.layerBegin(layer); it != tree.layerEnd(layer); ++it, ++counted) {
      const SearchNode& n = tree.nodes()[static_cast<std::size_t>(*it)];
      EXPECT_EQ(n.layer, layer);
      if (it != tree.layerBegin(layer)) {
        EXPECT_GE(n.x - previous, 1.0) << "overlap in layer " << layer;
      }
      previous = n.x;
    }
  }
  EXPECT_EQ(counted, candidates);
}

TEST(SearchTree, RoundsAreLayersAndParentsComeFirst) {
  const auto run = runOf({makeTask(1, branching())});
  const SearchTree tree = SearchTree::build(*run);
  EXPECT_EQ(tree.kind(), SearchTree::Kind::Rounds);
  expectWellFormed(tree, 8);
  EXPECT_EQ(tree.layerCount(), 4);
  for (const SearchNode& n : tree.nodes())
    EXPECT_EQ(tree.roundOfLayer(n.layer), *run->candidate(n.row)->step);
  // Drawn under its first parent; the second one is an extra edge.
  const SearchNode& r7 = nodeOf(tree, *run, "r7");
  EXPECT_EQ(run->candidate(tree.nodes()[static_cast<std::size_t>(r7.parent)].row)->id, "r4");
  ASSERT_EQ(tree.extraEdges().size(), 1u);
  EXPECT_EQ(tree.extraEdges()[0],
            std::make_pair(tree.nodeOfRow(nodeOf(tree, *run, "r6").row), tree.nodeOfRow(r7.row)));
  // A parent sits over its children: r1 between r4 and r5, r0 between r1 and r3.
  EXPECT_GT(nodeOf(tree, *run, "r1").x, nodeOf(tree, *run, "r4").x - 1e-9);
  EXPECT_LT(nodeOf(tree, *run, "r1").x, nodeOf(tree, *run, "r5").x + 1e-9);
  EXPECT_GT(nodeOf(tree, *run, "r0").x, nodeOf(tree, *run, "r1").x);
  EXPECT_LT(nodeOf(tree, *run, "r0").x, nodeOf(tree, *run, "r3").x);
  EXPECT_TRUE(tree.issues().empty());
  // Hit testing finds the node under a point, and nothing far from any node.
  const SearchNode& r4 = nodeOf(tree, *run, "r4");
  EXPECT_EQ(tree.nodeAt(r4.layer, r4.x + 0.2, 0.4), tree.nodeOfRow(r4.row));
  EXPECT_EQ(tree.nodeAt(r4.layer, tree.width() + 5, 0.4), -1);
}

TEST(SearchTree, LineageWithoutRoundsIsLayeredByDepth) {
  std::vector<Spec> specs = branching();
  for (Spec& s : specs) s.step.reset();
  const auto run = runOf({makeTask(1, specs)});
  const SearchTree tree = SearchTree::build(*run);
  EXPECT_EQ(tree.kind(), SearchTree::Kind::Lineage);
  expectWellFormed(tree, 8);
  EXPECT_EQ(nodeOf(tree, *run, "r0").layer, 0);
  EXPECT_EQ(nodeOf(tree, *run, "r2").layer, 1);
  EXPECT_EQ(nodeOf(tree, *run, "r7").layer, 3);
}

TEST(SearchTree, WithoutLineageItIsAFlatListInFileOrder) {
  std::vector<Spec> specs;
  for (int i = 0; i < 60; ++i) specs.push_back({"c" + std::to_string(i), {}, std::nullopt, 1.0 + i, "", ""});
  const auto run = runOf({makeTask(1, specs)});
  const SearchTree tree = SearchTree::build(*run);
  EXPECT_EQ(tree.kind(), SearchTree::Kind::Flat);
  expectWellFormed(tree, 60);
  for (std::size_t k = 0; k < tree.nodes().size(); ++k) {
    EXPECT_EQ(tree.nodes()[k].row, static_cast<int>(k));  // file order
    EXPECT_EQ(tree.nodes()[k].parent, -1);
  }
  EXPECT_EQ(tree.layerCount(), 3);  // 25 + 25 + 10
  EXPECT_EQ(tree.width(), SearchTree::kFlatColumns);
  EXPECT_TRUE(bestSoFarByRound(tree, searchNodeStates(*run, nullptr, tree)).empty());
}

TEST(SearchTree, RoundsWithoutLinksAreRowsPerRound) {
  std::vector<Spec> specs;
  for (int i = 0; i < 12; ++i) specs.push_back({"c" + std::to_string(i), {}, i / 4, 1.0, "", ""});
  const auto run = runOf({makeTask(1, specs)});
  const SearchTree tree = SearchTree::build(*run);
  EXPECT_EQ(tree.kind(), SearchTree::Kind::Rounds);
  expectWellFormed(tree, 12);
  EXPECT_EQ(tree.layerCount(), 3);
  EXPECT_EQ(tree.width(), 4);
}

TEST(SearchTree, BadLineageIsDrawnAndListed) {
  const auto run = runOf({makeTask(1, {{"a", {"b"}, 1, 1.0, "", ""},
                                       {"b", {"a"}, 2, 1.0, "", ""},   // a loop
                                       {"c", {"zz"}, 1, 1.0, "", ""},  // unknown parent
                                       {"d", {"b"}, 1, 1.0, "", ""},   // before its parent's round
                                       {"e", {"e"}, 1, 1.0, "", ""}})});
  const SearchTree tree = SearchTree::build(*run);
  expectWellFormed(tree, 5);
  // The loop a -> b -> a is cut at b (now a root), which puts a (round 1) under a later round: 5 problems.
  EXPECT_EQ(tree.issueCount(), 5u);
  std::string all;
  for (const std::string& i : tree.issues()) all += i + "\n";
  EXPECT_NE(all.find("loops back"), std::string::npos) << all;
  EXPECT_NE(all.find("names parent \"zz\""), std::string::npos) << all;
  EXPECT_NE(all.find("\"d\" of L1/1 is in round 1, not after its parent \"b\""), std::string::npos) << all;
  EXPECT_NE(all.find("names itself"), std::string::npos) << all;
  EXPECT_NE(all.find("\"a\" of L1/1 is in round 1, not after its parent \"b\""), std::string::npos) << all;
  EXPECT_GT(nodeOf(tree, *run, "d").layer, nodeOf(tree, *run, "b").layer);
}

TEST(SearchTree, OneTaskOrEveryTask) {
  const auto run = runOf(
      {makeTask(1, branching()), makeTask(2, {{"x", {}, 0, 1.0, "", ""}, {"r0", {"x"}, 1, 1.0, "", ""}})});
  const SearchTree all = SearchTree::build(*run);
  expectWellFormed(all, 10);
  const SearchTree second = SearchTree::build(*run, 1);
  expectWellFormed(second, 2);
  // Ids are per task: the second task's r0 is under its own x, not the first task's r0.
  const SearchNode& r0 = second.nodes()[static_cast<std::size_t>(second.nodeOfRow(9))];
  EXPECT_EQ(run->candidate(second.nodes()[static_cast<std::size_t>(r0.parent)].row)->id, "x");
  EXPECT_EQ(second.nodeOfRow(0), -1);
}

TEST(SearchTree, NodeStatesFollowTheTrustRuleAndTheRecordedVerdicts) {
  std::vector<std::vector<Flag>> flags(8);
  flags[3].push_back({"output-cache", FlagSeverity::Hack, 0.9, "caches", {}, "", "static"});  // r3 0.7x
  flags[6].push_back({"output-cache", FlagSeverity::Hack, 0.9, "caches", {}, "", "static"});  // r6 1.1x
  const auto run = runOf({makeTask(1, branching())}, flags);
  const SearchTree tree = SearchTree::build(*run);
  const MeasuredHistory history = failedRuns(*run, branching());
  const std::vector<SearchNodeState> states = searchNodeStates(*run, &history, tree);
  const auto state = [&](const std::string& id) {
    return states[static_cast<std::size_t>(tree.nodeOfRow(nodeOf(tree, *run, id).row))];
  };
  EXPECT_EQ(state("r4").status, SearchNodeState::Status::Number);
  EXPECT_EQ(searchNodeColour(state("r4")), speedupColour(2.5));
  EXPECT_EQ(state("r2").status, SearchNodeState::Status::Incorrect);
  EXPECT_EQ(searchNodeColour(state("r2")), search_colours::kFailed);
  EXPECT_EQ(state("r5").status, SearchNodeState::Status::Error);
  EXPECT_EQ(state("r5").problem, "build");
  EXPECT_TRUE(state("r5").measuredHere);
  EXPECT_EQ(state("r3").status, SearchNodeState::Status::Untrusted);
  EXPECT_EQ(searchNodeColour(state("r3")), shape_colours::kUntrusted);
  EXPECT_NE(state("r3").problem.find("caught hack"), std::string::npos);

  // Best so far: r1 1.4 in round 1, r4 2.5 in round 2, kept in round 3 (r7 2.2); r6 (hack) never counts.
  const std::vector<RoundBest> rounds = bestSoFarByRound(tree, states);
  ASSERT_EQ(rounds.size(), 4u);
  EXPECT_EQ(rounds[1].round, 1);
  EXPECT_EQ(*rounds[1].best, 1.4);
  EXPECT_EQ(rounds[1].failed, 1);
  EXPECT_EQ(rounds[1].candidates, 3);
  EXPECT_EQ(*rounds[2].bestSoFar, 2.5);
  EXPECT_EQ(run->candidate(rounds[2].bestSoFarRow)->id, "r4");
  EXPECT_EQ(*rounds[3].best, 2.2);
  EXPECT_EQ(*rounds[3].bestSoFar, 2.5);
  for (std::size_t i = 1; i < rounds.size(); ++i) EXPECT_GE(*rounds[i].bestSoFar, *rounds[i - 1].bestSoFar);
}

TEST(SearchTree, AReRunInTheHistoryOverridesTheFile) {
  const auto run = runOf({makeTask(1, branching())});
  MeasuredHistory history(run->rowCount());
  history.add(4, {test::timedRun(3.0), true});  // r4, 2.5x in the file, 3x when re-run here
  const SearchNodeState s = searchNodeState(*run, &history, 4);
  EXPECT_EQ(s.status, SearchNodeState::Status::Number);
  EXPECT_TRUE(s.measuredHere);
  EXPECT_DOUBLE_EQ(*s.speedup, 3.0);
}

TEST(SearchTree, TheToolTipSaysTheIdea) {
  const auto run = runOf({makeTask(1, branching())});
  const SearchTree tree = SearchTree::build(*run);
  const MeasuredHistory history = failedRuns(*run, branching());
  const std::vector<SearchNodeState> states = searchNodeStates(*run, &history, tree);
  const int r1 = tree.nodeOfRow(1);
  const QString tip = searchNodeToolTip(*run, tree, r1, states[static_cast<std::size_t>(r1)]);
  EXPECT_TRUE(tip.startsWith(QStringLiteral("L1/1 · r1 · round 1 · from r0"))) << tip.toStdString();
  EXPECT_TRUE(tip.contains(QStringLiteral("1.400× faster"))) << tip.toStdString();
  EXPECT_TRUE(tip.contains(QStringLiteral("Idea: Fuse the bias into the GEMM epilogue.")))
      << tip.toStdString();
  const int r2 = tree.nodeOfRow(2);
  EXPECT_TRUE(searchNodeToolTip(*run, tree, r2, states[static_cast<std::size_t>(r2)])
                  .contains(QStringLiteral("Incorrect")));
}

// The search tree of a 100 000-candidate run lays out in well under a second. One task with RL-like lineage
// (each rollout derived from an earlier one, 8 per step), as bench/generate_run.cpp makes them; the assertion
// is loose (a loaded 2-core machine), the time is printed.
TEST(SearchTree, AHundredThousandCandidatesLayOutQuickly) {
  constexpr int kCandidates = 100000;
  Task task;
  task.level = 1;
  task.number = 1;
  task.referenceCode = "x";
  std::uint64_t state = 0x6B73636F7065ull;
  const auto next = [&state] {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  task.candidates.reserve(kCandidates);
  for (int i = 0; i < kCandidates; ++i) {
    Candidate& c = task.candidates.emplace_back();
    c.id = "r" + std::to_string(i);
    if (i > 0) c.parents.push_back("r" + std::to_string(next() % static_cast<std::uint64_t>(i)));
    c.step = i / 8;
    Measurement m;
    m.speedup = 0.3 + static_cast<double>(next() % 4000) / 1000.0;
    c.measurements.push_back(m);
  }
  const auto run = runOf({std::move(task)});
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpuStart = std::clock();  // CPU time: what the layout costs whatever else runs
  const SearchTree tree = SearchTree::build(*run);
  const double layoutS = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double layoutCpuS = static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;
  const std::vector<SearchNodeState> states = searchNodeStates(*run, nullptr, tree);
  const std::vector<RoundBest> rounds = bestSoFarByRound(tree, states);
  const double allS = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "[ search tree ] 100000 candidates: layout " << layoutS * 1000 << " ms (" << layoutCpuS * 1000
            << " ms CPU), with states and best " << allS * 1000 << " ms, width " << tree.width() << " slots, "
            << tree.layerCount() << " layers\n";
  expectWellFormed(tree, kCandidates);
  EXPECT_EQ(tree.layerCount(), kCandidates / 8);
  EXPECT_EQ(rounds.size(), static_cast<std::size_t>(kCandidates / 8));
  EXPECT_LT(layoutCpuS, 2.0);  // well under 1 s of CPU; loose for a slow CI machine
}

}  // namespace
}  // namespace ks

namespace ks {
namespace {

// The branching search in sample_runs/ loads cleanly, its lineage is a tree over four rounds, and it claims
// no number it does not have (measurements only once measured on a GPU).
TEST(SearchTreeSample, TheCaseStudyLoadsAndItsLineageIsWellFormed) {
  const std::string path = KS_SOURCE_DIR "/sample_runs/search-softmax.kscope.jsonl";
  const auto run = std::make_shared<const LoadedRun>(loadAny(path));
  for (const LoadIssue& issue : run->run().issues) ADD_FAILURE() << issue.toString();
  ASSERT_EQ(run->run().tasks.size(), 1u);
  const Task& task = run->run().tasks[0];
  EXPECT_EQ(task.key(), "L1/923");
  EXPECT_NE(task.referenceCode.find("torch.softmax(x, dim=1)"), std::string::npos);
  ASSERT_EQ(task.candidates.size(), 13u);
  std::map<std::string, int> perRound;
  for (const Candidate& c : task.candidates) {
    ASSERT_TRUE(c.code && c.step) << c.id;
    ++perRound["round " + std::to_string(*c.step)];
    EXPECT_NE(c.code->find("load_inline("), std::string::npos) << c.id;
    EXPECT_NE(c.code->find("__global__"), std::string::npos) << c.id;
    EXPECT_NE(c.analysis->find("## Idea"), std::string::npos) << c.id;
    for (const Measurement& m : c.measurements) {  // written only by bench/search_case_study_record.py
      EXPECT_EQ(m.origin, "measured") << c.id;
      EXPECT_FALSE(m.device.empty()) << c.id;
      // A correct run's number, or the verdict of a failed one (the run format's outcome and error).
      if (m.outcome == "correct") {
        EXPECT_TRUE(m.speedup.has_value()) << c.id;
      } else {
        EXPECT_FALSE(m.speedup.has_value()) << c.id;
        EXPECT_FALSE(m.error.empty()) << c.id;
      }
    }
  }
  EXPECT_EQ(perRound,
            (std::map<std::string, int>{{"round 0", 1}, {"round 1", 5}, {"round 2", 4}, {"round 3", 3}}));

  const SearchTree tree = SearchTree::build(*run);
  EXPECT_EQ(tree.kind(), SearchTree::Kind::Rounds);
  EXPECT_TRUE(tree.issues().empty()) << tree.issues().front();
  expectWellFormed(tree, 13);
  EXPECT_EQ(tree.layerCount(), 4);
  EXPECT_EQ(run->candidate(tree.nodes()[0].row)->id, "r0");  // the one root
  for (std::size_t k = 1; k < tree.nodes().size(); ++k) EXPECT_GE(tree.nodes()[k].parent, 0);
  ASSERT_EQ(tree.extraEdges().size(), 1u);  // r3c combines r2b and r2c
  EXPECT_EQ(run->candidate(tree.nodes()[static_cast<std::size_t>(tree.extraEdges()[0].first)].row)->id,
            "r2c");
  // The failures the analyses reason about are named there, for a person reading the tree.
  for (const char* id : {"r1d", "r2d", "r3b"}) {
    const Candidate* c = run->candidate(run->findRow("L1/923", id));
    EXPECT_NE(c->analysis->find("Reviewer's note"), std::string::npos) << id;
  }
  // Once measured on the GPU, the file carries their verdicts, and the tree draws them as failed re-runs are
  // drawn (without any results history): r1d and r3b incorrect, r2d did not build.
  const bool measured = !task.candidates[0].measurements.empty();
  if (measured) {
    const auto state = [&](const char* id) {
      return searchNodeState(*run, nullptr, run->findRow("L1/923", id));
    };
    EXPECT_EQ(state("r1d").status, SearchNodeState::Status::Incorrect);
    EXPECT_EQ(state("r3b").status, SearchNodeState::Status::Incorrect);
    EXPECT_EQ(state("r2d").status, SearchNodeState::Status::Error);
    EXPECT_NE(state("r2d").problem.find("build"), std::string::npos) << state("r2d").problem;
    EXPECT_NE(state("r1d").problem.find("max abs error"), std::string::npos) << state("r1d").problem;
    EXPECT_EQ(searchNodeColour(state("r2d")), search_colours::kFailed);
    EXPECT_EQ(state("r1a").status, SearchNodeState::Status::Number);
    const auto rounds = bestSoFarByRound(tree, searchNodeStates(*run, nullptr, tree));
    int failed = 0;
    for (const RoundBest& r : rounds) failed += r.failed;
    EXPECT_EQ(failed, 3);
  }
}

}  // namespace
}  // namespace ks
