#pragma once
// Field-by-field comparison of RunFiles for round-trip tests (sourceLine and issues are not compared: they
// describe where the data was read from, not the data).
#include <gtest/gtest.h>

#include "core/model/run_file.h"

namespace ks::test {

inline void expectSameMeasurement(const Measurement& a, const Measurement& b, const std::string& where) {
  EXPECT_EQ(a.baseline, b.baseline) << where;
  EXPECT_EQ(a.speedup, b.speedup) << where;
  EXPECT_EQ(a.baselineMs, b.baselineMs) << where;
  EXPECT_EQ(a.candidateMs, b.candidateMs) << where;
  EXPECT_EQ(a.device, b.device) << where;
  EXPECT_EQ(a.origin, b.origin) << where;
  EXPECT_EQ(a.when, b.when) << where;
  EXPECT_EQ(a.mode, b.mode) << where;
  EXPECT_EQ(a.outcome, b.outcome) << where;
  EXPECT_EQ(a.error, b.error) << where;
}

inline void expectSameCandidate(const Candidate& a, const Candidate& b, const std::string& where) {
  EXPECT_EQ(a.id, b.id) << where;
  EXPECT_EQ(a.parents, b.parents) << where;
  EXPECT_EQ(a.step, b.step) << where;
  EXPECT_EQ(a.language, b.language) << where;
  EXPECT_EQ(a.code.optional(), b.code.optional()) << where;
  EXPECT_EQ(a.analysis.valueOrEmpty(), b.analysis.valueOrEmpty()) << where;  // none and "" are both none
  ASSERT_EQ(a.measurements.size(), b.measurements.size()) << where;
  for (std::size_t i = 0; i < a.measurements.size(); ++i)
    expectSameMeasurement(a.measurements[i], b.measurements[i], where + " measurement " + std::to_string(i));
}

inline void expectSameRun(const RunFile& a, const RunFile& b) {
  EXPECT_EQ(a.title, b.title);
  EXPECT_EQ(a.description, b.description);
  ASSERT_EQ(a.tasks.size(), b.tasks.size());
  for (std::size_t t = 0; t < a.tasks.size(); ++t) {
    const Task& x = a.tasks[t];
    const Task& y = b.tasks[t];
    const std::string where = "task " + x.key();
    EXPECT_EQ(x.level, y.level) << where;
    EXPECT_EQ(x.number, y.number) << where;
    EXPECT_EQ(x.name, y.name) << where;
    EXPECT_EQ(x.id, y.id) << where;
    EXPECT_EQ(x.referenceDescription, y.referenceDescription) << where;
    EXPECT_EQ(x.note, y.note) << where;
    EXPECT_EQ(x.referenceLanguage, y.referenceLanguage) << where;
    EXPECT_EQ(x.referenceCode, y.referenceCode) << where;
    EXPECT_EQ(x.baselinePrograms, y.baselinePrograms) << where;
    ASSERT_EQ(x.candidates.size(), y.candidates.size()) << where;
    for (std::size_t c = 0; c < x.candidates.size(); ++c)
      expectSameCandidate(x.candidates[c], y.candidates[c], where + " candidate " + x.candidates[c].id);
  }
}

}  // namespace ks::test
