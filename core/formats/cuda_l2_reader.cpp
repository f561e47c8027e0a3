#include "core/formats/cuda_l2_reader.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <system_error>
#include <utility>

#include "core/formats/csv_row.h"
#include "core/formats/issue_list.h"
#include "core/formats/parallel_for.h"
#include "core/formats/text_file.h"

namespace ks {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCsvPrefix = "cuda_l2_";
constexpr const char* kCsvInfix = "_speedup_";

bool isDirectory(const fs::path& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

// The folder's name even when the path ends in a separator ("kernels/h100_F32F16F16F32/").
std::string folderName(const fs::path& path) {
  std::error_code ec;
  fs::path named = fs::absolute(path, ec).lexically_normal();
  if (!named.has_filename()) named = named.parent_path();
  return named.filename().string();
}

fs::path normalFolder(const fs::path& path) {
  std::error_code ec;
  fs::path named = fs::absolute(path, ec).lexically_normal();
  if (!named.has_filename()) named = named.parent_path();
  return named;
}

bool isKernelFileName(const fs::path& file) {
  return file.extension() == ".cu" && parseCudaL2Shape(file.stem().string()).has_value();
}

bool holdsKernels(const fs::path& folder) {
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
    if (isKernelFileName(it->path()) && it->is_regular_file(ec)) return true;
  return false;
}

struct Release {
  std::string name;  // "h100_F32F16F16F32"
  fs::path folder;
  std::vector<std::pair<std::string, fs::path>>
      tables;            // (mode, CSV), offline first, then server, then others
  fs::path evalResults;  // where the tables were looked for
};

// One CSV: its baselines (columns after mnk) and, per shape, the line and the cells that parsed.
struct SpeedupTable {
  std::string mode;
  fs::path path;
  bool readable = false;
  std::vector<std::string> baselines;
  struct Row {
    int line = 0;
    std::vector<std::optional<double>> speedups;  // by baseline; nullopt where the cell was bad
  };
  std::map<CudaL2Shape, Row> rows;
};

std::string shapeName(const CudaL2Shape& s, char separator) {
  return std::to_string(s.m) + separator + std::to_string(s.n) + separator + std::to_string(s.k);
}

int modeRank(const std::string& mode) { return mode == "offline" ? 0 : mode == "server" ? 1 : 2; }

// The eval_results CSVs by release name: "cuda_l2_<release>_speedup_<mode>.csv".
std::map<std::string, std::vector<std::pair<std::string, fs::path>>> listTables(const fs::path& evalResults) {
  std::map<std::string, std::vector<std::pair<std::string, fs::path>>> tables;
  std::error_code ec;
  for (fs::directory_iterator it(evalResults, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->path().extension() != ".csv" || !name.starts_with(kCsvPrefix)) continue;
    const std::string stem = it->path().stem().string().substr(std::string(kCsvPrefix).size());
    const std::size_t infix = stem.rfind(kCsvInfix);
    if (infix == std::string::npos || infix == 0) continue;
    const std::string mode = stem.substr(infix + std::string(kCsvInfix).size());
    if (mode.empty()) continue;
    tables[stem.substr(0, infix)].emplace_back(mode, it->path());
  }
  for (auto& [release, list] : tables)
    std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) {
      return modeRank(a.first) != modeRank(b.first) ? modeRank(a.first) < modeRank(b.first)
                                                    : a.first < b.first;
    });
  return tables;
}

SpeedupTable readTable(const std::string& mode, const fs::path& path, IssueList& issues) {
  SpeedupTable table;
  table.mode = mode;
  table.path = path;
  const std::string file = path.string();
  auto error = [&](int line, std::string message) {
    issues.add(LoadIssue{file, line, std::move(message), LoadIssue::Severity::Error});
  };
  std::optional<std::string> text = readSourceFile(path, issues);
  if (!text) return table;
  table.readable = true;
  std::istringstream in(*text);
  std::string line;
  int number = 0;
  bool header = false;
  std::vector<bool> usable;  // by baseline: false for an unnamed or repeated column
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::optional<std::vector<std::string>> cells = splitCsvRow(line);
    if (!cells) {
      error(number, header ? "a quote is left open; row skipped" : "a quote is left open in the header");
      if (!header) return table;
      continue;
    }
    if (!header) {
      header = true;
      if (cells->front() != "mnk") {
        error(number, "expected the header's first column to be \"mnk\", got \"" + cells->front() +
                          "\"; the table is not read");
        return table;
      }
      std::set<std::string> seen;
      for (std::size_t i = 1; i < cells->size(); ++i) {
        const std::string& name = (*cells)[i];
        table.baselines.push_back(name);
        const bool fine = !name.empty() && seen.insert(name).second;
        usable.push_back(fine);
        if (!fine)
          error(number, "column " + std::to_string(i + 1) +
                            (name.empty() ? " has no name" : " repeats baseline \"" + name + "\"") +
                            "; its values are not read");
      }
      if (table.baselines.empty()) error(number, "the header names no baseline after \"mnk\"");
      continue;
    }
    if (cells->size() != table.baselines.size() + 1) {
      error(number, "expected " + std::to_string(table.baselines.size() + 1) + " columns (mnk and " +
                        std::to_string(table.baselines.size()) + " baselines), got " +
                        std::to_string(cells->size()) + "; row skipped");
      continue;
    }
    const std::optional<CudaL2Shape> shape = parseCudaL2Shape(cells->front());
    if (!shape) {
      error(number, "expected mnk as M_N_K with positive integers (e.g. 1024_1024_64), got \"" +
                        cells->front() + "\"; row skipped");
      continue;
    }
    if (const auto seen = table.rows.find(*shape); seen != table.rows.end()) {
      error(number, "shape " + cells->front() + " already has a row (line " +
                        std::to_string(seen->second.line) + "); row skipped");
      continue;
    }
    SpeedupTable::Row row;
    row.line = number;
    for (std::size_t i = 0; i < table.baselines.size(); ++i) {
      const std::string& cell = (*cells)[i + 1];
      std::optional<double> value = parseCsvNumber(cell);
      if (usable[i] && (!value || *value <= 0)) {
        error(number, "expected the speedup over " + table.baselines[i] + " to be a positive number, got \"" +
                          cell + "\"; that value is skipped");
        value.reset();
      }
      row.speedups.push_back(usable[i] ? value : std::nullopt);
    }
    table.rows.emplace(*shape, std::move(row));
  }
  if (!header) error(0, "table is empty: expected a header mnk,<baseline>,... and one row per shape");
  return table;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string referenceDescription(const GemmShape& g) {
  const std::string in = g.inputType.empty() ? "16-bit" : g.inputType;
  const std::string acc =
      g.accumulatorType.empty() ? "the precision " + g.precision + " names" : g.accumulatorType;
  const std::string torchType = g.inputType == "bf16"   ? "torch.bfloat16"
                                : g.inputType == "fp32" ? "torch.float32"
                                                        : "torch.float16";
  const std::string m = std::to_string(g.m), n = std::to_string(g.n), k = std::to_string(g.k);
  std::string text = "C = A · B, a matrix product (GEMM) of A (" + m + " × " + k + ") and B (" + k + " × " +
                     n + ") in " + in + ", the products summed in " + acc + " and C (" + m + " × " + n +
                     ") returned in " + in + ". CUDA-L2 recorded it on the " + upper(g.gpu) +
                     " against torch.matmul and cuBLAS/cuBLASLt configurations.";
  if (g.accumulatorType == "fp32")
    text +=
        " PyTorch sums fp16 products in fp32 too; turning off reduced-precision reductions keeps every "
        "partial sum in fp32.";
  else if (g.accumulatorType == "fp16")
    text +=
        " torch.matmul sums in fp32, so its result is closer to exact than an fp16-accumulating kernel's: "
        "compare with a tolerance that allows for that.";
  text += "\n\n```python\nimport torch\n";
  if (g.inputType == "fp16" && g.accumulatorType == "fp32")
    text += "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False\n";
  text += "a = torch.randn(" + m + ", " + k + ", dtype=" + torchType + ", device=\"cuda\")  # M x K\n";
  text += "b = torch.randn(" + k + ", " + n + ", dtype=" + torchType + ", device=\"cuda\")  # K x N\n";
  text += "c = torch.matmul(a, b)  # M x N, " + in + "\n```\n";
  return text;
}

struct KernelFile {
  CudaL2Shape shape;
  fs::path path;
};

// The kernels of one release folder, by shape; .cu files not named M_N_K.cu are reported and skipped.
std::vector<KernelFile> listKernels(const fs::path& folder, IssueList& issues) {
  std::vector<KernelFile> kernels;
  std::error_code ec;
  fs::directory_iterator it(folder, ec);
  if (ec) {
    issues.add(
        LoadIssue{folder.string(), 0, "cannot list folder: " + ec.message(), LoadIssue::Severity::Error});
    return kernels;
  }
  for (fs::directory_iterator end; !ec && it != end; it.increment(ec)) {
    const fs::path& path = it->path();
    if (path.extension() != ".cu" || !it->is_regular_file(ec)) continue;
    if (std::optional<CudaL2Shape> shape = parseCudaL2Shape(path.stem().string()))
      kernels.push_back({*shape, path});
    else
      issues.add(LoadIssue{path.string(), 0,
                           "expected a kernel named M_N_K.cu (e.g. 1024_1024_64.cu); file skipped",
                           LoadIssue::Severity::Warning});
  }
  std::sort(kernels.begin(), kernels.end(),
            [](const KernelFile& a, const KernelFile& b) { return a.shape < b.shape; });
  return kernels;
}

class ReleaseReader {
 public:
  ReleaseReader(RunFile& run, IssueList& issues, const LoadOptions& options)
      : run_(run), issues_(issues), options_(options) {}

  // Reads `kernels` (all of the release's, or the one opened) and attaches the rows of its tables. With
  // `onlyOpened`, rows of other shapes are not reported (a single kernel was opened).
  void read(const Release& release, std::vector<KernelFile> kernels, bool onlyOpened, double progressFrom,
            double progressTo) {
    GemmShape base;
    const std::size_t cut = release.name.find('_');
    base.gpu = release.name.substr(0, cut);
    base.precision = cut == std::string::npos ? std::string() : release.name.substr(cut + 1);
    const CudaL2Precision precision = parseCudaL2Precision(base.precision);
    base.inputType = precision.inputType;
    base.accumulatorType = precision.accumulatorType;
    if (precision.inputType.empty())
      issues_.add(LoadIssue{release.folder.string(), 0,
                            "precision \"" + base.precision +
                                "\" is not four types in CUTLASS order (e.g. F32F16F16F32); the reference "
                                "assumes fp16 inputs",
                            LoadIssue::Severity::Warning});
    const std::string device = options_.recordedDevice.empty() ? upper(base.gpu) + " (as recorded by CUDA-L2)"
                                                               : options_.recordedDevice;

    std::vector<SpeedupTable> tables;
    for (const auto& [mode, path] : release.tables) tables.push_back(readTable(mode, path, issues_));
    if (!isDirectory(release.evalResults))
      issues_.add(LoadIssue{release.folder.string(), 0,
                            "no eval_results/ folder two levels up (" + release.evalResults.string() +
                                "): the kernels load without recorded numbers",
                            LoadIssue::Severity::Warning});
    else if (release.tables.empty())
      issues_.add(
          LoadIssue{release.folder.string(), 0,
                    "no speedup tables (eval_results/" + std::string(kCsvPrefix) + release.name + kCsvInfix +
                        "<mode>.csv) found for this release: its kernels load without recorded numbers",
                    LoadIssue::Severity::Warning});

    // Sources, read on every core: 1000 files of about 14 KB each.
    std::vector<std::optional<std::string>> sources(kernels.size());
    std::vector<std::vector<LoadIssue>> sourceIssues(kernels.size());
    std::atomic<bool> cancelled{false};
    parallelFor(kernels.size(), [&](std::size_t i) {
      if (options_.cancel && options_.cancel->load()) {
        cancelled = true;
        return;
      }
      IssueList local(kernels[i].path.string(), sourceIssues[i]);
      sources[i] = readSourceFile(kernels[i].path, local);
    });

    std::set<CudaL2Shape> kernelShapes;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
      for (LoadIssue& issue : sourceIssues[i]) issues_.add(std::move(issue));
      const KernelFile& kernel = kernels[i];
      kernelShapes.insert(kernel.shape);
      if (!sources[i]) continue;
      Task& task = run_.tasks.emplace_back();
      task.id = release.name + "/" + shapeName(kernel.shape, 'x');
      task.name = "GEMM " + shapeName(kernel.shape, 'x') + " (" + release.name + ")";
      task.referenceLanguage = CodeLanguage::Cuda;
      task.referenceCode = "torch.matmul(a, b)";
      task.gemm = base;
      task.gemm->m = kernel.shape.m;
      task.gemm->n = kernel.shape.n;
      task.gemm->k = kernel.shape.k;
      task.referenceDescription = referenceDescription(*task.gemm);
      task.sourceLine = 1;
      Candidate& candidate = task.candidates.emplace_back();
      candidate.id = kernel.path.filename().string();
      candidate.language = CodeLanguage::Cuda;
      candidate.code = std::move(sources[i]);
      candidate.sourceLine = 1;
      for (const SpeedupTable& table : tables) {
        if (!table.readable) continue;
        const auto row = table.rows.find(kernel.shape);
        if (row == table.rows.end()) {
          issues_.add(LoadIssue{kernel.path.string(), 0,
                                "no row " + shapeName(kernel.shape, '_') + " in " +
                                    table.path.filename().string() + ": the kernel has no " + table.mode +
                                    " numbers",
                                LoadIssue::Severity::Warning});
          continue;
        }
        for (std::size_t b = 0; b < table.baselines.size(); ++b) {
          if (!row->second.speedups[b]) continue;
          Measurement& m = candidate.measurements.emplace_back();
          m.baseline = table.baselines[b];
          m.speedup = row->second.speedups[b];
          m.device = device;
          m.mode = table.mode;
        }
      }
      if (options_.progress && kernels.size() > 0)
        options_.progress(progressFrom + (progressTo - progressFrom) * static_cast<double>(i + 1) /
                                             static_cast<double>(kernels.size()));
    }
    if (cancelled)
      issues_.warning(0, "loading was cancelled; some kernels of " + release.name + " were not read");
    if (onlyOpened) return;
    for (const SpeedupTable& table : tables)
      for (const auto& [shape, row] : table.rows)
        if (!kernelShapes.count(shape))
          issues_.add(LoadIssue{table.path.string(), row.line,
                                "no kernel " + shapeName(shape, '_') + ".cu in " + release.folder.string() +
                                    "; the row's numbers are not shown",
                                LoadIssue::Severity::Warning});
  }

 private:
  RunFile& run_;
  IssueList& issues_;
  const LoadOptions& options_;
};

// The release of folder `folder` (kernels/<name>), with its tables from `evalResults` (may not exist).
Release releaseOf(const fs::path& folder, const fs::path& evalResults) {
  Release release;
  release.folder = folder;
  release.name = folderName(folder);
  release.evalResults = evalResults;
  auto tables = listTables(evalResults);
  if (auto it = tables.find(release.name); it != tables.end()) release.tables = std::move(it->second);
  return release;
}

}  // namespace

std::optional<CudaL2Shape> parseCudaL2Shape(std::string_view text) {
  CudaL2Shape shape;
  std::int64_t* parts[] = {&shape.m, &shape.n, &shape.k};
  const char* at = text.data();
  const char* end = text.data() + text.size();
  for (int i = 0; i < 3; ++i) {
    const auto [next, ec] = std::from_chars(at, end, *parts[i]);
    if (ec != std::errc() || next == at || *parts[i] <= 0) return std::nullopt;
    at = next;
    if (i < 2) {
      if (at == end || *at != '_') return std::nullopt;
      ++at;
    }
  }
  if (at != end) return std::nullopt;
  return shape;
}

bool isCudaL2ReleaseName(const std::string& name) {
  const std::size_t cut = name.find('_');
  if (cut == 0 || cut == std::string::npos || cut + 1 == name.size()) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

CudaL2Input cudaL2InputKind(const fs::path& path) {
  std::error_code ec;
  if (isDirectory(path)) {
    const fs::path folder = normalFolder(path);
    if (isDirectory(folder / "kernels") && isDirectory(folder / "eval_results")) {
      for (fs::directory_iterator it(folder / "kernels", ec), end; !ec && it != end; it.increment(ec))
        if (isCudaL2ReleaseName(it->path().filename().string()) && isDirectory(it->path()))
          return CudaL2Input::Root;
      return CudaL2Input::None;
    }
    if (isCudaL2ReleaseName(folder.filename().string()) && holdsKernels(folder))
      return CudaL2Input::ReleaseFolder;
    return CudaL2Input::None;
  }
  if (!fs::is_regular_file(path, ec) || !isKernelFileName(path)) return CudaL2Input::None;
  const fs::path release = normalFolder(path.parent_path().empty() ? fs::path(".") : path.parent_path());
  if (isCudaL2ReleaseName(release.filename().string()) && release.parent_path().filename() == "kernels")
    return CudaL2Input::Kernel;
  return CudaL2Input::None;
}

CudaL2Precision parseCudaL2Precision(const std::string& precision) {
  static const std::pair<const char*, const char*> kTypes[] = {
      {"BF16", "bf16"},     {"TF32", "tf32"},     {"F16", "fp16"},  {"F32", "fp32"}, {"F64", "fp64"},
      {"E4M3", "fp8 e4m3"}, {"E5M2", "fp8 e5m2"}, {"S32", "int32"}, {"S8", "int8"},  {"U8", "uint8"}};
  std::vector<std::string> types;
  std::string_view rest = precision;
  while (!rest.empty()) {
    bool matched = false;
    for (const auto& [spelling, name] : kTypes)
      if (rest.starts_with(spelling)) {
        types.emplace_back(name);
        rest.remove_prefix(std::string_view(spelling).size());
        matched = true;
        break;
      }
    if (!matched) return {};
  }
  if (types.size() != 4 || types[1] != types[2] || types[0] != types[3]) return {};
  return {types[1], types[0]};
}

RunFile readCudaL2(const fs::path& path, const LoadOptions& options) {
  return readCudaL2(path, options, cudaL2InputKind(path));
}

RunFile readCudaL2(const fs::path& path, const LoadOptions& options, CudaL2Input kind) {
  RunFile run;
  run.path = path.string();
  run.format = "cuda-l2";
  IssueList issues(run.path, run.issues);
  ReleaseReader reader(run, issues, options);
  std::vector<std::string> names;
  if (kind == CudaL2Input::Root) {
    const fs::path root = normalFolder(path);
    std::vector<fs::path> folders;
    std::error_code ec;
    for (fs::directory_iterator it(root / "kernels", ec), end; !ec && it != end; it.increment(ec))
      if (isDirectory(it->path()) && isCudaL2ReleaseName(it->path().filename().string()))
        folders.push_back(it->path());
    std::sort(folders.begin(), folders.end());
    for (std::size_t i = 0; i < folders.size(); ++i) {
      const Release release = releaseOf(folders[i], root / "eval_results");
      names.push_back(release.name);
      reader.read(release, listKernels(release.folder, issues), false,
                  static_cast<double>(i) / static_cast<double>(folders.size()),
                  static_cast<double>(i + 1) / static_cast<double>(folders.size()));
    }
    std::set<std::string> known(names.begin(), names.end());
    for (const auto& [release, tables] : listTables(root / "eval_results"))
      if (!known.count(release))
        for (const auto& [mode, table] : tables)
          issues.add(LoadIssue{table.string(), 0,
                               "no kernels/" + release + "/ folder for this table; not read",
                               LoadIssue::Severity::Warning});
    run.title = "CUDA-L2";
    for (std::size_t i = 0; i < names.size(); ++i) run.title += (i ? ", " : " ") + names[i];
  } else if (kind == CudaL2Input::ReleaseFolder || kind == CudaL2Input::Kernel) {
    const fs::path folder = normalFolder(kind == CudaL2Input::Kernel ? path.parent_path() : path);
    const fs::path evalResults = folder.parent_path().parent_path() / "eval_results";
    const Release release = releaseOf(folder, evalResults);
    names.push_back(release.name);
    std::vector<KernelFile> kernels;
    if (kind == CudaL2Input::Kernel) {
      kernels.push_back({*parseCudaL2Shape(path.stem().string()), path});
      run.title = "CUDA-L2 " + release.name + " " + shapeName(kernels.front().shape, 'x');
    } else {
      kernels = listKernels(folder, issues);
      run.title = "CUDA-L2 " + release.name;
    }
    reader.read(release, std::move(kernels), kind == CudaL2Input::Kernel, 0, 1);
  } else {
    issues.error(0,
                 "not a CUDA-L2 release: expected a folder with kernels/<gpu>_<ACC>/ and eval_results/, a "
                 "kernels/<gpu>_<ACC>/ folder of M_N_K.cu files, or one such file");
  }
  if (names.size() > 0 && run.tasks.empty() && run.errorCount() == 0)
    issues.error(0, "no kernels: expected files named M_N_K.cu in kernels/<gpu>_<ACC>/");
  if (!names.empty()) {
    run.description = "CUDA-L2 release";
    for (std::size_t i = 0; i < names.size(); ++i) run.description += (i ? ", " : " ") + names[i];
    run.description +=
        ": one GEMM task per shape; each kernel's speedups per baseline (CSV column) and timing mode "
        "(offline: calls back to back; server: calls arriving at a target rate).";
  }
  issues.finish();
  return run;
}

}  // namespace ks
