#include "core/engine/timed_call.h"

namespace py = pybind11;

namespace ks::engine {

CollectorPause::CollectorPause() : wasEnabled_(PyGC_Disable() == 1) {}

CollectorPause::~CollectorPause() {
  if (wasEnabled_) PyGC_Enable();
}

TimedCall timedCall(const ModelUnderTest& model, const py::tuple& args, TrialClock& clock, CacheFlush& flush,
                    const c10::Device& device) {
  model.enter();
  flush();
  synchronize(device);
  TimedCall out;
  const CollectorPause noCollection;
  clock.start();
  out.output = model.callable(*args);
  out.time = clock.stop();
  return out;
}

}  // namespace ks::engine
