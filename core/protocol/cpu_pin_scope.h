#pragma once
// What the timing phase pins to one CPU (core/engine/cpu_pin.h): nothing, the timing thread, or every thread
// of the runner. On the wire "none" | "thread" | "process" (options.cpu_pin, timing.cpu_pin).
#include <optional>
#include <string_view>

namespace ks::protocol {

enum class CpuPinScope { None, Thread, Process };

const char* cpuPinScopeName(CpuPinScope scope);
std::optional<CpuPinScope> cpuPinScopeFrom(std::string_view name);

}  // namespace ks::protocol
