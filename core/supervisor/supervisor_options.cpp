#include "core/supervisor/supervisor_options.h"

#include <unistd.h>

#include <algorithm>
#include <string>

namespace ks::supervisor {

SupervisorOptions clientSupervisorOptions(const std::filesystem::path& runner, const std::string& device,
                                          std::uint64_t memoryLimitBytes) {
  SupervisorOptions o;
  o.runner = runner;
  std::error_code ec;
  std::filesystem::path tmp = std::filesystem::temp_directory_path(ec);
  if (ec) tmp = "/tmp";
  o.scratchRoot = tmp / ("kscope-" + std::to_string(getpid()));
  if (memoryLimitBytes > 0) o.memoryLimit = MemoryLimit{memoryLimitBytes, device == "cpu"};
  return o;
}

SupervisorOptions poolRunnerOptions(const SupervisorOptions& base, const std::string& name, int index,
                                    const std::vector<std::pair<std::string, std::string>>& environment) {
  SupervisorOptions o = base;
  o.scratchRoot = base.scratchRoot / (name + "-" + std::to_string(index));
  o.environment.insert(o.environment.end(), environment.begin(), environment.end());
  return o;
}

std::uint64_t physicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long pageSize = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && pageSize > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize)
                                   : std::uint64_t(8) << 30;
}

ChosenMemoryLimit chooseMemoryLimit(double requestedMiB, int runners, const std::string& option) {
  constexpr std::uint64_t kMiB = std::uint64_t(1) << 20;
  if (requestedMiB == 0) return {0, "none (" + option + " 0)"};
  if (requestedMiB > 0) {
    const auto bytes = static_cast<std::uint64_t>(requestedMiB * static_cast<double>(kMiB));
    return {bytes, std::to_string(bytes / kMiB) + " MiB (" + option + ")"};
  }
  const std::uint64_t machine = physicalMemoryBytes();
  const std::uint64_t share = machine / 4 * 3 / static_cast<std::uint64_t>(std::max(1, runners));
  const std::uint64_t bytes = std::max(share, std::uint64_t(2) << 30);
  std::string why = std::to_string(bytes / kMiB) + " MiB (default: 3/4 of this machine's " +
                    std::to_string(machine / kMiB) + " MiB";
  if (runners > 1) why += ", shared by " + std::to_string(runners) + " runners";
  return {bytes, why + "; " + option + " to change, 0 for none)"};
}

}  // namespace ks::supervisor
