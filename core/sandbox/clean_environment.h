#pragma once
// The environment kscope-runner starts with: an allow-list of what the runner, torch, nvcc and the CUDA
// driver read (docs/security.md, "Environment"), nothing else. The results store's location
// (KSCOPE_RESULTS_DB, XDG_DATA_HOME), credentials (*_TOKEN, AWS_*, SSH_AUTH_SOCK, ...) and everything a
// candidate has no business reading stay behind.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ks::sandbox {

using EnvironmentList = std::vector<std::pair<std::string, std::string>>;

// True when the runner is given variable `name` from its client's environment.
bool passedToRunner(std::string_view name);

// The allowed entries of `environ`-style `entries` ("NAME=value", null-terminated array), in their order.
EnvironmentList cleanEnvironment(char** entries);

// `base` with `name` set to `value` (replaced where present, appended otherwise).
void setVariable(EnvironmentList& base, const std::string& name, const std::string& value);

}  // namespace ks::sandbox
