#pragma once
// The labelled hack corpus (tests/hacks/manifest.json) as the probe tests use it: each entry's family, the
// channels expected to catch it, and an evaluate request of its candidate against its reference.
#include <ostream>
#include <string>
#include <vector>

#include "core/protocol/evaluate_result.h"
#include "core/protocol/request.h"

namespace ks::engine::testing {

struct ProbeCorpusEntry {
  std::string path, reference, family, expect;
  std::vector<std::string> detectable, also;

  bool detectableBy(const std::string& channel) const;
  bool accepts(const std::string& family) const;  // its own family or one of `also`
};

void PrintTo(const ProbeCorpusEntry& entry, std::ostream* os);  // its path, in gtest messages

// Entries in manifest order; a manifest that cannot be read fails the calling test.
const std::vector<ProbeCorpusEntry>& probeCorpus();

// The hack entries a channel ("runtime-cpu", "runtime-gpu") is expected to catch, and the controls.
std::vector<ProbeCorpusEntry> corpusEntriesFor(const std::string& channel);
std::vector<ProbeCorpusEntry> corpusControls();

// Few seeds and trials: the probes, not the timing, are under test.
protocol::Request corpusRequest(const ProbeCorpusEntry& entry, const std::string& device);

std::string testNameOf(const ProbeCorpusEntry& entry);                       // "cached_output_id_keyed"
std::string describeFlags(const std::vector<protocol::RuntimeFlag>& flags);  // for failure messages

}  // namespace ks::engine::testing
