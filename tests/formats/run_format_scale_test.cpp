// The run format at RL scale: programs stay in the file (ProgramText), candidate lines go through the fast
// scanner (run_format_scan.h), which must read exactly what the JSON reader reads or leave the line to it;
// and the verdict a measurement may carry (outcome, error).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/formats/file_text_source.h"
#include "core/formats/line_stream.h"
#include "core/formats/load.h"
#include "core/formats/run_format.h"
#include "core/formats/run_format_scan.h"
#include "tests/formats/run_file_compare.h"
#include "tests/formats/temp_dir.h"

namespace ks {
namespace {

const std::string kHeader = R"({"kscope_run": 1, "title": "t"})"
                            "\n"
                            R"({"type": "task", "level": 1, "number": 1, "reference": {"code": "x"}})"
                            "\n";

std::vector<std::string> issueTexts(const RunFile& run) {
  std::vector<std::string> out;
  for (const LoadIssue& i : run.issues) out.push_back(i.toString());
  return out;
}

// Reads `text` with and without the fast scanner and expects the same run and the same issues.
RunFile readBothWays(const test::TempDir& dir, const std::string& name, const std::string& text) {
  const auto path = dir.write(name, text);
  const RunFile fast = readRunFile(path);
  LoadOptions slowOptions;
  slowOptions.fastCandidateLines = false;
  const RunFile slow = readRunFile(path, slowOptions);
  EXPECT_EQ(issueTexts(fast), issueTexts(slow)) << text;
  test::expectSameRun(slow, fast);
  for (std::size_t t = 0; t < fast.tasks.size() && t < slow.tasks.size(); ++t)
    for (std::size_t c = 0; c < fast.tasks[t].candidates.size() && c < slow.tasks[t].candidates.size(); ++c)
      EXPECT_EQ(fast.tasks[t].candidates[c].sourceLine, slow.tasks[t].candidates[c].sourceLine);
  return fast;
}

// Whether the scanner takes `line` (a candidate line) itself.
bool scanned(const std::string& line) {
  CandidateScan scan{nullptr, {}};
  std::string task;
  Candidate c;
  return scanCandidateLine(line, 0, scan, task, c);
}

TEST(RunFormatScale, ProgramsAndAnalysesStayInTheFile) {
  test::TempDir dir;
  RunFile run;
  Task& task = run.tasks.emplace_back();
  task.level = 1;
  task.number = 1;
  task.referenceCode = "ref";
  Candidate& c = task.candidates.emplace_back();
  c.id = "r1";
  c.code = "print(\"μs\")\n\ttab \\ backslash \u00e9 \U0001F600\n";
  c.analysis = "## Idea\n\nfuse";
  Measurement m;
  m.speedup = 2.0;
  c.measurements.push_back(m);
  ASSERT_TRUE(writeRunFile(run, dir.path() / "run.jsonl"));
  const RunFile read = readRunFile(dir.path() / "run.jsonl");
  ASSERT_TRUE(read.issues.empty()) << read.issues[0].toString();
  const Candidate& got = read.tasks.at(0).candidates.at(0);
  EXPECT_FALSE(got.code.inMemory());
  EXPECT_FALSE(got.analysis.inMemory());
  EXPECT_EQ(got.code.value(), c.code.value());
  EXPECT_EQ(got.analysis.value(), "## Idea\n\nfuse");
  // The stored bytes are the escaped JSON text: longer than the program.
  EXPECT_GT(got.code.storedBytes(), c.code.value().size());
}

TEST(RunFormatScale, AFileRemovedAfterLoadingStillReads) {
  test::TempDir dir;
  const auto path =
      dir.write("run.jsonl", kHeader + R"({"type": "candidate", "task": "L1/1", "id": "a", )"
                                       R"("code": "line\none", "measurements": [{"speedup": 1.5}]})"
                                       "\n");
  const RunFile run = readRunFile(path);
  std::filesystem::remove(path);
  dir.write("run.jsonl", "something else entirely, longer than the file was before it was replaced\n");
  EXPECT_EQ(run.tasks.at(0).candidates.at(0).code.value(), "line\none");
}

TEST(RunFormatScale, AFileThatGrewStillReadsOneRewrittenInPlaceIsRefused) {
  test::TempDir dir;
  const std::string line = R"({"type": "candidate", "task": "L1/1", "id": "a", "code": "abc", )"
                           R"("measurements": [{"speedup": 1.5}]})"
                           "\n";
  const auto path = dir.write("run.jsonl", kHeader + line);
  const RunFile run = readRunFile(path);
  const ProgramText& code = run.tasks.at(0).candidates.at(0).code;
  {  // a job appends a candidate: what was read still reads
    std::ofstream out(path, std::ios::binary | std::ios::app);
    out << line;
  }
  EXPECT_EQ(code.value(), "abc");
  {  // rewritten in place, the program moved: refused, not misread
    std::fstream out(path, std::ios::binary | std::ios::in | std::ios::out);
    out << std::string(kHeader.size() + line.find("abc") + 4, ' ');  // over the program
  }
  try {
    (void)code.value();
    ADD_FAILURE() << "read a rewritten file";
  } catch (const TextReadError& e) {
    EXPECT_NE(std::string(e.what()).find("changed since it was opened"), std::string::npos) << e.what();
  }
  EXPECT_EQ(code.valueOrEmpty(), "");
}

TEST(RunFormatScale, AFifoIsSpooledAndItsProgramsReadAfterTheCopyIsGone) {
  test::TempDir dir;
  const auto fifo = dir.path() / "pipe.kscope.jsonl";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string text = kHeader + R"({"type": "candidate", "task": "L1/1", "id": "a", "code": "piped\n", )"
                                     R"("measurements": [{"speedup": 3}]})"
                                     "\n";
  std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << text; });
  const RunFile run = loadAny(fifo);
  writer.join();
  ASSERT_TRUE(run.issues.empty()) << run.issues[0].toString();
  EXPECT_EQ(run.path, fifo.string());
  EXPECT_EQ(run.tasks.at(0).candidates.at(0).code.value(), "piped\n");
}

TEST(RunFormatScale, LinesKnowTheirOffsetInTheFile) {
  test::TempDir dir;
  const std::string text = "\xEF\xBB\xBF{\"a\":1}\r\n\n  {\"b\":2}\n" + std::string(50, 'x') + "\n{\"c\":3}";
  const auto path = dir.write("lines.jsonl", text);
  std::vector<RunFile> unused(1);
  IssueList issues(path.string(), unused[0].issues);
  LoadOptions options;
  options.maxLineBytes = 20;  // the line of x is skipped: offsets after it must still be right
  std::vector<std::pair<std::string, std::uint64_t>> got;
  streamLines(path, options, issues, [&](std::span<const TextLine> lines) {
    for (const TextLine& l : lines) got.emplace_back(std::string(l.text), l.offset);
    return true;
  });
  for (const auto& [line, offset] : got) EXPECT_EQ(text.substr(offset, line.size()), line);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[2].first, "{\"c\":3}");
}

// Lines the scanner must leave to the JSON reader (which reports them, or reads them its own way), and
// lines it takes: either way both readers agree on the run and on the issues.
TEST(RunFormatScale, TheScannerAndTheJsonReaderAgree) {
  test::TempDir dir;
  const std::vector<std::pair<std::string, bool>> lines = {
      // taken
      {R"({"type": "candidate", "task": "L1/1", "id": "a", "code": "x\ty\n\"q\" \u00e9 \/", "measurements": [{"speedup": 2}]})",
       true},
      {R"({"analysis":"","code":null,"id":"a","language":"cuda","measurements":[{"baseline":"b","speedup":1e-3,"baseline_ms":1.5E2,"candidate_ms":0.25,"device":"d","origin":"measured","when":"w","mode":"offline","extra":[{"x":[1,true,false,null]}]}],"parents":["p","q"],"step":-3,"task":"L1/1","type":"candidate","future":{"k":"v"}})",
       true},
      {R"({"type": "candidate", "task": "L1/1", "id": "a", "parents": null, "step": null, "language": null, "analysis": null, "measurements": null})",
       true},
      {R"({"type": "candidate", "task": "L1/1", "id": "a", "measurements": [{"outcome": "incorrect"}, {"outcome": "error", "error": "nvcc: 1 error"}]})",
       true},
      {"{\"type\": \"candidate\", \"task\": \"L1/1\", \"id\": \"\xCE\xBC\", \"code\": \"\xF0\x9F\x98\x80\"}",
       true},
      // left to the JSON reader
      {R"({"type": "candidate", "task": "L1/1", "id": "a", "id": "b"})", false},               // repeated key
      {R"({"type": "candidate", "task": "L1/1", "id": "\u0061"})", false},                     // escaped id
      {R"({"type": "candidate", "task": "L1/1", "id": "a", "code": "\x"})", false},            // bad escape
      {R"({"type": "candidate", "task": "L1/1", "id": "a", "code": "\ud83d\ude00"})", false},  // surrogates
      {R"({"type": "candidate", "task": "L1/1", "id": "a", "code": "\ud83d"})", false},  // lone surrogate
      {"{\"type\": \"candidate\", \"task\": \"L1/1\", \"id\": \"a\", \"code\": \"\xC0\xAF\"}",
       false},  // overlong
      {"{\"type\": \"candidate\", \"task\": \"L1/1\", \"id\": \"a\", \"code\": \"\xED\xA0\x80\"}", false},
      {"{\"type\": \"candidate\", \"task\": \"L1/1\", \"id\": \"a\", \"code\": \"a\tb\"}", false},  // raw tab
      {R"({"type": "candidate", "task": "L1/1", "id": "a", "step": 1.0})", false},
      {R"({"type": "candidate", "task": "L1/1", "id": "a", "step": 3000000000})", false},
      {R"({"type": "candidate", "task": "L1/1", "id": "a", "measurements": [{"speedup": 0}]})", false},
      {R"({"type": "candidate", "task": "L1/1", "id": "a", "measurements": [{"speedup": -1}]})", false},
      {R"({"type": "candidate", "task": "L1/1", "id": "a", "measurements": [{"speedup": 1e400}]})", false},
      {R"({"type": "candidate", "task": "L1/1", "id": "a", "measurements": [{"speedup": 01}]})", false},
      {R"({"type": "candidate", "task": "L1/1", "id": "a", "measurements": [{"device": "x"}]})", false},
      {R"({"type": "candidate", "task": "L1/1", "id": "a", "measurements": [{"speedup": 1, "origin": ""}]})",
       false},
      {R"({"type": "candidate", "task": "L1/1", "id": "a", "measurements": [{"speedup": 1, "outcome": "ok"}]})",
       false},
      {R"({"type": "candidate", "task": "L1/1", "id": "a", "measurements": [{"speedup": 1, "baseline": ""}]})",
       true},
      {R"({"type": "candidate", "task": "L1/1", "id": "a", "measurements": [5]})", false},
      {R"({"type": "candidate", "task": "L1/1", "id": "a", "language": "rust"})", false},
      {R"({"type": "candidate", "task": "L1/1", "id": "a", "kscope_run": 1})", false},
      {R"({"type": "candidate", "task": "L1/1", "id": "a",})", false},
      {R"({"type": "candidate", "task": "L1/1", "id": "a"} x)", false},
      {R"({"type": "candidate", "task": "L1/1"})", false},
      {R"({"type": "candidate", "task": 5, "id": "a"})", false},
      {R"({"type": "candidate", "task": "L1/1", "id": "a", "code": "unterminated)", false},
      {R"({"type": "task", "level": 1, "number": 2, "reference": {"code": "x"}})", false},
      {R"({"type": "candidate", "task": "L1/1", "id": "a", "deep": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]})",
       false},
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& [line, taken] = lines[i];
    SCOPED_TRACE(line);
    EXPECT_EQ(scanned(line), taken);
    readBothWays(dir, "line" + std::to_string(i) + ".jsonl", kHeader + line + "\n");
  }
}

// A measurement may say how the run behind it ended; a failed one needs no number.
TEST(RunFormatScale, VerdictsRoundTripAndBadOnesAreReported) {
  test::TempDir dir;
  RunFile run;
  run.title = "verdicts";
  Task& task = run.tasks.emplace_back();
  task.level = 1;
  task.number = 1;
  task.referenceCode = "ref";
  for (const char* outcome : {"correct", "incorrect", "error"}) {
    Candidate& c = task.candidates.emplace_back();
    c.id = outcome;
    c.code = "print(1)";
    Measurement m;
    m.outcome = outcome;
    if (m.outcome == "correct") m.speedup = 1.25;
    if (m.outcome == "error") m.error = "did not build: identifier \"foo\" is undefined";
    m.device = "NVIDIA H100 80GB HBM3";
    c.measurements.push_back(m);
  }
  ASSERT_TRUE(writeRunFile(run, dir.path() / "v.jsonl"));
  const RunFile read = readRunFile(dir.path() / "v.jsonl");
  EXPECT_TRUE(read.issues.empty()) << read.issues.at(0).toString();
  test::expectSameRun(run, read);
  std::ostringstream written;
  writeRunFile(read, written);
  EXPECT_NE(written.str().find(R"("outcome":"error")"), std::string::npos);
  EXPECT_NE(written.str().find(R"("error":"did not build: identifier \"foo\" is undefined")"),
            std::string::npos);

  const RunFile bad = readBothWays(
      dir, "bad.jsonl",
      kHeader +
          R"({"type": "candidate", "task": "L1/1", "id": "a", "measurements": [{"speedup": 1, "outcome": "fine"}]})"
          "\n"
          R"({"type": "candidate", "task": "L1/1", "id": "b", "measurements": [{"outcome": "correct"}]})"
          "\n");
  ASSERT_EQ(bad.issues.size(), 2u);
  EXPECT_EQ(
      bad.issues[0].message,
      "measurement 1: expected key \"outcome\" to be \"correct\", \"incorrect\" or \"error\", got \"fine\"; "
      "line skipped");
  EXPECT_EQ(bad.issues[1].message,
            "measurement 1: has neither \"speedup\" nor both \"baseline_ms\" and \"candidate_ms\"");
}

TEST(RunFormatScale, ABadProgramStringIsALineProblemNotALaterSurprise) {
  test::TempDir dir;
  const RunFile run = readBothWays(
      dir, "bad.jsonl",
      kHeader +
          "{\"type\": \"candidate\", \"task\": \"L1/1\", \"id\": \"a\", \"code\": \"\xFF\"}\n"
          R"({"type": "candidate", "task": "L1/1", "id": "b", "code": "ok", "measurements": [{"speedup": 1}]})"
          "\n");
  ASSERT_EQ(run.tasks.at(0).candidates.size(), 1u);
  EXPECT_EQ(run.tasks[0].candidates[0].id, "b");
  ASSERT_FALSE(run.issues.empty());
  EXPECT_EQ(run.issues[0].line, 3);
}

TEST(RunFormatScale, ManyCandidatesAcrossBlocksReadLikeTheJsonReaderReadsThem) {
  test::TempDir dir;
  RunFile run;
  run.title = "many";
  for (int t = 0; t < 3; ++t) {
    Task& task = run.tasks.emplace_back();
    task.level = 1;
    task.number = t + 1;
    task.referenceCode = "ref";
  }
  for (int i = 0; i < 3000; ++i) {
    Task& task = run.tasks[static_cast<std::size_t>(i % 3)];
    Candidate& c = task.candidates.emplace_back();
    c.id = "r" + std::to_string(i / 3);
    if (i >= 3) c.parents = {"r" + std::to_string(i / 6)};
    c.step = i / 24;
    c.code = std::string(static_cast<std::size_t>(6000 + i % 97), 'k') + "\n\"" + std::to_string(i);
    Measurement m;
    m.speedup = 0.5 + i * 0.001;
    m.device = i % 2 ? "NVIDIA H100 80GB HBM3" : "A100";
    c.measurements.push_back(m);
  }
  ASSERT_TRUE(writeRunFile(run, dir.path() / "many.jsonl"));
  std::ifstream in(dir.path() / "many.jsonl", std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  const RunFile read = readBothWays(dir, "again.jsonl", text.str());
  EXPECT_TRUE(read.issues.empty());
  test::expectSameRun(run, read);
}

}  // namespace
}  // namespace ks
