#pragma once
// Splitting one CSV line (RFC 4180 quoting: "a, b" and "" inside quotes) into trimmed cells. Used by the
// CUDA-L2 speedup tables and good-kernels results.csv; a quoted cell may not span lines.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks {

// The cells of `line` (a trailing '\r' is dropped), each trimmed of spaces and tabs; nullopt when a quote is
// left open.
std::optional<std::vector<std::string>> splitCsvRow(std::string_view line);

// A finite number written in full ("1.837", "2e-3"); nullopt for anything else (empty, "nan", "1.2x").
std::optional<double> parseCsvNumber(std::string_view cell);

}  // namespace ks
