#pragma once
// Small KernelBench-style programs for the engine tests (CPU-sized). Every candidate is the reference with
// `class Model` renamed ModelNew and the forward body replaced, so its lines are known: the forward body
// starts on line kForwardLine.
#include <string>

#include "core/protocol/request.h"

namespace ks::engine::testing {

inline constexpr int kForwardLine = 10;

inline const std::string kReference = R"(import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.linear = nn.Linear(features, features)

    def forward(self, x):
        return torch.relu(self.linear(x))


def get_inputs():
    return [torch.randn(8, 16)]


def get_init_inputs():
    return [16]
)";

// `body` replaces the forward's return line; it may span lines (8-space indented after the first).
inline std::string candidateWith(const std::string& body, const std::string& prelude = "") {
  std::string code = kReference;
  code.replace(code.find("class Model("), 12, "class ModelNew(");
  const std::string line = "        return torch.relu(self.linear(x))";
  code.replace(code.find(line), line.size(), "        " + body);
  return prelude + code;
}

inline protocol::Request evaluateRequest(const std::string& id, const std::string& candidate,
                                         const std::string& reference = kReference) {
  protocol::Request r;
  r.id = id;
  r.op = protocol::Op::Evaluate;
  r.task = protocol::TaskSpec{"test/" + id, CodeLanguage::Python, reference, {}};
  r.candidate = protocol::CandidateSpec{id, CodeLanguage::Python, candidate, ""};
  r.options.device = "cpu";  // the CPU suites must mean cpu on a GPU machine too (onCuda() switches)
  r.options.seeds = 2;
  r.options.trials = 5;
  r.options.warmup = 1;
  return r;
}

}  // namespace ks::engine::testing
