#pragma once
// Shared steps of the build recipes: file names for sources, writing them, and relating the compiler's
// diagnostics back to the text that was compiled.
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/nvcc/diagnostic.h"

namespace ks::nvcc {

// A file name from a free-form source name: [A-Za-z0-9_] kept, the rest '_', unique among `taken`.
std::string sourceFileName(const std::string& name, const std::string& extension,
                           std::set<std::string>& taken);

// Writes `text` to `path` (creating folders); returns "" or why not.
std::string writeTextFile(const std::filesystem::path& path, const std::string& text);

// The 1-based line `line` of `text`, without its newline; empty when out of range.
std::string lineOf(const std::string& text, int line);

// Keeps a diagnostic's column only where it can be trusted: for files in `texts`, where the line the
// compiler quoted is that file's line (nvcc quotes its own rewrite of some lines, e.g. __global__ as
// __attribute__((global)), so its caret can be off); elsewhere, for host compiler messages only.
void checkColumns(std::vector<Diagnostic>& diagnostics, const std::map<std::string, std::string>& texts);

}  // namespace ks::nvcc
