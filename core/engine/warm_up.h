#pragma once
// The `warm_up` op (docs/runner-protocol.md): pays a device's one-time start-up costs before a real request
// would — the CUDA context, the cuBLAS and cuDNN handles, the first torch.profiler session (kineto/CUPTI) —
// timing each. On the H100 they made a fresh runner's first evaluate take 10 s instead of 1.5 s.
#include <c10/core/Device.h>

#include <chrono>
#include <filesystem>

#include "core/protocol/evaluate_result.h"

namespace ks::engine {

// Runs each step of `device` once, through the embedded Python's torch as the models' calls run: on cuda
// cuda_context (torch.cuda.init and a tiny tensor), cublas (a 64x64 matmul), cudnn (a tiny conv2d) and
// profiler (profileKernels around a tiny op, as evaluate's profile phase calls it, its trace written to
// `scratchRoot` and removed); on cpu cpu_matmul and cpu_conv2d (oneDNN's first primitives). Each step's
// steady clock stops after a device-wide synchronize and the next starts there; the first starts at
// `since`, before the device was resolved (which starts the CUDA driver in a fresh runner). The result's
// `seconds` is the steps' sum. Python and torch errors propagate.
protocol::WarmUpResult warmUpDevice(const c10::Device& device, std::chrono::steady_clock::time_point since,
                                    const std::filesystem::path& scratchRoot);

}  // namespace ks::engine
