// Events: encodeEvent, decodeEvent (json_codec.h), phase and error-kind names (events.h).
#include <utility>

#include "core/json/json_fields.h"
#include "core/json/nesting.h"
#include "core/protocol/diagnostic_json.h"
#include "core/protocol/json_codec.h"

namespace ks::protocol {

using json::DecodeError;
using json::Fields;

const char* phaseName(Phase phase) {
  switch (phase) {
    case Phase::Load:
      return "load";
    case Phase::Build:
      return "build";
    case Phase::Correctness:
      return "correctness";
    case Phase::Timing:
      return "timing";
    case Phase::Profile:
      return "profile";
    case Phase::Probes:
      return "probes";
    case Phase::SeedMethod:
      return "seed-method";
  }
  return "?";
}

const char* errorKindName(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Protocol:
      return "protocol";
    case ErrorKind::Load:
      return "load";
    case ErrorKind::Build:
      return "build";
    case ErrorKind::Runtime:
      return "runtime";
    case ErrorKind::Timeout:
      return "timeout";
    case ErrorKind::Crash:
      return "crash";
    case ErrorKind::Memory:
      return "memory";
    case ErrorKind::Cancelled:
      return "cancelled";
    case ErrorKind::Tampering:
      return "tampering";
    case ErrorKind::Processes:
      return "processes";
  }
  return "?";
}

namespace {

Phase phaseFrom(const Fields& f) {
  const std::string s = f.str("phase");
  for (Phase p :
       {Phase::Load, Phase::Build, Phase::Correctness, Phase::Probes, Phase::Timing, Phase::Profile, Phase::SeedMethod})
    if (s == phaseName(p)) return p;
  throw DecodeError{f.pathOf("phase") + ": unknown phase \"" + s + "\""};
}

ErrorKind kindFrom(const Fields& f) {
  const std::string s = f.str("kind");
  for (ErrorKind k : {ErrorKind::Protocol, ErrorKind::Load, ErrorKind::Build, ErrorKind::Runtime,
                      ErrorKind::Timeout, ErrorKind::Crash, ErrorKind::Memory, ErrorKind::Cancelled,
                      ErrorKind::Tampering, ErrorKind::Processes})
    if (s == errorKindName(k)) return k;
  throw DecodeError{f.pathOf("kind") + ": unknown error kind \"" + s + "\""};
}

Json errorJson(const ErrorInfo& e) {
  Json j = {{"kind", errorKindName(e.kind)}, {"message", e.message}};
  if (!e.program.empty()) j["program"] = e.program;
  if (e.line) j["line"] = *e.line;
  if (!e.phase.empty()) j["phase"] = e.phase;
  if (!e.traceback.empty()) {
    Json frames = Json::array();
    for (const auto& t : e.traceback) {
      Json fr = {{"file", t.file}, {"line", t.line}, {"function", t.function}, {"text", t.text}};
      if (!t.program.empty()) fr["program"] = t.program;
      frames.push_back(std::move(fr));
    }
    j["traceback"] = std::move(frames);
  }
  if (!e.diagnostics.empty()) j["diagnostics"] = detail::diagnosticsJson(e.diagnostics);
  if (e.runnerExits) j["runner_exits"] = true;
  if (e.signal) j["signal"] = *e.signal;
  if (e.exitStatus) j["exit_status"] = *e.exitStatus;
  if (!e.stderrTail.empty()) j["stderr_tail"] = e.stderrTail;
  return j;
}

ErrorInfo errorFrom(const Fields& f) {
  ErrorInfo e;
  e.kind = kindFrom(f);
  e.message = f.str("message");
  e.program = f.strOr("program", "");
  e.line = f.optInteger("line", 1);
  e.phase = f.strOr("phase", "");
  for (const Fields& t : f.objects("traceback"))
    e.traceback.push_back({t.strOr("file", ""), t.optInteger("line", 0).value_or(0), t.strOr("function", ""),
                           t.strOr("text", ""), t.strOr("program", "")});
  e.diagnostics = detail::diagnosticsFrom(f, "diagnostics");
  e.runnerExits = f.booleanOr("runner_exits", false);
  e.signal = f.optInteger("signal", 0);
  e.exitStatus = f.optInteger("exit_status", 0);
  e.stderrTail = f.strOr("stderr_tail", "");
  return e;
}

struct Encoder {
  Json operator()(const ReadyEvent& e) const {
    return {{"event", "ready"}, {"protocol", e.protocol}, {"runner", e.runner}, {"pid", e.pid}};
  }
  Json operator()(const PhaseEvent& e) const {
    return {{"id", e.id}, {"event", "phase"}, {"phase", phaseName(e.phase)}, {"deadline_s", e.deadlineS}};
  }
  Json operator()(const ProgressEvent& e) const {
    return {{"id", e.id},
            {"event", "progress"},
            {"phase", phaseName(e.phase)},
            {"done", e.done},
            {"total", e.total}};
  }
  Json operator()(const BuildEvent& e) const {
    Json j{{"id", e.id},         {"event", "build"},       {"program", e.program}, {"module", e.module},
           {"ok", e.ok},         {"cache_hit", e.cacheHit}, {"seconds", e.seconds}};
    if (!e.cause.empty()) j["cause"] = e.cause;
    return j;
  }
  Json operator()(const ResultEvent& e) const {
    return {{"id", e.id}, {"event", "result"}, {"ok", e.ok}, {"result", e.result}};
  }
  Json operator()(const ErrorEvent& e) const {
    return {{"id", e.id}, {"event", "error"}, {"error", errorJson(e.error)}};
  }
};

Event eventFrom(const Fields& f) {
  const std::string kind = f.str("event");
  if (kind == "ready") return ReadyEvent{f.integer("protocol", 0), f.strOr("runner", ""), f.int64("pid", 0)};
  if (kind == "phase") return PhaseEvent{f.str("id"), phaseFrom(f), f.number("deadline_s")};
  if (kind == "progress")
    return ProgressEvent{f.str("id"), phaseFrom(f), f.integer("done", 0), f.integer("total", 0)};
  if (kind == "build")
    return BuildEvent{f.str("id"),          f.strOr("program", ""),          f.strOr("module", ""),
                      f.boolean("ok"),      f.booleanOr("cache_hit", false), f.numberOr("seconds", 0),
                      f.strOr("cause", "")};
  if (kind == "result") {
    const Json& payload = f.raw("result");
    if (!payload.is_object()) throw DecodeError{"result: expected an object"};
    return ResultEvent{f.str("id"), f.boolean("ok"), payload};
  }
  if (kind == "error") return ErrorEvent{f.str("id"), errorFrom(f.object("error"))};
  throw DecodeError{"event: unknown event \"" + kind + "\""};
}

}  // namespace

std::string encodeEvent(const Event& event) {
  return eventJson(event).dump(-1, ' ', false, Json::error_handler_t::replace);
}

Json eventJson(const Event& event) { return std::visit(Encoder{}, event); }

Json endEventJson(const std::string& id, const EvaluateResult& result) {
  Json j = {{"id", id}, {"event", "result"}, {"ok", result.correctness.passed}};  // Encoder's order
  j["result"] = toJson(result);
  return j;
}

Json endEventJson(const std::string& id, const ErrorInfo& error) {
  return {{"id", id}, {"event", "error"}, {"error", errorJson(error)}};
}

Decoded<EvaluateEnd> decodeEvaluateEnd(const EndEvent& end) {
  if (const auto* error = std::get_if<ErrorEvent>(&end)) return {EvaluateEnd{error->id, error->error}, {}};
  const ResultEvent& result = std::get<ResultEvent>(end);
  Decoded<EvaluateResult> evaluation = decodeEvaluateResult(result.result);
  if (!evaluation.value) return {std::nullopt, std::move(evaluation.error)};
  return {EvaluateEnd{result.id, std::move(*evaluation.value)}, {}};
}

Decoded<EvaluateEnd> decodeEvaluateEnd(const Json& endEvent) {
  if (!endEvent.is_object()) return {std::nullopt, "the end event is not a JSON object"};
  try {
    const Fields f(endEvent, "");
    const std::string kind = f.str("event");
    const std::string id = f.strOr("id", "");
    if (kind == "error") return {EvaluateEnd{id, errorFrom(f.object("error"))}, {}};
    if (kind != "result")
      return {std::nullopt, "the end event is neither a result nor an error: \"" + kind + "\""};
    (void)f.boolean("ok");  // required, as in every result event
    Decoded<EvaluateResult> evaluation = decodeEvaluateResult(f.raw("result"));
    if (!evaluation.value) return {std::nullopt, std::move(evaluation.error)};
    return {EvaluateEnd{id, std::move(*evaluation.value)}, {}};
  } catch (const DecodeError& e) {
    return {std::nullopt, e.message};
  }
}

Decoded<Event> decodeEvent(std::string_view line) {
  if (std::string deep = json::nestingError(line); !deep.empty()) return {std::nullopt, "JSON " + deep};
  Json j = Json::parse(line, nullptr, false);
  if (j.is_discarded()) return {std::nullopt, "not valid JSON: " + std::string(line.substr(0, 200))};
  try {
    return {eventFrom(Fields(j, "")), {}};
  } catch (const DecodeError& e) {
    return {std::nullopt, e.message};
  }
}

}  // namespace ks::protocol
