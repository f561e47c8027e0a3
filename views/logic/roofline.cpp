#include "views/logic/roofline.h"

#include "core/model/task.h"
#include "views/logic/gpu_ceilings.h"
#include "views/logic/loaded_run.h"
#include "views/logic/measured_history.h"
#include "views/logic/speedup_trust.h"

namespace ks {

double gemmFlops(std::int64_t m, std::int64_t n, std::int64_t k) {
  return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
}

double gemmBytes(std::int64_t m, std::int64_t n, std::int64_t k, int elementBytes) {
  const double mk = static_cast<double>(m) * static_cast<double>(k);
  const double kn = static_cast<double>(k) * static_cast<double>(n);
  const double mn = static_cast<double>(m) * static_cast<double>(n);
  return elementBytes * (mk + kn + mn);
}

int elementBytes(const GemmShape& shape) { return shape.inputType == "fp32" ? 4 : 2; }

double arithmeticIntensity(const GemmShape& shape) {
  const double bytes = gemmBytes(shape.m, shape.n, shape.k, elementBytes(shape));
  return bytes > 0 ? gemmFlops(shape.m, shape.n, shape.k) / bytes : 0;
}

double achievedTflops(const GemmShape& shape, double milliseconds) {
  if (!(milliseconds > 0)) return 0;
  return gemmFlops(shape.m, shape.n, shape.k) / (milliseconds * 1e-3) / 1e12;
}

Roofline buildRoofline(const LoadedRun& run, const MeasuredHistory* history) {
  Roofline roofline;
  std::vector<bool> taskSeen(run.run().tasks.size(), false);
  std::vector<bool> taskTimed(run.run().tasks.size(), false);
  std::vector<bool> taskRecorded(run.run().tasks.size(), false);
  for (int row = 0; row < run.rowCount(); ++row) {
    const std::size_t taskIndex = static_cast<std::size_t>(run.row(row).task);
    const Task& task = run.task(row);
    if (!task.gemm) continue;
    if (!taskSeen[taskIndex]) {
      taskSeen[taskIndex] = true;
      ++roofline.gemmTasks;
      if (roofline.gpu.empty()) {
        roofline.gpu = task.gemm->gpu;
        roofline.accumulatorType = task.gemm->accumulatorType;
      }
    }
    const Candidate* c = run.candidate(row);
    if (!c) continue;
    const GemmShape& shape = *task.gemm;
    const double intensity = arithmeticIntensity(shape);
    const SpeedupTrust trust = speedupTrust(run, history, row);
    const auto add = [&](RooflinePoint::Program program, double ms, const std::string& device) {
      if (!(ms > 0)) return;
      RooflinePoint p;
      p.row = row;
      p.program = program;
      p.intensity = intensity;
      p.tflops = achievedTflops(shape, ms);
      p.milliseconds = ms;
      p.device = device;
      if (program == RooflinePoint::Program::Candidate) {
        p.trusted = trust.trusted;
        p.distrust = trust.reasons;
      }
      roofline.points.push_back(std::move(p));
      taskTimed[taskIndex] = true;
    };
    bool timed = false;
    const runs::MeasuredRun* measured = history ? history->latestOfRecorded(row) : nullptr;
    if (measured && measured->correct() && measured->result && measured->result->timing &&
        measured->row.device != "cpu") {
      const auto& timing = *measured->result->timing;
      add(RooflinePoint::Program::Candidate, timing.candidate.medianMs, measured->row.device);
      add(RooflinePoint::Program::Reference, timing.reference.medianMs, measured->row.device);
      timed = timing.candidate.medianMs > 0;
    }
    for (const Measurement& m : c->measurements) {
      if (m.speedup && m.origin == "recorded") taskRecorded[taskIndex] = true;
      if (timed || !m.candidateMs) continue;  // a re-run here speaks for the program; else the file's times
      add(RooflinePoint::Program::Candidate, *m.candidateMs, m.device);
      if (m.baselineMs && m.baseline == "default")
        add(RooflinePoint::Program::Reference, *m.baselineMs, m.device);
      timed = true;
    }
  }
  for (std::size_t t = 0; t < taskSeen.size(); ++t) {
    roofline.timedTasks += taskTimed[t];
    roofline.recordedOnly += taskSeen[t] && taskRecorded[t] && !taskTimed[t];
  }
  roofline.ceilings = gpuCeilings(roofline.gpu);
  return roofline;
}

}  // namespace ks
