#pragma once
// What the Measurements pane's headline says a file records of a candidate: the claim in the series the
// window shows first, by the one rule (claimHtml: after the verdict, struck through for a caught hack), then
// every other series the candidate records, by name. A candidate that records nothing in the shown series
// but something in others says so and lists them, so the headline never says "no speedup recorded" beside
// a table of recorded numbers.
#include <QString>

#include "core/model/candidate.h"
#include "views/logic/speedup_series.h"

namespace ks {

struct SpeedupTrust;

// Rich text: "recorded <b>1.837×</b> vs torch.matmul (offline) (H100 …, CUDA-L2) · 20 recorded: torch.matmul,
// cuBLAS-tn, …, each offline and server". For "default" the claim alone, as "recorded <b>1.500×</b> (where)".
// `whereHtml`: the device and source, escaped.
QString recordedHeadlineHtml(const Candidate& c, const SpeedupSeries& series, const SpeedupTrust& trust,
                             const QString& whereHtml);

// "torch.matmul, cuBLAS-tn, …, each offline and server" when every baseline is recorded in the same modes;
// else each series' label ("cuda_graph, cudnn", "torch.matmul (offline), cuBLAS-tn (server)").
QString seriesListText(const std::vector<SpeedupSeries>& series);

}  // namespace ks
