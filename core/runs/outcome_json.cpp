#include "core/runs/outcome_json.h"

#include "core/protocol/json_codec.h"

namespace ks::runs {

nlohmann::ordered_json endEventJson(const protocol::EndEvent& end) {
  return std::visit([](const auto& event) { return protocol::eventJson(protocol::Event{event}); }, end);
}

}  // namespace ks::runs
