#pragma once
// How the explorer writes the parts of a re-run: when it was recorded (local time), where it ran, its
// outcome and its speedup with the spread of the candidate's times.
#include <QString>
#include <optional>

#include "core/model/candidate.h"
#include "core/runs/measured_run.h"

namespace ks {

struct SpeedupTrust;

QString localTime(const std::string& isoUtc);  // "2026-05-04 12:03" in local time; as given if unreadable
// "AMD EPYC (cpu)", "NVIDIA H100 80GB HBM3 (cuda)"; "— (cpu)" for a run that reported no device name;
// "NVIDIA H100 80GB HBM3 (cuda, GPU 1)" for one measured by the runner of GPU 1 of several
QString deviceText(const runs::MeasuredRun& run);
QString outcomeText(const runs::MeasuredRun& run);  // "correct", "incorrect", "error: timeout"
// "17.20× [16.93–17.48×]" (the 95 % interval); "17.20× ± 3.1%" (the candidate's CV) for results of runners
// before the interval; "—" when not timed. A result whose program fell back to PyTorch says so first:
// "PyTorch fallback's 1.02× [...]" (fellBack) — never to be read as the kernel's.
QString speedupWithSpread(const runs::MeasuredRun& run);
// The run's candidate extension did not build and the program ran its PyTorch fallback
// (core/runs/fallback_note.h): its number is the fallback's.
bool fellBack(const runs::MeasuredRun& run);
// fallbackPrefix(): "PyTorch fallback's " for such a run, else empty: put before any speedup of it.
QString fallbackPrefix(const runs::MeasuredRun& run);
// The outcome, said after the trust rule's verdict when it speaks against the run (speedup_trust.h, issue
// 17): "caught hack · correct", "fell back · correct"; as outcomeText otherwise.
QString trustedOutcomeText(const runs::MeasuredRun& run);
// The header of a run's details, rich text: "Correct · 17.20× [16.93–17.48×] vs the reference"; when the
// rule speaks against the run its verdict comes first and the number is struck through: "Caught hack ·
// Correct · <s>10059.9×</s> vs the reference — not the kernel's speedup".
QString runHeadlineHtml(const runs::MeasuredRun& run);
// A repaired program's run (MeasuredRun::repair): "repaired: declare-bound-functions, drop-generated-module";
// empty for any other run. repairLines(): one line per repair with what it changed, for tooltips.
QString repairText(const runs::MeasuredRun& run);
QString repairLines(const runs::MeasuredRun& run);
// For a repaired program's run (`kscope run --repair`): the three numbers side by side, rich text — "Recorded
// <b>2.500×</b> · PyTorch fallback <b>1.020×</b> (2026-11-25 10:02) · repaired kernel <b>3.200×</b>"; a
// number that is not known says so. Empty for a run that is not a repair.
QString repairedBesideHtml(const runs::MeasuredRun& repaired, const runs::MeasuredRun* fallbackBefore,
                           std::optional<double> recorded);
// A GEMM run's speedups per baseline and timing method (core/runs/gemm_baseline_table.h), rich text: one table,
// a column per method, "1.52 (1.84)" measured (recorded, by the same baseline and mode from `recorded`, may
// be null). When the trust rule speaks against the run (speedup_trust.h) its verdict comes first and every
// number is struck through. Empty for a run without baselines.
QString gemmBaselinesHtml(const runs::MeasuredRun& run, const Candidate* recorded);
// The candidate header's few words on a GEMM run where CUDA-L2's method and KernelScope's differ beyond noise
// (core/runs/method_gap.h), for the baseline the header's claim is over: "re-measured: CUDA-L2's method
// 1.05×, KernelScope's 0.90× over torch.matmul". Empty when they agree, for a run that is not the kernel's
// (a caught hack, a fallback), and for a run without baselines.
QString methodGapSummary(const runs::MeasuredRun& run, const std::string& baseline);
// A Python run that CUDA-L1's own method also evaluated (core/runs/cuda_l1_gap.h), rich text: what it gave,
// with the recorded claim (`recorded`, may be null), where its verdict differs from KernelScope's, and why
// the two figures differ where they do. When the trust rule speaks against the run its verdict comes first,
// the figures are struck and no explanation follows. Empty for a run without it.
QString cudaL1Html(const runs::MeasuredRun& run, const Candidate* recorded);
// The candidate header's few words on it: "re-measured: CUDA-L1's method 2.31×, KernelScope's 1.80×". Empty
// without it, when CUDA-L1's method did not time the candidate, and for a run that is not the kernel's.
QString cudaL1Summary(const runs::MeasuredRun& run);
// A claim (a number the file records) as rich text, shown by claimDisplay (speedup_trust.h): "caught hack ·
// <s>368.2×</s>", "fell back · 3.000×"; `number` alone when the rule does not speak against the row.
QString claimHtml(const QString& number, const SpeedupTrust& trust);
// "this machine" when it ran on the host we run on, else its host name; empty when unknown.
QString hostText(const runs::MeasuredRun& run);

}  // namespace ks
