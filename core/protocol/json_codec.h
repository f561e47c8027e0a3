#pragma once
// JSON encoding and decoding of every protocol message. Encoders write one line (no newline inside, invalid
// UTF-8 replaced); decoders never throw: a problem comes back as a message naming the field
// ("options.seeds: expected an integer >= 1, got string \"5\"").
// Doubles that are not finite (an infinite error, the CV of one trial) are written as null and read back as
// NaN.
#include <optional>
#include <string>
#include <string_view>

#include "core/protocol/evaluate_result.h"
#include "core/protocol/events.h"
#include "core/protocol/request.h"

namespace ks::protocol {

template <class T>
struct Decoded {
  std::optional<T> value;
  std::string error;  // set when !value
};

std::string encodeRequest(const Request& request);
// Requests are read strictly: unknown keys are errors, so a misspelt option is never silently ignored.
Decoded<Request> decodeRequest(std::string_view line);
// The "id" of a request line that may not decode, for echoing on the protocol error; "" when there is none.
std::string requestIdOf(std::string_view line);

std::string encodeEvent(const Event& event);
Json eventJson(const Event& event);  // the object encodeEvent writes
Decoded<Event> decodeEvent(std::string_view line);

// An evaluate request's end event from its typed end: {"id", "event": "result", "ok", "result"} (ok is
// correctness.passed) or {"id", "event": "error", "error"}, as encodeEvent writes it. With
// decodeEvaluateEnd, the codec the results store writes and reads a re-run with (core/store/stored_result.h).
Json endEventJson(const std::string& id, const EvaluateResult& result);
Json endEventJson(const std::string& id, const ErrorInfo& error);
// A runner client's end event, its result decoded as an evaluation.
Decoded<EvaluateEnd> decodeEvaluateEnd(const EndEvent& end);
// An end event's JSON as a client wrote it (the results store, kscope batch lines). Keys beside the event's
// are ignored; a missing "id" reads as "" (kscope batch wrote the error of a request it never sent without
// one).
Decoded<EvaluateEnd> decodeEvaluateEnd(const Json& endEvent);

// Result payloads (ResultEvent::result). Readers ignore keys they do not know.
Json toJson(const Environment& environment);
Json toJson(const EvaluateResult& result);
Json toJson(const BuildResult& result);
Json toJson(const WarmUpResult& result);
Json helloPayload(const Environment& environment);  // {"environment": ...}
Decoded<Environment> decodeEnvironment(const Json& json);
Decoded<EvaluateResult> decodeEvaluateResult(const Json& json);
Decoded<BuildResult> decodeBuildResult(const Json& json);
Decoded<WarmUpResult> decodeWarmUpResult(const Json& json);
Decoded<Environment> decodeHelloPayload(const Json& json);

}  // namespace ks::protocol
