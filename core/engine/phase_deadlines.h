#pragma once
// The deadline each phase announces (docs/runner-protocol.md, "Phases and deadlines"). Fixed for the phases
// whose cost cannot be known in advance; correctness' successors scale with the call times measured before
// them. The client does not take these on trust (a program can forge a `phase` event): its own limits
// (core/supervisor/phase_deadlines.h, PhaseLimits) are these defaults, with its own clock for the call times.
namespace ks::engine {

inline constexpr double kLoadDeadlineS = 120;         // executing the programs, constructing the models
inline constexpr double kBuildDeadlineS = 600;        // one load_inline / native build (nvcc + torch headers)
// A native build that includes CuTe/CUTLASS: CUDA-L2's H100 kernels took 65-270 s each on the H100 machine
// (16 cores, five at once); twice the default leaves room for a batch building more at once on fewer cores.
inline constexpr double kCutlassBuildDeadlineS = 1200;
inline constexpr double kCorrectnessDeadlineS = 300;  // seeds x (reference + candidate) calls
inline constexpr double kMinTimedDeadlineS = 60;      // floor for timing and profile
// The build op's one candidate call (a model that builds its extensions on the first forward). Lazy builds
// inside it announce their own `build` phase; what is left is one forward pass, which no KernelBench task
// needs a minute for: a kernel that hangs the GPU (seen on the H100 in the CUDA-L1 release) is stopped here
// instead of holding a build-stage runner for the full correctness deadline.
inline constexpr double kFirstCallDeadlineS = 60;

// `calls` calls of a model pair whose slowest correctness call took `pairSeconds`, with 3x headroom.
inline double scaledDeadline(int calls, double pairSeconds) {
  return kMinTimedDeadlineS + 3.0 * calls * pairSeconds;
}

}  // namespace ks::engine
