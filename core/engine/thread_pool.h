#pragma once
// The size of the thread pool other models run on, remembered before any program loads: torch's intra-op
// thread count and the variables that size OpenMP's, MKL's, OpenBLAS's and numexpr's pools when they start.
// A program that lowers the count for the calls after its own, or exports a smaller pool for whoever starts
// one next, starves the reference in a process it shares with it (docs/hacks.md, slowed-reference); the
// remembered state is found changed by comparing again and put back at once.
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ks::engine {

struct ThreadPoolChange {
  std::string what;           // "torch.get_num_threads()", "OMP_NUM_THREADS"
  std::string before, after;  // "2", "1"; "(unset)" for a variable not set
};

class ThreadPoolState {
 public:
  static ThreadPoolState take();  // needs the embedded Python (os.environ)

  int threads() const { return threads_; }
  std::vector<ThreadPoolChange> changesIn(const ThreadPoolState& now) const;
  // Puts the thread count and the variables back (os.environ and the C environment both).
  void restore() const;

 private:
  int threads_ = 0;
  // Each variable as os.environ has it and as the C environment has it (os.putenv changes only the latter).
  std::vector<std::pair<std::optional<std::string>, std::optional<std::string>>> variables_;
};

// The variables that size thread pools when a library starts one.
inline constexpr const char* kThreadPoolVariables[] = {"OMP_NUM_THREADS", "MKL_NUM_THREADS",
                                                       "OPENBLAS_NUM_THREADS", "NUMEXPR_NUM_THREADS"};

}  // namespace ks::engine
