#include "core/formats/csv_row.h"

#include <charconv>
#include <cmath>
#include <system_error>

#include "core/model/text_trim.h"

namespace ks {

std::optional<std::vector<std::string>> splitCsvRow(std::string_view line) {
  if (line.ends_with('\r')) line.remove_suffix(1);
  std::vector<std::string> cells;
  std::string cell;
  bool quoted = false, wasQuoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cell += c;
      }
    } else if (c == '"' && cell.find_first_not_of(" \t") == std::string::npos) {
      quoted = wasQuoted = true;
      cell.clear();
    } else if (c == ',') {
      cells.push_back(wasQuoted ? cell : std::string(trimmed(cell, " \t")));
      cell.clear();
      wasQuoted = false;
    } else if (!wasQuoted || (c != ' ' && c != '\t')) {
      cell += c;
    }
  }
  if (quoted) return std::nullopt;
  cells.push_back(wasQuoted ? cell : std::string(trimmed(cell, " \t")));
  return cells;
}

std::optional<double> parseCsvNumber(std::string_view cell) {
  double value = 0;
  const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), value);
  if (cell.empty() || ec != std::errc() || end != cell.data() + cell.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

}  // namespace ks
