#include "core/cluster/gpu_list.h"

#include <algorithm>
#include <cctype>

#include "core/model/text_trim.h"

namespace ks::cluster {
namespace {

// A comma-separated list; `error` names the first bad item.
std::vector<std::string> splitIds(std::string_view text, std::string& error) {
  std::vector<std::string> ids;
  while (true) {
    const auto comma = text.find(',');
    std::string id(trimmed(text.substr(0, comma), kCSpaces));
    const bool ok = !id.empty() && std::all_of(id.begin(), id.end(), [](unsigned char c) {
      return std::isalnum(c) || c == '-' || c == '_' || c == ':';
    });
    if (!ok) {
      error = "not a GPU id: \"" + id + "\"";
      return {};
    }
    if (std::find(ids.begin(), ids.end(), id) != ids.end()) {
      error = "GPU " + id + " is listed twice";
      return {};
    }
    ids.push_back(std::move(id));
    if (comma == std::string_view::npos) return ids;
    text.remove_prefix(comma + 1);
  }
}

}  // namespace

GpuList gpuList(std::string_view spec, const std::function<const char*(const char*)>& getenv,
                const std::filesystem::path& nvidiaProc) {
  GpuList list;
  auto fromText = [&](std::string_view text, std::string source) {
    list.ids = splitIds(text, list.error);
    list.source = std::move(source);
  };
  if (trimmed(spec, kCSpaces) != "all") {
    fromText(spec, "--gpus");
  } else if (const char* fake = getenv("KSCOPE_GPU_LIST")) {
    fromText(fake, "KSCOPE_GPU_LIST");
  } else if (const char* visible = getenv("CUDA_VISIBLE_DEVICES")) {
    fromText(visible, "CUDA_VISIBLE_DEVICES");
  } else {
    std::error_code ec;
    std::size_t n = 0;
    for (auto it = std::filesystem::directory_iterator(nvidiaProc, ec);
         !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
      ++n;
    for (std::size_t i = 0; i < n; ++i) list.ids.push_back(std::to_string(i));
    list.source = nvidiaProc.string();
    if (n == 0) list.error = "no GPU found (" + nvidiaProc.string() + " lists none)";
  }
  if (!list.error.empty()) list.error = list.source + ": " + list.error;
  return list;
}

std::vector<std::pair<std::string, std::string>> gpuRunnerEnvironment(const std::string& id) {
  return {{"CUDA_VISIBLE_DEVICES", id}};
}

GpuList gpuRunners(std::string_view spec, const std::function<const char*(const char*)>& getenv,
                   const std::filesystem::path& nvidiaProc) {
  const std::string_view chosen = trimmed(spec, kCSpaces);
  const bool all = chosen.empty() || chosen == "all";
  GpuList list = gpuList(all ? "all" : spec, getenv, nvidiaProc);
  if (!all) {  // the ids a user chose: said as such, not as the CLI's option
    list.source = "chosen";
    if (const std::string prefix = "--gpus: "; list.error.rfind(prefix, 0) == 0) list.error.erase(0, prefix.size());
  }
  if (all && list.ids.empty()) {
    list.source = list.error.empty() ? list.source : list.error;  // "...: no GPU found (... lists none)"
    list.error.clear();
    list.ids = {""};
  }
  return list;
}

}  // namespace ks::cluster
