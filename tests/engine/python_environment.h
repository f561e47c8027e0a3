#pragma once
// In-process engine tests share one embedded Python (a process can start CPython only once) and one Engine
// whose scratch and cache folders live under a temporary folder of the test process.
#include <string>

#include "core/engine/engine.h"

namespace ks::engine::testing {

// The engine of this test process; starts Python on first use (a failure to start fails the test).
Engine& testEngine();

// An event sink that keeps what it was told, for checking the phases a request went through.
class RecordingSink final : public EventSink {
 public:
  void phase(protocol::Phase phase, double deadlineS) override;
  void progress(protocol::Phase phase, int done, int total) override;
  void built(const protocol::ExtensionBuild& build) override;
  std::vector<protocol::Phase> phases;
  std::vector<protocol::ExtensionBuild> builds;  // as reported, in order
  std::vector<double> deadlines;
  int progressEvents = 0;
};

}  // namespace ks::engine::testing
