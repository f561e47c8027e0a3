#include "tests/engine/probe_corpus.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include "ks_test_paths.h"

namespace ks::engine::testing {
namespace {

const std::string kCorpusDir = std::string(KS_SOURCE_DIR) + "/tests/hacks/";

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace

bool ProbeCorpusEntry::detectableBy(const std::string& channel) const {
  return contains(detectable, channel);
}

std::vector<ProbeCorpusEntry> corpusEntriesFor(const std::string& channel) {
  std::vector<ProbeCorpusEntry> out;
  for (const auto& e : probeCorpus())
    if (e.family != "control" && e.detectableBy(channel)) out.push_back(e);
  return out;
}

std::vector<ProbeCorpusEntry> corpusControls() {
  std::vector<ProbeCorpusEntry> out;
  for (const auto& e : probeCorpus())
    if (e.family == "control") out.push_back(e);
  return out;
}

bool ProbeCorpusEntry::accepts(const std::string& other) const {
  return other == family || contains(also, other);
}

void PrintTo(const ProbeCorpusEntry& entry, std::ostream* os) { *os << entry.path; }

const std::vector<ProbeCorpusEntry>& probeCorpus() {
  static const std::vector<ProbeCorpusEntry> entries = [] {
    std::vector<ProbeCorpusEntry> out;
    const auto manifest = nlohmann::json::parse(readFile(kCorpusDir + "manifest.json"), nullptr, false);
    if (!manifest.is_array()) {
      ADD_FAILURE() << "cannot read " << kCorpusDir << "manifest.json";
      return out;
    }
    for (const auto& e : manifest)
      out.push_back({e.at("path").get<std::string>(), e.at("reference").get<std::string>(),
                     e.at("family").get<std::string>(), e.at("expect").get<std::string>(),
                     e.at("detectable").get<std::vector<std::string>>(),
                     e.value("also", std::vector<std::string>{})});
    return out;
  }();
  return entries;
}

protocol::Request corpusRequest(const ProbeCorpusEntry& entry, const std::string& device) {
  protocol::Request r;
  r.id = testNameOf(entry);
  r.op = protocol::Op::Evaluate;
  r.task =
      protocol::TaskSpec{entry.reference, CodeLanguage::Python, readFile(kCorpusDir + entry.reference), {}};
  r.candidate =
      protocol::CandidateSpec{entry.path, CodeLanguage::Python, readFile(kCorpusDir + entry.path), ""};
  r.options.device = device;
  r.options.seeds = 2;
  r.options.trials = device == "cuda" ? 10 : 1;
  r.options.warmup = device == "cuda" ? 2 : 0;
  return r;
}

std::string testNameOf(const ProbeCorpusEntry& entry) {
  std::string name = entry.path.substr(0, entry.path.rfind('.'));
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

std::string describeFlags(const std::vector<protocol::RuntimeFlag>& flags) {
  std::string text;
  for (const auto& f : flags) text += "\n  " + f.family + " (" + f.severity + "): " + f.message;
  return text.empty() ? " none" : text;
}

}  // namespace ks::engine::testing
