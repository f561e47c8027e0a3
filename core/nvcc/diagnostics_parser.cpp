#include "core/nvcc/diagnostics_parser.h"

#include <regex>
#include <sstream>

#include "core/model/text_trim.h"
#include "core/nvcc/demangle.h"

namespace ks::nvcc {
namespace {

// file.cu(12): error: …   file.cu(12): warning #177-D: …
const std::regex kFrontEnd(R"(^(\S.*?)\((\d+)\): )"
                           R"((catastrophic error|internal error|error|warning|remark|note)(?: #[\w-]+)?: (.*)$)");
// file.cpp:12:5: error: …   (column optional)
const std::regex kHost(R"(^(\S.*?):(\d+):(?:(\d+):)? (fatal error|error|warning|note): (.*)$)");
const std::regex kPtxas(R"(^ptxas (error|warning|fatal)\s*: (.*)$)");
const std::regex kDriver(R"(^nvcc (error|warning|fatal)\s*: (.*)$)");
const std::regex kLinker(R"(^(?:\S*/)?ld(?:\.\w+)?: (.*)$)");
const std::regex kCaret(R"(^\s*\^\s*$)");
const std::regex kHostExcerpt(R"(^\s*(\d*) \| (.*)$)");

Severity severityOf(const std::string& word) {
  if (word == "warning") return Severity::Warning;
  if (word == "note") return Severity::Note;
  if (word == "remark") return Severity::Remark;
  return Severity::Error;  // error, fatal, fatal error, catastrophic error, internal error
}

bool isHeader(const std::string& line) {
  return std::regex_match(line, kFrontEnd) || std::regex_match(line, kHost) ||
         std::regex_match(line, kPtxas) || std::regex_match(line, kDriver) || std::regex_match(line, kLinker);
}

}  // namespace

std::vector<Diagnostic> parseDiagnostics(const std::string& compilerOutput) {
  std::vector<std::string> lines;
  {
    std::istringstream in(compilerOutput);
    for (std::string l; std::getline(in, l);) {
      if (!l.empty() && l.back() == '\r') l.pop_back();
      lines.push_back(l);
    }
  }
  std::vector<Diagnostic> out;
  std::smatch m;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (std::regex_match(line, m, kFrontEnd)) {
      Diagnostic d;
      d.tool = "nvcc";
      d.file = m[1];
      d.line = std::stoi(m[2]);
      d.severity = severityOf(m[3]);
      d.message = m[4];
      // Continuation: indented lines up to a blank line or the next message. A line followed by a caret
      // line is the quoted source; the caret's position gives the column (the quote is indented by 2).
      for (std::size_t j = i + 1; j < lines.size() && !trimmed(lines[j]).empty() && !isHeader(lines[j]);
           ++j) {
        if (j + 1 < lines.size() && std::regex_match(lines[j + 1], kCaret)) {
          d.excerpt = lines[j].size() >= 2 ? lines[j].substr(2) : lines[j];
          auto caret = lines[j + 1].find('^');
          d.column = caret >= 2 ? int(caret) - 1 : 0;
          i = ++j;
          continue;
        }
        d.message += "\n";
        d.message += trimmed(lines[j]);
        i = j;
      }
      out.push_back(std::move(d));
    } else if (std::regex_match(line, m, kHost)) {
      Diagnostic d;
      d.tool = "host";
      d.file = m[1];
      d.line = std::stoi(m[2]);
      d.column = m[3].matched ? std::stoi(m[3]) : 0;
      d.severity = severityOf(m[4]);
      d.message = m[5];
      std::smatch e;
      for (std::size_t j = i + 1; j < lines.size() && std::regex_match(lines[j], e, kHostExcerpt); ++j) {
        if (e[1].length() > 0 && d.excerpt.empty()) d.excerpt = e[2];
        i = j;
      }
      out.push_back(std::move(d));
    } else if (std::regex_match(line, m, kPtxas)) {
      out.push_back({.severity = severityOf(m[1]), .message = demangleQuoted(m[2]), .tool = "ptxas"});
    } else if (std::regex_match(line, m, kDriver)) {
      out.push_back({.severity = severityOf(m[1]), .message = m[2], .tool = "nvcc-driver"});
    } else if (std::regex_match(line, m, kLinker)) {
      std::string msg = m[1];
      bool warning = msg.rfind("warning: ", 0) == 0;
      out.push_back({.severity = warning ? Severity::Warning : Severity::Error,
                     .message = warning ? msg.substr(9) : msg,
                     .tool = "linker"});
    }
  }
  return out;
}

}  // namespace ks::nvcc
