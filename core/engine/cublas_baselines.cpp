#include "core/engine/cublas_baselines.h"

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <stdexcept>

#include "core/stats/gemm_methods.h"

namespace ks::engine {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(what) + ": " + cublasGetStatusString(s));
}

double median(std::vector<float> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t mid = v.size() / 2;
  return v.size() % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2.0;
}

// One layout's cuBLASLt descriptors and the heuristic's algorithms for it.
struct LtLayout {
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  std::vector<cublasLtMatmulAlgo_t> algorithms;  // the heuristic's order
  std::size_t heuristic = 0, tuned = 0;          // indices into algorithms
  int tried = 0;

  ~LtLayout() {
    if (c) cublasLtMatrixLayoutDestroy(c);
    if (b) cublasLtMatrixLayoutDestroy(b);
    if (a) cublasLtMatrixLayoutDestroy(a);
    if (op) cublasLtMatmulDescDestroy(op);
  }
};

}  // namespace

const char* cublasBaselineName(CublasBaseline b) {
  switch (b) {
    case CublasBaseline::CublasTn: return "cuBLAS-tn";
    case CublasBaseline::CublasNn: return "cuBLAS-nn";
    case CublasBaseline::LtHeuristicTn: return "cuBLASLt-heuristic-tn";
    case CublasBaseline::LtHeuristicNn: return "cuBLASLt-heuristic-nn";
    case CublasBaseline::LtAutoTn: return "cuBLASLt-auto-tuning-tn";
    case CublasBaseline::LtAutoNn: return "cuBLASLt-auto-tuning-nn";
  }
  return "";
}

struct CublasBaselines::State {
  std::int64_t m = 0, n = 0, k = 0;
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;
  cublasLtHandle_t lt = nullptr;
  void* workspace = nullptr;
  std::size_t workspaceBytes = 0;
  LtLayout tn, nn;
  std::vector<std::string> notes;

  ~State() {
    if (workspace) cudaFree(workspace);
    if (lt) cublasLtDestroy(lt);
    if (blas) cublasDestroy(blas);
  }

  // Cᵀ (N×M, ld N) = op(B) · Aᵀ, as the release's v1/v2 descriptors: TN reads B column-major (K×N, ld K).
  void describe(LtLayout& l, bool tn, int wanted) {
    check(cublasLtMatmulDescCreate(&l.op, CUBLAS_COMPUTE_32F, CUDA_R_32F), "cublasLtMatmulDescCreate");
    const cublasOperation_t transa = tn ? CUBLAS_OP_T : CUBLAS_OP_N, transb = CUBLAS_OP_N;
    check(cublasLtMatmulDescSetAttribute(l.op, CUBLASLT_MATMUL_DESC_TRANSA, &transa, sizeof transa),
          "cublasLtMatmulDescSetAttribute(TRANSA)");
    check(cublasLtMatmulDescSetAttribute(l.op, CUBLASLT_MATMUL_DESC_TRANSB, &transb, sizeof transb),
          "cublasLtMatmulDescSetAttribute(TRANSB)");
    if (tn)
      check(cublasLtMatrixLayoutCreate(&l.b, CUDA_R_16F, static_cast<std::uint64_t>(k),
                                       static_cast<std::uint64_t>(n), k),
            "cublasLtMatrixLayoutCreate(B)");
    else
      check(cublasLtMatrixLayoutCreate(&l.b, CUDA_R_16F, static_cast<std::uint64_t>(n),
                                       static_cast<std::uint64_t>(k), n),
            "cublasLtMatrixLayoutCreate(B)");
    check(cublasLtMatrixLayoutCreate(&l.a, CUDA_R_16F, static_cast<std::uint64_t>(k), static_cast<std::uint64_t>(m),
                                     k),
          "cublasLtMatrixLayoutCreate(A)");
    check(cublasLtMatrixLayoutCreate(&l.c, CUDA_R_16F, static_cast<std::uint64_t>(n), static_cast<std::uint64_t>(m),
                                     n),
          "cublasLtMatrixLayoutCreate(C)");
    cublasLtMatmulPreference_t preference = nullptr;
    check(cublasLtMatmulPreferenceCreate(&preference), "cublasLtMatmulPreferenceCreate");
    cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspaceBytes,
                                         sizeof workspaceBytes);
    std::vector<cublasLtMatmulHeuristicResult_t> results(static_cast<std::size_t>(std::max(wanted, 1)));
    int returned = 0;
    const cublasStatus_t status = cublasLtMatmulAlgoGetHeuristic(
        lt, l.op, l.b, l.a, l.c, l.c, preference, static_cast<int>(results.size()), results.data(), &returned);
    cublasLtMatmulPreferenceDestroy(preference);
    check(status, "cublasLtMatmulAlgoGetHeuristic");
    for (int i = 0; i < returned; ++i)
      if (results[static_cast<std::size_t>(i)].state == CUBLAS_STATUS_SUCCESS)
        l.algorithms.push_back(results[static_cast<std::size_t>(i)].algo);
    if (l.algorithms.empty())
      throw std::runtime_error(std::string("cublasLtMatmulAlgoGetHeuristic found no algorithm for ") +
                               (tn ? "TN" : "NN"));
  }

  cublasStatus_t lt_matmul(const LtLayout& l, const cublasLtMatmulAlgo_t& algo, const void* a, const void* b,
                           void* c) {
    const float alpha = 1.0f, beta = 0.0f;
    return cublasLtMatmul(lt, l.op, &alpha, b, l.b, a, l.a, &beta, c, l.c, c, l.c, &algo, workspace,
                          workspaceBytes, stream);
  }
};

CublasBaselines::CublasBaselines(std::int64_t m, std::int64_t n, std::int64_t k, void* stream,
                                 int autotuneAlgorithms, std::size_t workspaceBytes)
    : s_(std::make_unique<State>()) {
  s_->m = m;
  s_->n = n;
  s_->k = k;
  s_->stream = static_cast<cudaStream_t>(stream);
  s_->workspaceBytes = workspaceBytes;
  check(cublasCreate(&s_->blas), "cublasCreate");
  check(cublasSetMathMode(s_->blas, CUBLAS_TENSOR_OP_MATH), "cublasSetMathMode");
  check(cublasSetStream(s_->blas, s_->stream), "cublasSetStream");
  check(cublasLtCreate(&s_->lt), "cublasLtCreate");
  if (workspaceBytes > 0) check(cudaMalloc(&s_->workspace, workspaceBytes), "cudaMalloc(cuBLASLt workspace)");
  s_->describe(s_->tn, true, autotuneAlgorithms);
  s_->describe(s_->nn, false, autotuneAlgorithms);
}

CublasBaselines::~CublasBaselines() = default;

void CublasBaselines::run(CublasBaseline which, const GemmPointers& p) {
  State& s = *s_;
  const float alpha = 1.0f, beta = 0.0f;
  const int m = static_cast<int>(s.m), n = static_cast<int>(s.n), k = static_cast<int>(s.k);
  switch (which) {
    case CublasBaseline::CublasTn:
      check(cublasGemmEx(s.blas, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha, p.bColMajor, CUDA_R_16F, k, p.a,
                         CUDA_R_16F, k, &beta, p.c, CUDA_R_16F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP),
            "cublasGemmEx(TN)");
      return;
    case CublasBaseline::CublasNn:
      check(cublasGemmEx(s.blas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, p.b, CUDA_R_16F, n, p.a, CUDA_R_16F, k,
                         &beta, p.c, CUDA_R_16F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP),
            "cublasGemmEx(NN)");
      return;
    case CublasBaseline::LtHeuristicTn:
      check(s.lt_matmul(s.tn, s.tn.algorithms[s.tn.heuristic], p.a, p.bColMajor, p.c), "cublasLtMatmul(TN)");
      return;
    case CublasBaseline::LtHeuristicNn:
      check(s.lt_matmul(s.nn, s.nn.algorithms[s.nn.heuristic], p.a, p.b, p.c), "cublasLtMatmul(NN)");
      return;
    case CublasBaseline::LtAutoTn:
      check(s.lt_matmul(s.tn, s.tn.algorithms[s.tn.tuned], p.a, p.bColMajor, p.c), "cublasLtMatmul(TN, tuned)");
      return;
    case CublasBaseline::LtAutoNn:
      check(s.lt_matmul(s.nn, s.nn.algorithms[s.nn.tuned], p.a, p.b, p.c), "cublasLtMatmul(NN, tuned)");
      return;
  }
}

void CublasBaselines::autotune(const GemmPointers& scratch, Fill fill, void* context, int warmupRounds, int rounds,
                               std::uint64_t seed) {
  State& s = *s_;
  cudaEvent_t start = nullptr, stop = nullptr;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  for (LtLayout* l : {&s.tn, &s.nn}) {
    const bool tn = l == &s.tn;
    const void* b = tn ? scratch.bColMajor : scratch.b;
    const std::size_t count = l->algorithms.size();
    std::vector<std::vector<float>> times(count);
    std::vector<bool> failed(count, false);
    for (int round = 0; round < warmupRounds + rounds; ++round) {
      if (fill) fill(scratch, context);
      check(cudaStreamSynchronize(s.stream), "cudaStreamSynchronize");
      const std::vector<std::size_t> order =
          stats::roundOrder(count, seed + (tn ? 0 : 0x9e3779b97f4a7c15ull), static_cast<std::uint64_t>(round));
      for (std::size_t i : order) {
        if (failed[i]) continue;
        check(cudaEventRecord(start, s.stream), "cudaEventRecord");
        if (s.lt_matmul(*l, l->algorithms[i], scratch.a, b, scratch.c) != CUBLAS_STATUS_SUCCESS) {
          failed[i] = true;  // an algorithm the heuristic offered but that cannot run: skipped, said below
          continue;
        }
        check(cudaEventRecord(stop, s.stream), "cudaEventRecord");
        check(cudaEventSynchronize(stop), "cudaEventSynchronize");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        if (round >= warmupRounds) times[i].push_back(ms);
      }
    }
    double best = 0;
    int skipped = 0;
    for (std::size_t i = 0; i < count; ++i) {
      if (failed[i] || times[i].empty()) {
        ++skipped;
        continue;
      }
      const double t = median(times[i]);
      if (best == 0 || t < best) {
        best = t;
        l->tuned = i;
      }
    }
    l->tried = static_cast<int>(count);
    if (skipped > 0)
      s.notes.push_back(std::string("cuBLASLt-auto-tuning-") + (tn ? "tn" : "nn") + ": " + std::to_string(skipped) +
                        " of " + std::to_string(count) + " heuristic algorithms failed and were skipped");
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
}

int CublasBaselines::algorithmsTried(bool tn) const { return tn ? s_->tn.tried : s_->nn.tried; }

std::vector<std::string> CublasBaselines::notes() const { return s_->notes; }

}  // namespace ks::engine
