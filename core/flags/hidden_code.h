#pragma once
// Code a program hides from a reader (docs/hacks.md, hidden-code): exec/eval/compile of strings, payloads
// decoded at run time (base64, hex, codecs, zlib, marshal, pickle), __import__ / importlib.import_module of
// computed names, and `##` token pasting in embedded C++/CUDA that spells a stream, event or graph API.
// Where the hidden Python can be decoded here (a literal handed to exec, base64 / hex / rot13 of a literal),
// the decoded text is returned too, so the static rules can read it (static_rules.cpp).
#include <string>
#include <vector>

#include "core/pysource/embedded_sources.h"
#include "core/pysource/py_module.h"

namespace ks {

struct HiddenCode {
  std::string what;  // "exec of a computed string", "base64.b64decode payload", ...
  int line = 0;      // 1-based line of the candidate
  bool runsCode = false;  // executes code or pastes an API name (hack) rather than only decoding (suspicious)
};

struct DecodedPayload {
  std::string text;  // Python source, dedented
  int line = 0;      // the line it was decoded from
};

struct HiddenCodeFindings {
  std::vector<HiddenCode> found;
  std::vector<DecodedPayload> decoded;
};

HiddenCodeFindings findHiddenCode(const py::PyModule& m, const EmbeddedExtraction& embedded);

// Pure helpers, exposed for tests: base64 (standard and URL-safe alphabets, padding optional) and hex
// decoding; nullopt-like empty result with ok=false when the text is not such an encoding.
bool decodeBase64(const std::string& in, std::string& out);
bool decodeHex(const std::string& in, std::string& out);
// Identifiers produced by `##` pasting in a C++ source (macro bodies and invocations of pasting macros).
std::vector<std::pair<std::string, int>> pastedIdentifiers(const std::string& source);  // {identifier, line}

}  // namespace ks
