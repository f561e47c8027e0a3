// The one rule for "this number is the PyTorch fallback's" (core/runs/fallback_note.h), from the typed build
// report and from an end event's JSON, which must agree.
#include "core/runs/fallback_note.h"

#include <gtest/gtest.h>

namespace ks::runs {
namespace {

protocol::ExtensionBuild build(const std::string& name, const std::string& program, bool ok,
                               const std::string& cause = {}) {
  protocol::ExtensionBuild b;
  b.name = name;
  b.program = program;
  b.ok = ok;
  b.cause = cause;
  return b;
}

nlohmann::ordered_json endEvent(const protocol::BuildReport& report) {
  nlohmann::ordered_json extensions = nlohmann::ordered_json::array();
  for (const auto& x : report.extensions)
    extensions.push_back({{"name", x.name}, {"program", x.program}, {"ok", x.ok}, {"cause", x.cause}});
  return {{"event", "result"}, {"result", {{"build", {{"extensions", extensions}}}}}};
}

TEST(FallbackNote, AFailedCandidateBuildMakesTheNumberTheFallbacks) {
  protocol::BuildReport report;
  report.extensions = {build("ok_ext", "candidate", true),
                       build("diagonal_matmul_cuda", "candidate", false, "bound-kernel")};
  const std::string note = fallbackNote(report);
  EXPECT_EQ(
      note.rfind("this number is the PyTorch fallback's: extension 'diagonal_matmul_cuda' did not build "
                 "(bound-kernel: functions= names a __global__ kernel",
                 0),
      0u)
      << note;
  EXPECT_TRUE(fellBack(report));
  EXPECT_EQ(fallbackNote(endEvent(report)), note);
}

TEST(FallbackNote, NoNoteWhenTheCandidateBuiltOrOnlyTheReferenceFailed) {
  protocol::BuildReport report;
  EXPECT_EQ(fallbackNote(report), "");
  report.extensions = {build("ref_ext", "reference", false, "source-error"), build("k", "candidate", true)};
  EXPECT_EQ(fallbackNote(report), "");
  EXPECT_FALSE(fellBack(report));
  EXPECT_EQ(fallbackNote(endEvent(report)), "");
  EXPECT_EQ(fallbackNote(nlohmann::ordered_json{{"event", "error"}}), "");
}

TEST(FallbackNote, ACauseThatIsNotKnownIsStillNamed) {
  protocol::BuildReport report;
  report.extensions = {build("x", "candidate", false, "")};
  EXPECT_EQ(fallbackNote(report), "this number is the PyTorch fallback's: extension 'x' did not build");
}

}  // namespace
// While a run goes on, the `build` event says whether the kernel compiled or the program goes on without it,
// in the words of the fallback rule.
TEST(BuildEventNote, SaysCompiledCachedOrThatTheFallbackRuns) {
  EXPECT_EQ(buildEventNote({"1", "candidate", "fast_gelu", true, false, 12.34, ""}),
            "candidate extension 'fast_gelu' compiled in 12.3 s");
  EXPECT_EQ(buildEventNote({"1", "candidate", "fast_gelu", true, true, 0.01, ""}),
            "candidate extension 'fast_gelu' came from the build cache");
  const std::string failed = buildEventNote({"1", "candidate", "k", false, false, 3, "bound-kernel"});
  EXPECT_EQ(failed.rfind("candidate extension 'k' did not build (bound-kernel: functions= names a __global__", 0),
            0u)
      << failed;
  EXPECT_NE(failed.find("it runs its PyTorch fallback and any number is the fallback's"), std::string::npos);
  const std::string reference = buildEventNote({"1", "reference", "r", false, false, 3, ""});
  EXPECT_EQ(reference, "reference extension 'r' did not build");
}

}  // namespace ks::runs
