#pragma once
// One model call made the way a timed trial makes it (measurement.cpp): the model's own torch settings entered,
// the GPU's L2 flushed, the device synchronized, Python's cyclic collector paused, the trial clock around the
// call. Shared by the timing loop and by the checks that must see a call exactly as the timing does: the
// drift check after the loop (validation-drift) and the reference timed before the candidate's program is
// imported (slowed-reference). No allocator junk fill: a timed call runs without it.
#include <pybind11/pybind11.h>

#include "core/engine/model_pair.h"
#include "core/engine/trial_clock.h"
#include "core/engine/trial_time.h"

namespace ks::engine {

// Python's cyclic garbage collector stays out of a timed call, as in timeit: a collection that falls inside
// one trial makes a slow trial of it, and how often one falls depends on the whole interpreter's history,
// not on the model. It runs between trials instead (at the first allocation after the call). Through the C
// API, which a program cannot patch.
class CollectorPause {
 public:
  CollectorPause();
  ~CollectorPause();
  CollectorPause(const CollectorPause&) = delete;
  CollectorPause& operator=(const CollectorPause&) = delete;

 private:
  bool wasEnabled_;
};

struct TimedCall {
  pybind11::object output;
  TrialTime time;
};

TimedCall timedCall(const ModelUnderTest& model, const pybind11::tuple& args, TrialClock& clock, CacheFlush& flush,
                    const c10::Device& device);

}  // namespace ks::engine
