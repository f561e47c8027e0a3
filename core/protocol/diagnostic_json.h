#pragma once
// Compiler diagnostics to and from JSON; shared by the result codec (builds) and the event codec (errors).
#include <string_view>
#include <vector>

#include "core/json/json_fields.h"
#include "core/protocol/events.h"

namespace ks::protocol::detail {

using json::Fields;

Json diagnosticJson(const Diagnostic& d);
Json diagnosticsJson(const std::vector<Diagnostic>& diagnostics);
Diagnostic diagnosticFrom(const Fields& f);
std::vector<Diagnostic> diagnosticsFrom(const Fields& f, std::string_view key);  // absent: empty

}  // namespace ks::protocol::detail
