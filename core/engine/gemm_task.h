#pragma once
// A GEMM task (protocol::GemmSpec, CUDA-L2): the runner makes the inputs, the reference and the check.
//
// Inputs per seed, drawn on the device under torch.manual_seed(seed): a (M×K) and b (K×N) from torch.randn
// in float32, cast to float16, and b_col_major = b transposed and made contiguous (N×K), as CUDA-L2's kernels read B. When
// M, N or K is not a multiple of the kernel's tile (GemmSpec::padTo), the candidate gets zero-padded copies
// instead (a_padded Mp×Kp, b_padded Kp×Np, b_col_major_padded Np×Kp): the model arguments are then
// [a, b, a_padded, b_padded, b_col_major_padded], the reference reads a and b, the candidate the last three.
// All of it is made with the inputs, outside every timed call.
//
// The timed reference is the task's expression (`torch.matmul(a, b)`). Correctness is checked against
// float32: torch.matmul(a.float(), b.float()), rounded to the candidate's float16 (ModelPair::checkReference),
// with gemmTolerance(K).
//
// The candidate: the library's kscope_call (GemmOut convention: the shim allocates c inside the call, as
// torch.matmul allocates its output), given (a, b, b_col_major) or their padded copies; a padded output is
// cropped to M×N (a view: no copy inside the timed call).
#include <ATen/core/Tensor.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/engine/model_pair.h"
#include "core/engine/native_task.h"
#include "core/engine/output_compare.h"
#include "core/engine/python_task.h"
#include "core/protocol/evaluate_result.h"
#include "core/protocol/request.h"

namespace ks::engine {

// The shape the candidate runs on: M, N, K rounded up to multiples of padTo (unchanged without one).
protocol::GemmRun gemmRun(const protocol::GemmSpec& spec);

// |c - r| <= atol + rtol·|r| against the float32 product rounded to float16: rtol 1e-2 and atol
// 1e-2·sqrt(K). The entries of a·b for unit-normal a, b have magnitude about sqrt(K) (a sum of K unit
// products), so atol is 1 % of the typical output and rtol 1 % of each: twenty times float16's half ulp
// (2^-11 ≈ 4.9e-4), which a float32-accumulating kernel rounding its output once stays far inside, while a
// kernel that drops or repeats one k-slice of 16 products errs by about sqrt(16) = 4 at a typical entry, far
// outside for any K the release has (atol 1.28 at K = 16384). docs/runner-protocol.md, "GEMM tasks".
Tolerance gemmTolerance(std::int64_t k);

// The model arguments' names, in order (see above).
std::vector<std::string> gemmInputNames(const protocol::GemmRun& run);

// The model arguments of `seed` on `device`.
ModelArgs gemmInputs(const protocol::GemmRun& run, const c10::Device& device, std::int64_t seed);

// The candidate as Python calls it: takes the model arguments, passes the candidate's three to `call`,
// returns its output (cropped to M×N when padded). A failed call raises RuntimeError naming `entry`.
pybind11::object gemmCandidate(NativeShimCall call, const std::string& entry, const protocol::GemmRun& run);

Outcome<ModelPair> prepareGemmTask(const protocol::TaskSpec& task, const protocol::CandidateSpec& candidate,
                                   const TaskContext& context, const std::filesystem::path& library);

}  // namespace ks::engine
