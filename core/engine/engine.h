#pragma once
// The runner's engine: answers hello, evaluate, build and warm_up requests (docs/runner-protocol.md) inside
// the process's embedded Python (python_interpreter.h, started first). One request at a time; a request that
// fails yields its error and leaves the engine ready for the next, unless the CUDA context was lost.
#include <filesystem>
#include <optional>
#include <string>

#include "core/engine/event_sink.h"
#include "core/engine/outcome.h"
#include "core/protocol/evaluate_result.h"
#include "core/protocol/request.h"

namespace ks::engine {

struct EngineConfig {
  std::string runner;                 // "kscope-runner 0.1.0"
  std::filesystem::path scratchRoot;  // per-request scratch folders, unless a request names one
  std::filesystem::path cacheRoot;    // build cache, unless a request names one
  std::optional<protocol::Containment> containment;  // what core/sandbox set up; every environment says it
};

class Engine {
 public:
  explicit Engine(EngineConfig config) : config_(std::move(config)) {}

  Outcome<protocol::Environment> hello();
  Outcome<protocol::EvaluateResult> evaluate(const protocol::Request& request, EventSink& sink);
  Outcome<protocol::BuildResult> build(const protocol::Request& request, EventSink& sink);
  // Pays the one-time start-up costs of request.options.device (chosen as evaluate chooses it): warm_up.h.
  Outcome<protocol::WarmUpResult> warmUp(const protocol::Request& request);

  // True after an error that left the CUDA context unusable: report it, then exit.
  bool deviceLost() const { return deviceLost_; }

 private:
  template <class T, class F>
  Outcome<T> guarded(F&& body);

  EngineConfig config_;
  bool deviceLost_ = false;
};

}  // namespace ks::engine
