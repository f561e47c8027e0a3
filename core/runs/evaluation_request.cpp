#include "core/runs/evaluation_request.h"

#include "core/formats/cuda_source_header.h"
#include "core/formats/gemm_tile_config.h"

namespace ks::runs {
namespace {

// The .cu header's dtype names ("half") as torch names them ("float16").
std::string torchDtype(const std::string& headerDtype) {
  if (headerDtype == "half") return "float16";
  if (headerDtype == "float") return "float32";
  if (headerDtype == "double") return "float64";
  return headerDtype;  // bfloat16, int8, uint8, int32, int64, bool are spelt alike
}

}  // namespace

std::variant<protocol::Request, std::string> evaluationRequest(const Task& task, const Candidate& candidate,
                                                               const protocol::Options& options) {
  const std::string who = "candidate " + candidate.id + " of " + task.key();
  if (!candidate.code || candidate.code->empty()) return who + " records no program: there is nothing to run";
  protocol::Request request;
  request.op = protocol::Op::Evaluate;
  request.options = options;
  protocol::TaskSpec taskSpec{
      .key = task.key(), .language = task.referenceLanguage, .reference = task.referenceCode};
  protocol::CandidateSpec candidateSpec{
      .id = candidate.id, .language = candidate.language, .code = *candidate.code};
  if (candidate.language == CodeLanguage::Cuda && task.gemm) {
    // A GEMM task (CUDA-L2): the runner makes the inputs; the kernel's source names its entry and tile.
    const std::optional<std::string> entry = gemmOutEntry(*candidate.code);
    if (!entry)
      return who + ": no GEMM entry function found (expected `void cuda_l2_…(torch::Tensor a, torch::Tensor b, "
                   "torch::Tensor b_col_major, torch::Tensor c) {`)";
    candidateSpec.entry = *entry;
    const TileConfig config = parseGemmTileConfig(*candidate.code);
    taskSpec.language = CodeLanguage::Cuda;
    if (taskSpec.reference.empty()) taskSpec.reference = "torch.matmul(a, b)";
    protocol::GemmSpec gemm{.m = task.gemm->m, .n = task.gemm->n, .k = task.gemm->k, .padTo = {}};
    if (auto tile = gemmBlockTile(config)) gemm.padTo = *tile;
    taskSpec.gemm = std::move(gemm);
  } else if (candidate.language == CodeLanguage::Cuda) {
    std::vector<LoadIssue> issues;
    CudaSourceHeader header = parseCudaSourceHeader(*candidate.code, issues);
    if (!issues.empty()) {
      const LoadIssue& first = issues.front();
      return who + ": its // kscope: header" +
             (first.line > 0 ? " (line " + std::to_string(first.line) + ")" : "") + ": " + first.message;
    }
    candidateSpec.entry = header.entry;
    taskSpec.language = CodeLanguage::Cuda;
    if (taskSpec.reference.empty()) taskSpec.reference = header.reference;
    for (const CudaInputSpec& in : header.inputs)
      taskSpec.inputs.push_back({.name = in.name, .shape = in.shape, .dtype = torchDtype(in.dtype)});
  }
  request.task = std::move(taskSpec);
  request.candidate = std::move(candidateSpec);
  return request;
}

}  // namespace ks::runs
