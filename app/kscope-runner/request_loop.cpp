#include "app/kscope-runner/request_loop.h"

#include <cstdio>

#include "app/kscope-runner/executor_link.h"
#include "core/protocol/json_codec.h"
#include "core/sandbox/descendants.h"

namespace ks::runner {
namespace {

using protocol::ErrorEvent;
using protocol::ResultEvent;

class RequestSink final : public engine::EventSink {
 public:
  RequestSink(ProtocolChannel& channel, std::string id) : channel_(channel), id_(std::move(id)) {}
  void phase(protocol::Phase phase, double deadlineS) override {
    channel_.write(protocol::PhaseEvent{id_, phase, deadlineS});
  }
  void progress(protocol::Phase phase, int done, int total) override {
    channel_.write(protocol::ProgressEvent{id_, phase, done, total});
  }
  void built(const protocol::ExtensionBuild& b) override {
    channel_.write(protocol::BuildEvent{id_, b.program, b.name, b.ok, b.cacheHit, b.seconds, b.cause});
  }

 private:
  ProtocolChannel& channel_;
  std::string id_;
};

// No process a request's programs started outlives the request (docs/security.md): after its answer.
void endLeftoverProcesses(const std::string& id) {
  const sandbox::KillReport report = sandbox::killDescendants();
  if (report.killed > 0)
    std::fprintf(stderr, "kscope-runner: killed %d process(es) request %s left running\n", report.killed,
                 id.c_str());
  for (pid_t pid : report.alive)
    std::fprintf(stderr, "kscope-runner: process %d of request %s survived SIGKILL\n", int(pid), id.c_str());
}

template <class T, class Payload>
void answer(ProtocolChannel& channel, const std::string& id, const engine::Outcome<T>& outcome,
            Payload payload) {
  if (const auto* error = engine::failed(outcome)) {
    channel.write(ErrorEvent{id, *error});
    return;
  }
  const auto [ok, json] = payload(std::get<T>(outcome));
  channel.write(ResultEvent{id, ok, json});
}

}  // namespace

int serveRequests(ProtocolChannel& channel, engine::Engine& engine) {
  while (std::optional<std::string> line = channel.readLine()) {
    if (line->find_first_not_of(" \t\r") == std::string::npos) continue;
    if (const auto token = syncRequestToken(*line)) {  // the judge asks: is the last request over? (yes)
      channel.writeLine(syncReplyLine(*token));
      continue;
    }
    protocol::Decoded<protocol::Request> decoded = protocol::decodeRequest(*line);
    if (!decoded.value) {
      protocol::ErrorInfo e;
      e.kind = protocol::ErrorKind::Protocol;
      e.message = decoded.error;
      channel.write(ErrorEvent{protocol::requestIdOf(*line), e});
      continue;
    }
    const protocol::Request& request = *decoded.value;
    RequestSink sink(channel, request.id);
    switch (request.op) {
      case protocol::Op::Hello:
        answer(channel, request.id, engine.hello(), [](const protocol::Environment& e) {
          return std::pair{true, protocol::helloPayload(e)};
        });
        break;
      case protocol::Op::Evaluate:
        answer(channel, request.id, engine.evaluate(request, sink), [](const protocol::EvaluateResult& r) {
          return std::pair{r.correctness.passed, protocol::toJson(r)};
        });
        break;
      case protocol::Op::Build:
        answer(channel, request.id, engine.build(request, sink), [](const protocol::BuildResult& r) {
          return std::pair{true, protocol::toJson(r)};
        });
        break;
      case protocol::Op::WarmUp:
        answer(channel, request.id, engine.warmUp(request), [](const protocol::WarmUpResult& r) {
          return std::pair{true, protocol::toJson(r)};
        });
        break;
      case protocol::Op::Shutdown:
        channel.write(ResultEvent{request.id, true, protocol::Json::object()});
        return 0;
    }
    endLeftoverProcesses(request.id);
    if (engine.deviceLost()) return kExitDeviceLost;
  }
  return 0;
}

}  // namespace ks::runner
