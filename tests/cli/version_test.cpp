// --version of the three programs (kscope, kscope-runner, kernelscope): one string, from core/version, that
// starts with the project version of the top CMakeLists.txt.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace {

struct Output {
  std::string out;
  int exitCode = -1;
};

Output runProgram(const std::string& command) {
  Output r;
  FILE* pipe = popen((command + " 2>/dev/null").c_str(), "r");  // Qt may warn on stderr
  if (!pipe) return r;
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) r.out.append(buffer, n);
  const int status = pclose(pipe);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// "kscope 0.1.0 (git abc1234)\n" -> "0.1.0 (git abc1234)"
std::string versionOf(const std::string& program, const Output& r) {
  EXPECT_EQ(r.exitCode, 0) << program << ": " << r.out;
  const std::string prefix = program + " ";
  EXPECT_EQ(r.out.rfind(prefix, 0), 0u) << r.out;
  std::string v = r.out.substr(std::min(prefix.size(), r.out.size()));
  while (!v.empty() && (v.back() == '\n' || v.back() == '\r')) v.pop_back();
  EXPECT_EQ(v.rfind(KS_PROJECT_VERSION, 0), 0u) << "does not start with the project version: " << r.out;
  return v;
}

TEST(Version, KscopePrintsTheProjectVersion) {
  const std::string v = versionOf("kscope", runProgram(std::string("'") + KSCOPE_BINARY + "' --version"));
  EXPECT_FALSE(v.empty());
}

TEST(Version, TheRunnerAndTheExplorerPrintTheSameStringAsKscope) {
  const std::string kscope =
      versionOf("kscope", runProgram(std::string("'") + KSCOPE_BINARY + "' --version"));
#ifdef KSCOPE_RUNNER_BINARY
  EXPECT_EQ(versionOf("kscope-runner", runProgram(std::string("'") + KSCOPE_RUNNER_BINARY + "' --version")),
            kscope);
  const Output stray = runProgram(std::string("'") + KSCOPE_RUNNER_BINARY + "' --frobnicate");
  EXPECT_EQ(stray.exitCode, 1) << "the runner takes no arguments but these two";
#else
  std::printf("kscope-runner not built (KSCOPE_ENGINE=OFF): its --version is not checked\n");
#endif
#ifdef KERNELSCOPE_BINARY
  // QCommandLineParser prints "<application name> <version>"; the offscreen platform needs no display.
  EXPECT_EQ(versionOf("kernelscope", runProgram(std::string("QT_QPA_PLATFORM=offscreen '") +
                                                KERNELSCOPE_BINARY + "' --version")),
            kscope);
#else
  std::printf("kernelscope not built (KSCOPE_GUI=OFF): its --version is not checked\n");
#endif
}

}  // namespace
