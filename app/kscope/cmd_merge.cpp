// kscope merge OUT PARTS... [--file FILE]: joins the --out files of several `kscope batch` shards
// into one results file of the same format. An entry (task, candidate, code hash) found in two parts is
// reported and kept once (the later recorded_at). With --file, entries of FILE missing from every part are
// listed (exit 1) and the merged results are recorded in the results store, as a local batch would have
// (shards on a cluster run with --no-store), so the GUI shows them in the history of FILE's candidates;
// --run PATH writes FILE as a run file with each measured speedup added to its candidate (origin
// "measured"), a file the GUI opens like any run.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "app/kscope/command.h"
#include "app/kscope/input_loading.h"
#include "core/hash/sha256.h"
#include "core/formats/run_format.h"
#include "core/json/nesting.h"
#include "core/runs/record_result.h"
#include "core/runs/result_row.h"
#include "core/store/result_store.h"
#include "core/store/store_path.h"

namespace ks::cli {
namespace {

using Json = nlohmann::ordered_json;

struct MergeOptions {
  std::string out, file, store, run;
  std::vector<std::string> parts;
  bool noStore = false;
};

struct Found {
  Json line;
  std::string where;  // "part:line"
};

std::string entryName(const Json& j) { return j.value("task", "") + " " + j.value("candidate", ""); }

int runMerge(const MergeOptions& o) {
  int code = 0;
  std::map<std::tuple<std::string, std::string, std::string>, Found> merged;
  std::size_t lines = 0, duplicates = 0;
  for (const std::string& part : o.parts) {
    std::ifstream in(part);
    if (!in) {
      std::cerr << "kscope merge: error: cannot read " << part << "\n";
      return kExitFailure;
    }
    int lineNo = 0;
    for (std::string text; std::getline(in, text);) {
      ++lineNo;
      if (text.empty()) continue;
      Json j = json::tooDeepAt(text) ? Json(Json::value_t::discarded) : Json::parse(text, nullptr, false);
      if (j.is_discarded() || !j.is_object() || !j.contains("task") || !j.contains("candidate") ||
          !j.contains("code_hash") || !j.contains("outcome")) {
        std::cerr << part << ":" << lineNo << ": warning: not a kscope batch line; skipped\n";
        code = std::max(code, kExitInputErrors);
        continue;
      }
      ++lines;
      const std::string where = part + ":" + std::to_string(lineNo);
      auto key = std::make_tuple(j.value("task", ""), j.value("candidate", ""), j.value("code_hash", ""));
      auto [it, added] = merged.try_emplace(key, Found{j, where});
      if (!added) {
        ++duplicates;
        const bool later = j.value("recorded_at", "") > it->second.line.value("recorded_at", "");
        std::cerr << "kscope merge: duplicate: " << entryName(j) << " in " << it->second.where << " and " << where
                  << "; keeping " << (later ? where : it->second.where) << " (the later)\n";
        if (later) it->second = Found{j, where};
      }
    }
  }

  std::vector<const Found*> ordered;
  for (const auto& [key, found] : merged) ordered.push_back(&found);
  std::stable_sort(ordered.begin(), ordered.end(), [](const Found* a, const Found* b) {
    return a->line.value("source_line", 0) < b->line.value("source_line", 0);
  });

  std::size_t missing = 0, unknown = 0;
  LoadedInput input;
  if (!o.file.empty()) {
    input = loadInput(o.file);
    if (!input.usable) return kExitFailure;
    std::map<std::tuple<std::string, std::string, std::string>, bool> expected;
    for (const Task& t : input.run.tasks)
      for (const Candidate& c : t.candidates)
        if (c.code) {
          auto key = std::make_tuple(t.key(), c.id, hash::codeHash(*c.code));
          expected[key] = true;
          if (!merged.count(key)) {
            if (++missing <= 20) std::cerr << "kscope merge: missing: " << t.key() << " " << c.id << "\n";
          }
        }
    if (missing > 20) std::cerr << "kscope merge: ... and " << missing - 20 << " more missing\n";
    for (const Found* f : ordered)
      if (!expected.count({f->line.value("task", ""), f->line.value("candidate", ""),
                           f->line.value("code_hash", "")}) &&
          !f->line.contains("repair") && ++unknown <= 20)
        std::cerr << "kscope merge: not in " << o.file << " (edited since it ran?): " << entryName(f->line)
                  << " from " << f->where << "\n";
  }

  // Written beside OUT, then renamed over it: OUT may be one of the parts, and a reader never sees half.
  const std::filesystem::path tmp = o.out + ".merging";
  {
    std::ofstream out(tmp, std::ios::trunc);
    for (const Found* f : ordered) out << f->line.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
    out.flush();
    if (!out) {
      std::cerr << "kscope merge: error: cannot write " << tmp.string() << "\n";
      return kExitFailure;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, o.out, ec);
  if (ec) {
    std::cerr << "kscope merge: error: cannot write " << o.out << ": " << ec.message() << "\n";
    return kExitFailure;
  }

  // The candidate of FILE a merged line measured (same task, id and code hash), or null.
  auto candidateOf = [&](const Json& l) -> Candidate* {
    Task* task = const_cast<Task*>(input.run.findTask(l.value("task", "")));
    if (!task) return nullptr;
    for (Candidate& c : task->candidates)
      if (c.id == l.value("candidate", "") && c.code && hash::codeHash(*c.code) == l.value("code_hash", ""))
        return &c;
    return nullptr;
  };

  std::size_t recorded = 0;
  if (!o.file.empty() && !o.noStore) {
    auto opened =
        store::ResultStore::open(o.store.empty() ? store::defaultStorePath() : std::filesystem::path(o.store));
    if (!opened) {
      std::cerr << "kscope merge: error: " << opened.error << " (--no-store merges without recording)\n";
      return kExitFailure;
    }
    store::ResultStore& db = **opened.value;
    for (const Found* f : ordered) {
      const Json& l = f->line;
      const Task* task = input.run.findTask(l.value("task", ""));
      const Candidate* candidate = candidateOf(l);
      if (!candidate || !l.contains("event")) continue;
      // Recorded once: merging again (more shards finished) does not add the same result twice.
      store::HistoryQuery q{.taskKey = task->key(), .candidateId = candidate->id, .codeHash = l.value("code_hash", "")};
      auto history = db.history(q);
      if (history && std::any_of(history.value->begin(), history.value->end(), [&](const store::StoredResult& r) {
            return r.recordedAt == l.value("recorded_at", "");
          }))
        continue;
      // The line's event, read by the protocol's decoder: only what reads as a verdict is recorded.
      store::StoredResult end = store::fromResultJson(l["event"]);
      if (!end.unreadable.empty()) {
        std::cerr << "kscope merge: not recorded: the event of " << entryName(l) << " from " << f->where
                  << " does not read: " << end.unreadable << "\n";
        code = std::max(code, kExitInputErrors);
        continue;
      }
      store::StoredResult row =
          runs::resultRow(std::move(end),
                          {.sourceFile = o.file,
                           .taskKey = task->key(),
                           .candidateId = candidate->id,
                           .code = *candidate->code,
                           .repair = l.contains("repair") ? store::repairFromJson(l["repair"]) : std::nullopt,
                           .gpu = l.value("gpu", "")},
                          l.value("device", ""), "kscope merge");
      row.recordedAt = l.value("recorded_at", row.recordedAt);
      if (const runs::RecordedResult r = runs::appendResult(db, row); !r.storeError.empty()) {
        std::cerr << "kscope merge: error: " << r.storeError << "\n";
        return kExitFailure;
      }
      ++recorded;
    }
  }

  if (!o.run.empty()) {
    std::size_t added = 0;
    for (const Found* f : ordered) {
      Candidate* candidate = candidateOf(f->line);
      if (!candidate || !f->line.contains("speedup") || !f->line["speedup"].is_number()) continue;
      Measurement m;
      m.speedup = f->line["speedup"].get<double>();
      m.device = f->line.value("device", "");
      m.origin = "measured";
      m.when = f->line.value("recorded_at", "");
      candidate->measurements.push_back(std::move(m));
      ++added;
    }
    std::string why;
    if (!writeRunFile(input.run, o.run, &why)) {
      std::cerr << "kscope merge: error: cannot write " << o.run << ": " << why << "\n";
      return kExitFailure;
    }
    std::cerr << "kscope merge: wrote " << o.run << " (" << o.file << " with " << added
              << " measured speedups added)\n";
  }

  std::cerr << "kscope merge: " << merged.size() << " entries from " << lines << " lines of " << o.parts.size()
            << " parts into " << o.out << "; " << duplicates << " duplicated";
  if (!o.file.empty())
    std::cerr << ", " << missing << " of " << o.file << " missing, " << unknown << " not in it"
              << (o.noStore ? "" : ", " + std::to_string(recorded) + " recorded in the results store");
  std::cerr << "\n";
  if (missing > 0) code = std::max(code, kExitInputErrors);
  return std::max(code, exitCode());
}

}  // namespace

void addMergeCommand(CLI::App& app) {
  auto o = std::make_shared<MergeOptions>();
  CLI::App* command = app.add_subcommand(
      "merge", "Join the --out files of kscope batch shards into one; report missing and duplicated entries");
  command->add_option("out", o->out, "The merged JSON Lines results (replaced)")->required();
  command->add_option("parts", o->parts, "The shards' --out files")->required();
  command->add_option("--file", o->file,
                      "The batch's input: report its candidates that no part has, and record the merged "
                      "results in the results store");
  command
      ->add_option("--run", o->run,
                   "Also write FILE as a run file with the measured speedups added (opens in the GUI)")
      ->needs("--file");
  auto* store = command->add_option("--store", o->store, "Results database (default: docs/store-schema.md)");
  command->add_flag("--no-store", o->noStore, "Do not record the merged results in the database")->excludes(store);
  command->callback([o] { exitCode() = runMerge(*o); });
}

KS_REGISTER_COMMAND(addMergeCommand);

}  // namespace ks::cli
