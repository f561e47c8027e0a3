#include "core/formats/load.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <string>
#include <thread>

#include "core/formats/run_format.h"
#include "tests/formats/shared_data.h"
#include "tests/formats/temp_dir.h"

namespace ks {
namespace {

TEST(DetectFormat, RecognisesEachInput) {
  test::TempDir dir;
  EXPECT_EQ(detectFormat(dir.write("a.jsonl", "\n{\"level_id\": 1, \"task_id\": 2, \"ref_code\": \"x\"}\n")),
            InputFormat::CudaL1Jsonl);
  EXPECT_EQ(detectFormat(dir.write("b.jsonl", "{\"kscope_run\": 1}\n")), InputFormat::KernelScopeRun);
  EXPECT_EQ(detectFormat(dir.write("c.txt", "{\"kscope_run\": 1, \"title\": \"cut sh")),
            InputFormat::KernelScopeRun);
  EXPECT_EQ(detectFormat(dir.write("k.cu", "__global__ void k() {}")), InputFormat::CudaSource);
  dir.write("kb/level2/1_A.py", "x");
  EXPECT_EQ(detectFormat(dir.path() / "kb"), InputFormat::KernelBenchFolder);
  EXPECT_EQ(detectFormat(dir.path() / "kb/level2"), InputFormat::KernelBenchFolder);
  EXPECT_EQ(detectFormat(dir.write("d.jsonl", "{\"other\": 1}\n")), InputFormat::Unknown);
  EXPECT_EQ(detectFormat(dir.path() / "missing"), InputFormat::Unknown);
  EXPECT_STREQ(formatName(InputFormat::CudaL1Jsonl), "cuda-l1");
  EXPECT_STREQ(formatName(InputFormat::KernelScopeRun), "kscope-run");
  EXPECT_STREQ(formatName(InputFormat::KernelBenchFolder), "kernelbench");
  EXPECT_STREQ(formatName(InputFormat::CudaSource), "cuda-source");
  EXPECT_STREQ(formatName(InputFormat::CudaL2Release), "cuda-l2");
  EXPECT_STREQ(formatName(InputFormat::GoodKernelsFolder), "good-kernels");
  EXPECT_STREQ(formatName(InputFormat::Unknown), "unknown");
}

TEST(LoadAny, DispatchesToTheReader) {
  test::TempDir dir;
  RunFile run;
  run.tasks.emplace_back().referenceCode = "x";
  ASSERT_TRUE(writeRunFile(run, dir.path() / "r.jsonl"));
  const RunFile loaded = loadAny(dir.path() / "r.jsonl");
  EXPECT_EQ(loaded.format, "kscope-run");
  EXPECT_EQ(loaded.tasks.size(), 1u);
}

TEST(LoadAny, RealCudaL1Release) {
  KS_REQUIRE_CUDA_L1();
  const RunFile run = loadAny(test::cudaL1File());
  EXPECT_EQ(run.format, "cuda-l1");
  EXPECT_EQ(run.tasks.size(), 250u);
  EXPECT_EQ(run.candidateCount(), 250u);
  EXPECT_EQ(run.errorCount(), 0u);
}

// What cannot be loaded yields one issue that says why.
TEST(LoadAny, UnloadableInputsSayWhy) {
  test::TempDir dir;
  auto only = [](const RunFile& run) {
    EXPECT_TRUE(run.tasks.empty());
    EXPECT_EQ(run.issues.size(), 1u);
    return run.issues.empty() ? std::string() : run.issues[0].message;
  };
  EXPECT_EQ(only(loadAny(dir.path() / "missing.jsonl")), "cannot read: no such file or folder");
  EXPECT_EQ(only(loadAny(dir.write("empty.jsonl", ""))), "file is empty");
  EXPECT_EQ(only(loadAny(dir.write("blank.jsonl", "\n \n"))), "file holds only blank lines");
  EXPECT_EQ(only(loadAny(dir.write("bin.dat", std::string("\x7f"
                                                          "ELF\x02\x01\x01\0\0\0",
                                                          10)))),
            "binary file: a NUL byte; expected a CUDA-L1 or kscope-run JSONL file, a KernelBench folder or a "
            ".cu file");
  EXPECT_TRUE(only(loadAny(dir.write("notes.txt", "hello\n"))).starts_with("unrecognised format: expected"));
  dir.write("plain/readme.txt", "x");
  EXPECT_EQ(
      only(loadAny(dir.path() / "plain")),
      "folder is not a KernelBench task folder (level1/, level2/, ... or a folder named levelN), a "
      "CUDA-L2 release (kernels/<gpu>_<ACC>/M_N_K.cu and eval_results/) nor a good-kernels folder (task "
      "folders with ref.py and src.py) nor a KernelBench run (eval_results.json, "
      "level_<L>_problem_<P>_sample_<S>_kernel.py)");
}

// The same stray byte on line 2 or on line 200 of a 250-line CUDA-L1 file skips that line only.
TEST(LoadAny, AStrayByteSkipsItsLineWhereverItIs) {
  test::TempDir dir;
  auto row = [](int task) {
    return R"({"level_id": 1, "task_id": )" + std::to_string(task) +
           R"(, "ref_code": "x", "custom_code": "y", "score_default": 1.5})";
  };
  for (int badLine : {2, 200}) {
    std::string text;
    for (int line = 1; line <= 250; ++line) {
      std::string r = row(line);
      if (line == badLine) r.replace(r.find("\"y\""), 3, "\"\xff\"");
      text += r + "\n";
    }
    const std::string name = "stray" + std::to_string(badLine) + ".jsonl";
    const RunFile run = loadAny(dir.write(name, text));
    EXPECT_EQ(run.format, "cuda-l1");
    EXPECT_EQ(run.tasks.size(), 249u) << "bad byte on line " << badLine;
    ASSERT_EQ(run.issues.size(), 1u) << "bad byte on line " << badLine;
    EXPECT_EQ(run.issues[0].line, badLine);
  }
}

// A pipe, FIFO or /dev/stdin opened twice (format detection, then the reader) would come out as
// "unrecognised format", and a /proc file as "file is empty"; they are read once, and named as given.
TEST(LoadAny, AFifoIsReadOnceAndNamedAsGiven) {
  test::TempDir dir;
  const std::filesystem::path fifo = dir.path() / "run.jsonl";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string text = R"({"level_id": 1, "task_id": 1, "ref_code": "x", "score_default": 2.0})"
                           "\n{broken\n"
                           R"({"level_id": 1, "task_id": 2, "ref_code": "x", "score_default": 3.0})"
                           "\n";
  std::thread writer([&] {
    std::ofstream out(fifo);
    out << text;
  });
  const RunFile run = loadAny(fifo);
  writer.join();
  EXPECT_EQ(run.format, "cuda-l1");
  EXPECT_EQ(run.path, fifo.string());
  EXPECT_EQ(run.tasks.size(), 2u);
  ASSERT_EQ(run.issues.size(), 1u);
  EXPECT_EQ(run.issues[0].file, fifo.string());
  EXPECT_EQ(run.issues[0].line, 2);
}

TEST(LoadAny, ProcFilesAreReadNotCalledEmpty) {
  const RunFile run = loadAny("/proc/self/status");
  ASSERT_EQ(run.issues.size(), 1u);
  EXPECT_EQ(run.issues[0].file, "/proc/self/status");
  EXPECT_TRUE(run.issues[0].message.starts_with("unrecognised format")) << run.issues[0].message;
}

// A binary file handed to a JSONL reader directly: one issue, not one per line.
TEST(LoadAny, BinaryFileIsOneIssueForTheReader) {
  test::TempDir dir;
  std::string junk(1 << 20, '\0');
  for (std::size_t i = 0; i < junk.size(); ++i) junk[i] = static_cast<char>((i * 7919) % 251);
  const RunFile run = readRunFile(dir.write("junk.jsonl", junk));
  ASSERT_EQ(run.issues.size(), 1u);
  EXPECT_TRUE(run.issues[0].message.starts_with("binary file: a NUL byte at byte 0;"))
      << run.issues[0].message;
}

}  // namespace
}  // namespace ks
