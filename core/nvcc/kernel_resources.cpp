#include "core/nvcc/kernel_resources.h"

#include <regex>
#include <sstream>

#include "core/nvcc/demangle.h"

namespace ks::nvcc {
namespace {

const std::regex kEntry(R"(^ptxas info\s*: Compiling entry function '([^']+)' for '([^']+)')");
const std::regex kProperties(R"(^ptxas info\s*: Function properties for (\S+))");
const std::regex kFrame(R"(^\s*(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
const std::regex kUsed(R"(^ptxas info\s*: Used (\d+) registers(.*)$)");
const std::regex kBarriers(R"(used (\d+) barriers)");
const std::regex kShared(R"((\d+) bytes smem)");
const std::regex kConstant(R"((\d+) bytes cmem\[\d+\])");

}  // namespace

std::vector<KernelResources> parsePtxasResources(const std::string& compilerOutput) {
  std::vector<KernelResources> kernels;
  std::istringstream in(compilerOutput);
  bool inEntry = false;            // between "Compiling entry function" and its "Used" line
  bool propertiesOfEntry = false;  // the next frame line belongs to the current entry
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, m, kEntry)) {
      KernelResources k;
      k.mangledName = m[1];
      k.name = demangle(k.mangledName);
      k.arch = m[2];
      kernels.push_back(std::move(k));
      inEntry = true;
      propertiesOfEntry = false;
    } else if (std::regex_search(line, m, kProperties)) {
      propertiesOfEntry = inEntry && m[1] == kernels.back().mangledName;
    } else if (std::regex_search(line, m, kFrame)) {
      if (propertiesOfEntry) {
        kernels.back().stackBytes = std::stoi(m[1]);
        kernels.back().spillStores = std::stoi(m[2]);
        kernels.back().spillLoads = std::stoi(m[3]);
      }
      propertiesOfEntry = false;
    } else if (std::regex_search(line, m, kUsed) && inEntry) {
      KernelResources& k = kernels.back();
      k.registers = std::stoi(m[1]);
      const std::string rest = m[2];
      std::smatch item;
      if (std::regex_search(rest, item, kBarriers)) k.barriers = std::stoi(item[1]);
      if (std::regex_search(rest, item, kShared)) k.sharedBytes = std::stoi(item[1]);
      for (auto it = std::sregex_iterator(rest.begin(), rest.end(), kConstant); it != std::sregex_iterator();
           ++it)
        k.constantBytes += std::stoi((*it)[1]);
      inEntry = false;
    }
  }
  return kernels;
}

}  // namespace ks::nvcc
