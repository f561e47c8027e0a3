#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <system_error>

#include "core/formats/run_format.h"
#include "core/json/json_fields.h"

namespace ks {
namespace {

const char* languageName(CodeLanguage language) { return language == CodeLanguage::Cuda ? "cuda" : "python"; }

void putNumber(Json& object, const char* key, const std::optional<double>& value) {
  if (value && std::isfinite(*value)) object[key] = *value;  // JSON has no NaN or infinity
}

Json measurementJson(const Measurement& m) {
  Json j = Json::object();
  j["baseline"] = m.baseline.str();
  putNumber(j, "speedup", m.speedup);
  putNumber(j, "baseline_ms", m.baselineMs);
  putNumber(j, "candidate_ms", m.candidateMs);
  if (!m.device.empty()) j["device"] = m.device.str();
  j["origin"] = m.origin.str();
  if (!m.when.empty()) j["when"] = m.when.str();
  if (!m.mode.empty()) j["mode"] = m.mode.str();
  if (!m.outcome.empty()) j["outcome"] = m.outcome.str();
  if (!m.error.empty()) j["error"] = m.error.str();
  return j;
}

Json taskJson(const Task& task) {
  Json j = Json::object();
  j["type"] = "task";
  j["level"] = task.level;
  j["number"] = task.number;
  if (!task.id.empty()) j["id"] = task.id;
  if (!task.name.empty()) j["name"] = task.name;
  j["reference"] = Json{{"language", languageName(task.referenceLanguage)}, {"code", task.referenceCode}};
  if (!task.referenceDescription.empty()) j["reference"]["description"] = task.referenceDescription;
  if (!task.note.empty()) j["note"] = task.note;
  if (!task.baselinePrograms.empty()) {
    Json baselines = Json::object();
    for (const auto& [name, program] : task.baselinePrograms) baselines[name] = program;
    j["baselines"] = std::move(baselines);
  }
  return j;
}

Json candidateJson(const std::string& taskKey, const Candidate& c) {
  Json j = Json::object();
  j["type"] = "candidate";
  j["task"] = taskKey;
  j["id"] = c.id;
  if (!c.parents.empty()) j["parents"] = c.parents;
  if (c.step) j["step"] = *c.step;
  j["language"] = languageName(c.language);
  j["code"] = c.code ? Json(*c.code) : Json(nullptr);
  if (!c.analysis.empty()) j["analysis"] = c.analysis.value();
  if (!c.measurements.empty()) {
    Json measurements = Json::array();
    for (const Measurement& m : c.measurements) measurements.push_back(measurementJson(m));
    j["measurements"] = std::move(measurements);
  }
  return j;
}

void writeLine(std::ostream& out, const Json& j) {
  // Invalid UTF-8 cannot come from the readers (they check it); a string built elsewhere gets U+FFFD.
  out << j.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n';
}

}  // namespace

void writeRunFile(const RunFile& run, std::ostream& out) {
  Json header = Json::object();
  header["kscope_run"] = kRunFormatVersion;
  if (!run.title.empty()) header["title"] = run.title;
  if (!run.description.empty()) header["description"] = run.description;
  header["generator"] = "kscope " KS_VERSION;
  writeLine(out, header);
  for (const Task& task : run.tasks) {
    writeLine(out, taskJson(task));
    const std::string key = task.key();
    for (const Candidate& c : task.candidates) writeLine(out, candidateJson(key, c));
  }
}

bool writeRunFile(const RunFile& run, const std::filesystem::path& path, std::string* error) {
  // Written next to the target and renamed over it, so a failed write never leaves half a file.
  std::filesystem::path temporary = path;
  temporary += ".partial";
  auto fail = [&](const std::string& message) {
    if (error) *error = "cannot write " + path.string() + ": " + message;
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    return false;
  };
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return fail(std::strerror(errno));
    writeRunFile(run, out);
    out.flush();
    if (!out) return fail(std::strerror(errno));
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) return fail(ec.message());
  return true;
}

}  // namespace ks
