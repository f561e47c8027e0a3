#pragma once
// The run-format reader's fast path for candidate lines (a million-candidate file is a million of them):
// reads the small fields of the line in one pass, without building a JSON document, and passes over the
// program and the analysis without decoding them: it checks that each is a valid JSON string (escapes,
// UTF-8, no control characters) and keeps where it lies in the file (ProgramText), so the text stays on
// disk until it is shown. Accepts only lines it reads exactly as the JSON reader (run_format_reader.cpp)
// would, without any problem or warning; anything else (a task or header line, a mistyped or duplicate key,
// an escaped id, a measurement that warns) it declines, and the JSON reader reads the line and says what is
// wrong with it.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/model/candidate.h"
#include "core/model/shared_string.h"

namespace ks {

struct CandidateScan {
  std::shared_ptr<const TextSource> file;  // where the line's texts are read back from
  SharedStringCache names;                 // measurement names of nearby lines, shared
};

// `line` lies at byte `offset` of the file. True: `taskKey` and `candidate` hold the line's candidate (its
// sourceLine is left to the caller).
bool scanCandidateLine(std::string_view line, std::uint64_t offset, CandidateScan& scan, std::string& taskKey,
                       Candidate& candidate);

}  // namespace ks
