#include "core/supervisor/phase_times.h"

#include <algorithm>
#include <variant>

namespace ks::supervisor {

PhaseTimes::PhaseTimes(Clock::time_point start) : start_(start), since_(start) {}

void PhaseTimes::add(const std::string& phase, double s) {
  auto it = std::find_if(seconds_.begin(), seconds_.end(), [&](const auto& p) { return p.first == phase; });
  if (it == seconds_.end())
    seconds_.emplace_back(phase, s);
  else
    it->second += s;
}

void PhaseTimes::observe(const protocol::Event& event, Clock::time_point at) {
  const auto* phase = std::get_if<protocol::PhaseEvent>(&event);
  if (!phase) return;
  add(current_, std::chrono::duration<double>(at - since_).count());
  current_ = protocol::phaseName(phase->phase);
  since_ = at;
}

nlohmann::ordered_json PhaseTimes::finish(Clock::time_point end) const {
  PhaseTimes closed = *this;
  closed.add(current_, std::chrono::duration<double>(end - since_).count());
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& [phase, s] : closed.seconds_) out[phase] = s;
  out["total"] = std::chrono::duration<double>(end - start_).count();
  return out;
}

}  // namespace ks::supervisor
