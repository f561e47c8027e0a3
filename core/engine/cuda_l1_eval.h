#pragma once
// CUDA-L1's evaluation of a loaded Python task (options.cuda_l1_eval), after KernelScope's own measurement:
// its check always, its timing when that check passed, and the same timing with the L2 flushed when asked
// (cuda_l1_method.h says how each is done). A model that raises is the result's note, not a failed request;
// a lost device is rethrown for Engine::guarded to end the runner.
#include <c10/core/Device.h>

#include <optional>
#include <string>

#include "core/engine/event_sink.h"
#include "core/engine/model_pair.h"
#include "core/protocol/evaluate_result.h"
#include "core/protocol/request.h"

namespace ks::engine {

// `timing` is KernelScope's own (for the deadlines; nullopt when it did not time the candidate).
protocol::CudaL1Eval evaluateCudaL1(ModelPair& pair, const std::string& candidateCode, const c10::Device& device,
                                    const protocol::Options::CudaL1EvalOptions& options, std::uint64_t orderSeed,
                                    const std::optional<protocol::Timing>& timing, PhaseReporter& reporter);

}  // namespace ks::engine
