#pragma once
// Streams a text file as blocks of whole lines, for the JSONL readers: memory stays at a few tens of MiB
// whatever the file size, and each block can be parsed in parallel.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string_view>

#include "core/formats/issue_list.h"
#include "core/formats/load.h"

namespace ks {

struct TextLine {
  std::string_view text;            // without the line break ("\n" or "\r\n")
  int number = 0;                   // 1-based line number in the file
  bool lastWithoutNewline = false;  // the file ends inside this line (it may have been cut short)
  std::uint64_t offset = 0;         // byte offset of the line's first byte in the file
};

struct LineStreamResult {
  bool opened = false;            // the path was a readable, non-binary file
  std::size_t nonBlankLines = 0;  // lines handed to onBlock
};

// Calls `onBlock` with the non-blank lines of each block, in file order; the views are valid during the
// call only. `onBlock` returns false to stop reading. Reports to `issues` (and then stops, or skips):
// a missing or unreadable path, a folder, a binary file (a NUL byte or invalid UTF-8 near the start: one
// issue, nothing read), a line longer than options.maxLineBytes (skipped), a read error, cancellation
// through options.cancel. Calls options.progress after each block.
LineStreamResult streamLines(const std::filesystem::path& path, const LoadOptions& options, IssueList& issues,
                             const std::function<bool(std::span<const TextLine>)>& onBlock);

// The same, reading the already open file `fd` from its start (it is not closed; `path` names it in issues).
LineStreamResult streamLines(int fd, const std::filesystem::path& path, const LoadOptions& options,
                             IssueList& issues,
                             const std::function<bool(std::span<const TextLine>)>& onBlock);

// "No such file or folder", "Permission denied", "is a folder; expected a file", ... for a path that
// cannot be opened as a file; empty when it can.
std::string fileOpenProblem(const std::filesystem::path& path);

}  // namespace ks
