#include "core/flags/flag_families.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include "ks_test_paths.h"

namespace ks {
namespace {

TEST(FlagFamilies, CatalogHasTheRequiredFamiliesWithTheirSeverities) {
  const std::pair<const char*, FlagSeverity> required[] = {{"extra-stream", FlagSeverity::Hack},
                                                           {"host-thread", FlagSeverity::Hack},
                                                           {"cached-output", FlagSeverity::Hack},
                                                           {"fallback-to-reference", FlagSeverity::Benign},
                                                           {"no-custom-kernel", FlagSeverity::Benign},
                                                           {"lowered-precision", FlagSeverity::Suspicious},
                                                           {"changed-inputs", FlagSeverity::Hack},
                                                           {"cuda-graph", FlagSeverity::Suspicious},
                                                           {"timer-patch", FlagSeverity::Hack},
                                                           {"lazy-output", FlagSeverity::Hack},
                                                           {"mutated-inputs", FlagSeverity::Hack},
                                                           {"stale-memory", FlagSeverity::Hack},
                                                           {"gc-scan", FlagSeverity::Hack},
                                                           {"nonfinite-output", FlagSeverity::Hack},
                                                           {"input-independent", FlagSeverity::Hack},
                                                           {"output-aliases-input", FlagSeverity::Hack},
                                                           {"impossible-time", FlagSeverity::Hack},
                                                           {"checker-patch", FlagSeverity::Hack},
                                                           {"hidden-code", FlagSeverity::Hack},
                                                           {"module-shadowing", FlagSeverity::Suspicious},
                                                           {"benchmark-detection", FlagSeverity::Hack},
                                                           {"l2-persistence", FlagSeverity::Suspicious},
                                                           {"validation-drift", FlagSeverity::Hack},
                                                           {"weak-task", FlagSeverity::Suspicious},
                                                           {"input-branching", FlagSeverity::Hack},
                                                           {"nondeterminism", FlagSeverity::Suspicious},
                                                           {"slowed-reference", FlagSeverity::Hack},
                                                           {"unfair-baseline", FlagSeverity::Suspicious},
                                                           {"invisible-cache", FlagSeverity::Hack}};
  for (const auto& [id, severity] : required) {
    const FlagFamily* f = findFlagFamily(id);
    ASSERT_NE(f, nullptr) << id;
    EXPECT_EQ(f->severity, severity) << id;
    EXPECT_FALSE(f->title.empty()) << id;
    EXPECT_GT(f->description.size(), 60u) << id;
  }
}

// docs/hacks.md names each family in a heading "### <id> — ..." (or "### <id> (benign) — ...") of its
// section "## The families".
TEST(FlagFamilies, EveryFamilyOfTheTaxonomyIsInTheCatalog) {
  std::ifstream doc(std::filesystem::path(KS_SOURCE_DIR) / "docs" / "hacks.md");
  ASSERT_TRUE(doc) << "docs/hacks.md not found";
  int families = 0;
  bool inSection = false;
  for (std::string line; std::getline(doc, line);) {
    if (line.starts_with("## ")) inSection = line == "## The families";
    if (!inSection || !line.starts_with("### ")) continue;
    const std::string id = line.substr(4, line.find(' ', 4) - 4);
    EXPECT_NE(findFlagFamily(id), nullptr) << id;
    ++families;
  }
  // One count, the catalog's: every heading is a family and every family has a heading.
  EXPECT_EQ(families, static_cast<int>(flagFamilies().size()));
}

// Families only a measurement can raise: the physical floor, and the families whose evidence is an output
// or a setting of a run (docs/static-flags.md, "Not covered statically").
TEST(FlagFamilies, OnlyMeasuredFamiliesHaveNoStaticRules) {
  const std::set<std::string_view> measured = {"impossible-time", "validation-drift", "weak-task",
                                               "input-branching", "nondeterminism",   "unfair-baseline"};
  for (const FlagFamily& f : flagFamilies()) EXPECT_EQ(f.staticRules, !measured.count(f.id)) << f.id;
}

TEST(FlagFamilies, IdsAreUniqueAndUnknownIdsAreNotFound) {
  std::set<std::string_view> ids;
  for (const FlagFamily& f : flagFamilies()) EXPECT_TRUE(ids.insert(f.id).second) << f.id;
  EXPECT_EQ(findFlagFamily("no-such-family"), nullptr);
}

TEST(FlagFamilies, CudaGraphDescriptionSaysWhatTellsStaleReplayFromHonestUse) {
  const std::string_view d = findFlagFamily("cuda-graph")->description;
  EXPECT_NE(d.find("copies each call's inputs"), std::string_view::npos);
  EXPECT_NE(d.find("hack"), std::string_view::npos);
}

TEST(FlagFamilies, SeverityNames) {
  EXPECT_STREQ(severityName(FlagSeverity::Hack), "hack");
  EXPECT_STREQ(severityName(FlagSeverity::Suspicious), "suspicious");
  EXPECT_STREQ(severityName(FlagSeverity::Benign), "benign");
}

}  // namespace
}  // namespace ks
