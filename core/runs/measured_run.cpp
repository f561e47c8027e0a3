#include "core/runs/measured_run.h"

#include "core/protocol/json_codec.h"

namespace ks::runs {

MeasuredRun readMeasuredRun(store::StoredResult row) {
  MeasuredRun run;
  nlohmann::ordered_json event = std::move(row.result);
  row.result = nullptr;
  run.row = std::move(row);
  if (!event.is_object()) {
    run.unreadable = "the stored event is not a JSON object";
    return run;
  }
  if (auto repair = event.find("repair"); repair != event.end() && repair->is_object()) {
    run.repair = std::move(*repair);
    event.erase("repair");
  }
  if (auto gpu = event.find("gpu"); gpu != event.end()) {
    if (gpu->is_string()) run.gpu = gpu->get<std::string>();
    event.erase("gpu");
  }
  // kscope batch stores the build errors of its compile-only prebuild without a request id.
  if (!event.contains("id")) event["id"] = "";
  auto decoded =
      protocol::decodeEvent(event.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
  if (!decoded.value) {
    run.unreadable = decoded.error;
    return run;
  }
  if (const auto* error = std::get_if<protocol::ErrorEvent>(&*decoded.value)) {
    run.error = error->error;
  } else if (const auto* result = std::get_if<protocol::ResultEvent>(&*decoded.value)) {
    auto evaluation = protocol::decodeEvaluateResult(result->result);
    if (evaluation.value)
      run.result = std::move(evaluation.value);
    else
      run.unreadable = evaluation.error;
  } else {
    run.unreadable = "the stored event is neither a result nor an error";
  }
  return run;
}

MeasuredRun measuredRun(store::StoredResult row,
                        const std::variant<protocol::ResultEvent, protocol::ErrorEvent>& end) {
  MeasuredRun run;
  if (row.result.is_object()) {
    if (auto repair = row.result.find("repair"); repair != row.result.end() && repair->is_object())
      run.repair = std::move(*repair);
    if (auto gpu = row.result.find("gpu"); gpu != row.result.end() && gpu->is_string())
      run.gpu = gpu->get<std::string>();
  }
  row.result = nullptr;
  run.row = std::move(row);
  if (const auto* error = std::get_if<protocol::ErrorEvent>(&end)) {
    run.error = error->error;
    return run;
  }
  auto evaluation = protocol::decodeEvaluateResult(std::get<protocol::ResultEvent>(end).result);
  if (evaluation.value)
    run.result = std::move(evaluation.value);
  else
    run.unreadable = evaluation.error;
  return run;
}

}  // namespace ks::runs
