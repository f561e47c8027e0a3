#pragma once
// The executor's main loop: one request line in from the judge, its events out, until `shutdown` or the end
// of input. A sync line from the judge is echoed (executor_link.h).
#include "app/kscope-runner/protocol_channel.h"
#include "core/engine/engine.h"

namespace ks::runner {

inline constexpr int kExitDeviceLost = 3;  // the CUDA context is unusable; a new runner is needed

// Returns the process exit status: 0 after shutdown or end of input, kExitDeviceLost after an error that
// left the GPU unusable (reported first, with runner_exits).
int serveRequests(ProtocolChannel& channel, engine::Engine& engine);

}  // namespace ks::runner
