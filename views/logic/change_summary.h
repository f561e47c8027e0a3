#pragma once
// What a candidate changed against its reference, read from the code when the file records no analysis:
// lines added and removed, __global__ kernels defined, load_inline modules built, and the torch calls
// (torch.*, F.*, nn.*) the candidate dropped or introduced.
#include <QStringList>
#include <string>

namespace ks {

class ChangeSummary {
 public:
  static ChangeSummary compute(const std::string& reference, const std::string& candidate);

  int linesAdded = 0;
  int linesRemoved = 0;
  QStringList kernels;          // __global__ function names, in order of definition
  QStringList modules;          // load_inline(name=...) of the embedded sources
  QStringList torchOpsRemoved;  // called by the reference only
  QStringList torchOpsAdded;    // called by the candidate only
};

}  // namespace ks
