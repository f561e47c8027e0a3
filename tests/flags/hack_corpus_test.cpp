// The static rules scored on the project's labelled corpus (tests/hacks): every family with static rules
// catches every entry the manifest marks statically detectable, no control gets a hack flag, and
// impossible-time (measured only) is not applicable. The table is printed, as kscope check --corpus does.
#include "core/flags/hack_corpus.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>

#include "core/flags/corpus_score.h"
#include "core/flags/flag_families.h"
#include "core/flags/static_rules.h"
#include "ks_test_paths.h"

namespace ks {
namespace {

TEST(HackCorpus, StaticRulesCatchEveryStaticallyDetectableEntryAndNoControlIsAHack) {
  const Corpus corpus = loadCorpus(std::filesystem::path(KS_SOURCE_DIR) / "tests" / "hacks");
  ASSERT_TRUE(corpus.error.empty()) << corpus.error;
  std::vector<std::vector<Flag>> flags;
  for (const CorpusEntry& e : corpus.entries) {
    EXPECT_TRUE(e.error.empty()) << e.error;
    flags.push_back(checkStatic(e.referenceProgram, e.program));
  }
  const CorpusScore score = scoreCorpus(corpus.entries, flags, "static");
  EXPECT_GT(score.entries, 60);
  // Every program in controls/ is a control of the manifest (counted from the folder, not written here).
  int controlFiles = 0;
  for (const auto& f : std::filesystem::directory_iterator(std::filesystem::path(KS_SOURCE_DIR) / "tests" /
                                                           "hacks" / "controls"))
    controlFiles += f.path().extension() == ".py";
  EXPECT_EQ(score.controls, controlFiles);
  EXPECT_EQ(score.hackFlagsOnControls, 0);
  int families = 0;
  for (const FamilyScore& f : score.families) {
    std::cout << f.family << ": tp " << f.tp << " fp " << f.fp << " fn " << f.fn << " n/a " << f.notApplicable
              << " severity " << f.severityAgrees << "/" << f.tp << "\n";
    EXPECT_TRUE(f.missed.empty()) << f.family << " misses " << f.missed.front();
    if (!f.rules) {  // measured only (flag_families.cpp: staticRules false)
      EXPECT_EQ(f.notApplicable, f.entries) << f.family;
      if (f.family == "impossible-time") {
        EXPECT_EQ(f.caughtByAlso, f.entries);  // its C++ result caches are reported as cached-output
      }
      continue;
    }
    ASSERT_TRUE(f.recall.has_value()) << f.family;
    EXPECT_DOUBLE_EQ(*f.recall, 1.0) << f.family;
    EXPECT_GE(*f.precision, 0.75) << f.family;
    ++families;
  }
  int measuredOnly = 0;
  for (const FlagFamily& f : flagFamilies()) measuredOnly += !f.staticRules;
  EXPECT_EQ(families, static_cast<int>(flagFamilies().size()) - measuredOnly);
}

}  // namespace
}  // namespace ks
