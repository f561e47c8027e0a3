#pragma once
// cuBLAS and cuBLASLt baselines for a GEMM task, as CUDA-L2's release calls them
// (its cublas/fp32/*.cu): C = A·B with A M×K row-major, B K×N row-major (NN) or B stored column-major
// (N×K row-major, "b_col_major": TN), C M×N row-major, all float16, accumulated in float32
// (CUBLAS_COMPUTE_32F, alpha 1, beta 0). In cuBLAS's column-major view that is Cᵀ = Bᵀ·Aᵀ, so B comes first.
//   cuBLAS-tn / -nn                cublasGemmEx, CUBLAS_GEMM_DEFAULT_TENSOR_OP
//   cuBLASLt-heuristic-tn / -nn    cublasLtMatmul with the heuristic's first algorithm
//   cuBLASLt-auto-tuning-tn / -nn  cublasLtMatmul with the fastest of the heuristic's top `autotuneAlgorithms`
//                                  (median of event-timed calls on fresh random inputs, shuffled order each
//                                  round: the release's find_best_algo_*_v2 with fewer candidates and rounds)
// Only CUDA's C API: no torch types, so the file compiles with nvcc or a host compiler against the CUDA
// headers alone (tests/nvcc compile-checks it where nvcc is). Built into ks_engine only with KS_ENGINE_CUDA.
// The release's workspace is 20 GiB; ours is `workspaceBytes` (64 MiB by default), stated in the result.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ks::engine {

enum class CublasBaseline { CublasTn, CublasNn, LtHeuristicTn, LtHeuristicNn, LtAutoTn, LtAutoNn };

inline constexpr CublasBaseline kCublasBaselines[] = {CublasBaseline::CublasTn,      CublasBaseline::CublasNn,
                                                      CublasBaseline::LtHeuristicTn, CublasBaseline::LtHeuristicNn,
                                                      CublasBaseline::LtAutoTn,      CublasBaseline::LtAutoNn};

// The release's column name: "cuBLAS-tn", ..., "cuBLASLt-auto-tuning-nn".
const char* cublasBaselineName(CublasBaseline b);

struct GemmPointers {  // device pointers, float16
  const void* a = nullptr;         // M×K row-major
  const void* b = nullptr;         // K×N row-major
  const void* bColMajor = nullptr;  // N×K row-major (= K×N column-major)
  void* c = nullptr;               // M×N row-major
};

class CublasBaselines {
 public:
  // Handles, descriptors and the heuristic's algorithms for one shape, on `stream` (a cudaStream_t). Throws
  // std::runtime_error naming the failed call.
  CublasBaselines(std::int64_t m, std::int64_t n, std::int64_t k, void* stream, int autotuneAlgorithms = 16,
                  std::size_t workspaceBytes = std::size_t{64} << 20);
  ~CublasBaselines();
  CublasBaselines(const CublasBaselines&) = delete;
  CublasBaselines& operator=(const CublasBaselines&) = delete;

  // Picks the auto-tuning algorithms: `rounds` rounds, each on fresh inputs from `fill` (called with the
  // pointers to fill, e.g. torch's normal_), the candidate algorithms in a shuffled order (seeded), each timed
  // by CUDA events; the one with the smallest median wins. Until called, auto-tuning uses the first algorithm.
  using Fill = void (*)(const GemmPointers&, void* context);
  void autotune(const GemmPointers& scratch, Fill fill, void* context, int warmupRounds, int rounds,
                std::uint64_t seed);

  // Enqueues one call on the stream (asynchronous). Throws on a cuBLAS error.
  void run(CublasBaseline which, const GemmPointers& p);

  int algorithmsTried(bool tn) const;  // heuristic algorithms auto-tuning chose among (0 before any)
  std::vector<std::string> notes() const;  // what failed along the way (skipped algorithms, ...)

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace ks::engine
