#include "core/nvcc/source_files.h"

#include <fstream>

namespace ks::nvcc {

std::string sourceFileName(const std::string& name, const std::string& extension,
                           std::set<std::string>& taken) {
  std::string base;
  for (char c : name) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    char out = keep ? c : '_';
    if (out == '_' && !base.empty() && base.back() == '_') continue;
    base.push_back(out);
  }
  if (base.size() > 48) base.resize(48);  // a `+` concatenation is named by its whole text
  while (!base.empty() && base.back() == '_') base.pop_back();
  if (base.empty()) base = "source";
  std::string file = base + extension;
  for (int n = 2; taken.count(file); ++n) file = base + "_" + std::to_string(n) + extension;
  taken.insert(file);
  return file;
}

std::string writeTextFile(const std::filesystem::path& path, const std::string& text) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) return "cannot create " + path.parent_path().string() + ": " + ec.message();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return "cannot write " + path.string();
  return "";
}

std::string lineOf(const std::string& text, int line) {
  if (line < 1) return "";
  std::size_t begin = 0;
  for (int l = 1; l < line; ++l) {
    begin = text.find('\n', begin);
    if (begin == std::string::npos) return "";
    ++begin;
  }
  std::size_t end = text.find('\n', begin);
  std::string s = text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
  if (!s.empty() && s.back() == '\r') s.pop_back();
  return s;
}

void checkColumns(std::vector<Diagnostic>& diagnostics, const std::map<std::string, std::string>& texts) {
  for (auto& d : diagnostics) {
    if (d.column == 0 || d.excerpt.empty()) continue;
    auto it = texts.find(d.file);
    if (it != texts.end() ? lineOf(it->second, d.line) != d.excerpt : d.tool == "nvcc") d.column = 0;
  }
}

}  // namespace ks::nvcc
