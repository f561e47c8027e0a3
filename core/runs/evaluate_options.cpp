#include "core/runs/evaluate_options.h"

namespace ks::runs {

protocol::Options evaluateOptions(const RunChoices& choices) {
  protocol::Options options;
  options.device = choices.device;
  if (choices.trials > 0) options.trials = choices.trials;
  if (choices.seeds > 0) options.seeds = choices.seeds;
  options.arch = choices.arch;
  if (choices.gemmWarmupSeconds >= 0) options.gemmWarmupSeconds = choices.gemmWarmupSeconds;
  if (choices.gemmSeconds >= 0) options.gemmSeconds = choices.gemmSeconds;
  options.gemmBaselines = choices.gemmBaselines;
  options.gemmMethods = choices.gemmMethods;
  options.cudaL1Eval = choices.cudaL1Eval;
  return options;
}

bool cudaL1EvalByDefault(const std::string& runFormat, const std::string& candidateId, const std::string& device) {
  return device == "cuda" && (runFormat == "cuda-l1" || candidateId == "cuda-l1");
}

}  // namespace ks::runs
