// A request's end as JSON (outcome_json.h): the protocol's encoding of the end event, built as an object.
#include "core/runs/outcome_json.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/protocol/json_codec.h"

namespace ks::runs {
namespace {

TEST(EndEventJson, IsTheEventTheProtocolEncodes) {
  protocol::EvaluateResult r;
  r.codeHash = "sha256:aa";
  r.device = "cpu";
  r.correctness.passed = true;
  r.timing = protocol::Timing{.clock = "wall", .trials = 2, .speedup = 1.5};
  r.timing->candidate.cv = std::nan("");  // written as null
  const protocol::ResultEvent result{"4", true, protocol::toJson(r)};
  EXPECT_EQ(endEventJson(result).dump(), protocol::encodeEvent(result));
  protocol::ErrorEvent error{"5", {}};
  error.error.kind = protocol::ErrorKind::Crash;
  error.error.message = "killed by SIGSEGV";
  error.error.signal = 11;
  EXPECT_EQ(endEventJson(error).dump(), protocol::encodeEvent(error));
}

}  // namespace
}  // namespace ks::runs
