#include "core/nvcc/diagnostics_parser.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "tests/nvcc/build_test_support.h"

namespace ks::nvcc {
namespace {

TEST(DiagnosticsParser, FrontEndErrorsWithQuotedLineAndCaret) {
  auto d = parseDiagnostics(test::readFixture("nvcc/cudafe_errors.txt"));
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].file, "errs.cu");
  EXPECT_EQ(d[0].line, 5);
  EXPECT_EQ(d[0].severity, Severity::Error);
  EXPECT_EQ(d[0].tool, "nvcc");
  EXPECT_EQ(d[0].message, "identifier \"missing_value\" is undefined");
  EXPECT_EQ(d[0].excerpt, "  out[threadIdx.x] = a[threadIdx.x] + missing_value;");
  EXPECT_EQ(d[0].column, 39);  // the 'm' of missing_value
  EXPECT_EQ(d[1].line, 10);
  EXPECT_EQ(d[1].message, "expected a \";\"");
  EXPECT_EQ(d[2].line, 16);
  EXPECT_EQ(d[2].message, "class \"S\" has no member \"nothing\"");
}

TEST(DiagnosticsParser, WarningsNumbersAndInstantiationContext) {
  auto d = parseDiagnostics(test::readFixture("nvcc/instantiation.txt"));
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].severity, Severity::Warning);
  EXPECT_EQ(d[0].line, 5);
  EXPECT_EQ(d[0].message, "variable \"declared_not_used\" was declared but never referenced");
  EXPECT_EQ(d[1].severity, Severity::Error);
  EXPECT_EQ(d[1].line, 2);
  EXPECT_EQ(d[1].message,
            "expression must have class type but it has type \"float\"\n"
            "detected during instantiation of \"T twice(T) [with T=float]\" at line 6");
}

TEST(DiagnosticsParser, MultiLineMessageAndNotes) {
  auto d = parseDiagnostics(test::readFixture("nvcc/overload.txt"));
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].line, 4);
  EXPECT_EQ(d[0].message,
            "no instance of overloaded function \"f\" matches the argument list\n"
            "argument types are: (float *, double)");
  EXPECT_EQ(d[0].excerpt, "  o[0] = f(o, 1.0);");
  EXPECT_EQ(d[1].severity, Severity::Note);
  EXPECT_EQ(d[1].line, 2);
  EXPECT_EQ(d[2].severity, Severity::Note);
  EXPECT_EQ(d[2].line, 1);
}

TEST(DiagnosticsParser, HostPreprocessorFatalError) {
  auto d = parseDiagnostics(test::readFixture("nvcc/missing_include.txt"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].tool, "host");
  EXPECT_EQ(d[0].file, "inc.cu");
  EXPECT_EQ(d[0].line, 1);
  EXPECT_EQ(d[0].column, 10);
  EXPECT_EQ(d[0].severity, Severity::Error);
  EXPECT_EQ(d[0].message, "does_not_exist.h: No such file or directory");
  EXPECT_EQ(d[0].excerpt, "#include \"does_not_exist.h\"");
}

TEST(DiagnosticsParser, GccErrorsNotesAndIncludeChains) {
  auto d = parseDiagnostics(test::readFixture("nvcc/gcc_notes.txt"));
  auto errors =
      std::count_if(d.begin(), d.end(), [](const Diagnostic& x) { return x.severity == Severity::Error; });
  auto notes =
      std::count_if(d.begin(), d.end(), [](const Diagnostic& x) { return x.severity == Severity::Note; });
  EXPECT_EQ(errors, 2);
  EXPECT_GT(notes, 5);
  EXPECT_EQ(d[0].file, "host2.cpp");
  EXPECT_EQ(d[0].line, 5);
  EXPECT_EQ(d[0].column, 15);
  EXPECT_EQ(d[0].message, "could not convert '3' from 'int' to 'Box'");
  EXPECT_EQ(d[0].excerpt, "  return take(3, 4);");
  EXPECT_EQ(d[1].line, 7);
  EXPECT_EQ(d[1].column, 35);
  auto headerNote = std::find_if(d.begin(), d.end(), [](const Diagnostic& x) {
    return x.file.find("stl_iterator.h") != std::string::npos;
  });
  ASSERT_NE(headerNote, d.end());
  EXPECT_EQ(headerNote->severity, Severity::Note);
  EXPECT_EQ(headerNote->line, 630);
}

TEST(DiagnosticsParser, PtxasErrorIsDemangled) {
  auto d = parseDiagnostics(test::readFixture("nvcc/too_much_shared.ptxas.txt"));
  ASSERT_EQ(d.size(), 1u);  // the info lines are not diagnostics
  EXPECT_EQ(d[0].tool, "ptxas");
  EXPECT_EQ(d[0].severity, Severity::Error);
  EXPECT_EQ(d[0].message,
            "Entry function 'too_big(float*)' uses too much shared data (0x445c0 bytes, 0xc000 max)");
}

TEST(DiagnosticsParser, DriverAndLinker) {
  auto d = parseDiagnostics(
      "nvcc fatal   : Unsupported gpu architecture 'compute_999'\n"
      "/usr/bin/ld: kscope_shim.o: in function `kscope_call': undefined reference to `add(at::Tensor)'\n"
      "collect2: error: ld returned 1 exit status\n");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].tool, "nvcc-driver");
  EXPECT_EQ(d[0].message, "Unsupported gpu architecture 'compute_999'");
  EXPECT_EQ(d[1].tool, "linker");
  EXPECT_EQ(d[1].severity, Severity::Error);
  EXPECT_NE(d[1].message.find("undefined reference"), std::string::npos);
}

TEST(DiagnosticsParser, ToStringNamesFileLineAndPythonLine) {
  Diagnostic d{.file = "cuda_source.cu", .line = 12, .column = 5, .message = "boom", .pythonLine = 48};
  EXPECT_EQ(d.toString(), "cuda_source.cu:12:5 (Python line 48): error: boom");
}

}  // namespace
}  // namespace ks::nvcc
