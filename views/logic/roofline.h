#pragma once
// A GEMM task's place on a roofline: its arithmetic intensity (FLOPs per byte of DRAM traffic, counting A and
// B read once and C written once) and the TFLOP/s a timed run achieved, 2·M·N·K / time. Only a time places a
// point: CUDA-L2's recorded results are speedups over baselines, not times, so a recorded-only task is
// counted, never given an invented time. Times come from the newest correct, timed re-run of the recorded
// program (the candidate's and the reference's medians) and from measurements a file carries with absolute
// milliseconds. The GPU's ceilings come from gpu_ceilings.h.
#include <cstdint>
#include <string>
#include <vector>

namespace ks {

class LoadedRun;
class MeasuredHistory;
struct GpuCeilings;
struct GemmShape;

double gemmFlops(std::int64_t m, std::int64_t n, std::int64_t k);  // 2·M·N·K
// Bytes moved at best: A (M×K) and B (K×N) read, C (M×N) written, `elementBytes` each (2 for fp16/bf16).
double gemmBytes(std::int64_t m, std::int64_t n, std::int64_t k, int elementBytes);
int elementBytes(const GemmShape& shape);  // 4 for fp32 inputs, else 2
double arithmeticIntensity(const GemmShape& shape);
double achievedTflops(const GemmShape& shape, double milliseconds);  // 0 for a non-positive time

struct RooflinePoint {
  int row = -1;
  enum class Program { Candidate, Reference } program = Program::Candidate;
  double intensity = 0;  // FLOP/byte
  double tflops = 0;
  double milliseconds = 0;
  std::string device;   // where it was timed
  bool trusted = true;  // speedupTrust of the row (a reference point is always trusted)
  std::vector<std::string> distrust;
};

struct Roofline {
  std::vector<RooflinePoint> points;  // by row; the candidate's before the reference's
  int gemmTasks = 0;
  int timedTasks = 0;    // tasks with at least one point
  int recordedOnly = 0;  // GEMM tasks with recorded speedups but no time
  std::string gpu;       // GemmShape::gpu of the run's GEMM tasks (the first one's)
  std::string accumulatorType;
  const GpuCeilings* ceilings = nullptr;  // nullptr when the table does not list the GPU
};

Roofline buildRoofline(const LoadedRun& run, const MeasuredHistory* history);

}  // namespace ks
