#include "tests/engine/python_environment.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>

#include "core/engine/python_interpreter.h"

namespace ks::engine::testing {

Engine& testEngine() {
  static std::unique_ptr<PythonInterpreter> python;
  static std::unique_ptr<Engine> engine;
  if (!engine) {
    auto started = PythonInterpreter::start();
    if (auto* why = std::get_if<std::string>(&started)) {
      ADD_FAILURE() << *why;
      std::abort();
    }
    python = std::move(std::get<std::unique_ptr<PythonInterpreter>>(started));
    const auto root =
        std::filesystem::temp_directory_path() / ("kscope-engine-test-" + std::to_string(getpid()));
    engine = std::make_unique<Engine>(EngineConfig{"kscope-runner test", root / "scratch", root / "cache"});
  }
  return *engine;
}

void RecordingSink::phase(protocol::Phase phase, double deadlineS) {
  phases.push_back(phase);
  deadlines.push_back(deadlineS);
}

void RecordingSink::progress(protocol::Phase, int, int) { ++progressEvents; }
void RecordingSink::built(const protocol::ExtensionBuild& build) { builds.push_back(build); }

}  // namespace ks::engine::testing
