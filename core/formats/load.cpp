#include "core/formats/load.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <system_error>

#include "core/formats/cuda_l1_reader.h"
#include "core/formats/cuda_l2_reader.h"
#include "core/formats/cuda_source_reader.h"
#include "core/formats/good_kernels_reader.h"
#include "core/formats/issue_list.h"
#include "core/formats/kernelbench_layout.h"
#include "core/formats/kernelbench_reader.h"
#include "core/formats/kernelbench_run_reader.h"
#include "core/formats/line_stream.h"
#include "core/formats/run_format.h"
#include "core/formats/spooled_input.h"
#include "core/formats/utf8.h"
#include "core/json/json_fields.h"

namespace ks {
namespace {

constexpr std::size_t kSniffBytes = std::size_t{1} << 20;

// Up to kSniffBytes from the start of the first non-blank line.
std::string firstLinePrefix(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  std::string text(!ec && size > 0 && size < kSniffBytes ? static_cast<std::size_t>(size) : kSniffBytes, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  const std::size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string::npos) return {};
  const std::size_t end = text.find('\n', start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

InputFormat formatOfJsonLine(const std::string& line) {
  if (!line.starts_with("{")) return InputFormat::Unknown;
  std::string ignored;
  if (std::optional<Json> json = json::parseLine(line, false, ignored); json && json->is_object()) {
    if (json->contains("kscope_run")) return InputFormat::KernelScopeRun;
    if (json->contains("level_id") && json->contains("task_id")) return InputFormat::CudaL1Jsonl;
    return InputFormat::Unknown;
  }
  // A first line too long or broken to parse: recognise it by its keys, and let the reader report the rest.
  if (line.find("\"kscope_run\"") != std::string::npos) return InputFormat::KernelScopeRun;
  if (line.find("\"level_id\"") != std::string::npos) return InputFormat::CudaL1Jsonl;
  return InputFormat::Unknown;
}

std::string unknownFormatProblem(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return "folder is not a KernelBench task folder (level1/, level2/, ... or a folder named levelN), a "
           "CUDA-L2 release (kernels/<gpu>_<ACC>/M_N_K.cu and eval_results/) nor a good-kernels folder (task "
           "folders with ref.py and src.py) nor a KernelBench run (eval_results.json, "
           "level_<L>_problem_<P>_sample_<S>_kernel.py)";
  if (std::string problem = fileOpenProblem(path); !problem.empty()) return "cannot read: " + problem;
  if (std::filesystem::file_size(path, ec) == 0 && !ec) return "file is empty";
  const std::string head = firstLinePrefix(path);
  if (head.empty()) return "file holds only blank lines";
  if (auto bad = looksBinary(head, /*allowCutEnd=*/true))
    return "binary file: " + bad->what +
           "; expected a CUDA-L1 or kscope-run JSONL file, a KernelBench folder or a .cu file";
  return "unrecognised format: expected a CUDA-L1 release file (JSONL with level_id, task_id, ref_code), a "
         "kscope run file (first line {\"kscope_run\": 1, ...}), a KernelBench folder or a .cu file";
}

// A file or a folder that is neither a CUDA-L2 release nor a good-kernels folder.
InputFormat detectFileOrFolder(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return kernelBenchLevels(path).empty() ? InputFormat::Unknown : InputFormat::KernelBenchFolder;
  if (!std::filesystem::is_regular_file(path, ec)) return InputFormat::Unknown;
  const std::string extension = path.extension().string();
  if (extension == ".cu" || extension == ".cuh") return InputFormat::CudaSource;
  return formatOfJsonLine(firstLinePrefix(path));
}

// The format, with what the folder readers learned on the way, so that loadAny asks each once.
struct Detected {
  InputFormat format = InputFormat::Unknown;
  CudaL2Input cudaL2 = CudaL2Input::None;
  GoodKernelsInput goodKernels = GoodKernelsInput::None;
};

Detected detect(const std::filesystem::path& path) {
  Detected d;
  if ((d.cudaL2 = cudaL2InputKind(path)) != CudaL2Input::None)
    d.format = InputFormat::CudaL2Release;
  else if ((d.goodKernels = goodKernelsInputKind(path)) != GoodKernelsInput::None)
    d.format = InputFormat::GoodKernelsFolder;
  else if (kernelBenchRunInputKind(path) != KernelBenchRunInput::None)
    d.format = InputFormat::KernelBenchRun;
  else
    d.format = detectFileOrFolder(path);
  return d;
}

}  // namespace

InputFormat detectFormat(const std::filesystem::path& path) { return detect(path).format; }

const char* formatName(InputFormat f) {
  switch (f) {
    case InputFormat::CudaL1Jsonl:
      return "cuda-l1";
    case InputFormat::KernelScopeRun:
      return "kscope-run";
    case InputFormat::KernelBenchFolder:
      return "kernelbench";
    case InputFormat::CudaSource:
      return "cuda-source";
    case InputFormat::CudaL2Release:
      return "cuda-l2";
    case InputFormat::GoodKernelsFolder:
      return "good-kernels";
    case InputFormat::KernelBenchRun:
      return "kernelbench-run";
    case InputFormat::Unknown:
      return "unknown";
  }
  return "unknown";
}

RunFile loadAny(const std::filesystem::path& path, const LoadOptions& options) {
  if (needsSpooling(path)) {
    const SpooledInput spooled(path);
    RunFile run;
    if (spooled.copy().empty()) {
      run.path = path.string();
      run.format = formatName(InputFormat::Unknown);
      run.title = path.filename().string();
      run.issues.push_back(LoadIssue{run.path, 0, "cannot read: " + spooled.problem(), LoadIssue::Severity::Error});
      return run;
    }
    run = loadAny(spooled.copy(), options);
    // Name the input the user gave, not the copy.
    const std::string copy = spooled.copy().string();
    if (run.path == copy) run.path = path.string();
    for (LoadIssue& issue : run.issues)
      if (issue.file == copy) issue.file = path.string();
    return run;
  }
  const Detected detected = detect(path);
  switch (detected.format) {
    case InputFormat::CudaL1Jsonl:
      return readCudaL1(path, options);
    case InputFormat::KernelScopeRun:
      return readRunFile(path, options);
    case InputFormat::KernelBenchFolder:
      return readKernelBenchFolder(path, options);
    case InputFormat::CudaSource:
      return readCudaSource(path, options);
    case InputFormat::CudaL2Release:
      return readCudaL2(path, options, detected.cudaL2);
    case InputFormat::GoodKernelsFolder:
      return readGoodKernels(path, options, detected.goodKernels);
    case InputFormat::KernelBenchRun:
      return readKernelBenchRun(path, options);
    case InputFormat::Unknown:
      break;
  }
  RunFile run;
  run.path = path.string();
  run.format = formatName(InputFormat::Unknown);
  run.title = path.filename().string();
  run.issues.push_back(LoadIssue{run.path, 0, unknownFormatProblem(path), LoadIssue::Severity::Error});
  return run;
}

}  // namespace ks
