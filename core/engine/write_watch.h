#pragma once
// Writes outside the request's folders, seen from inside Python: an audit hook
// (sys.addaudithook, which a program cannot remove) sees every open for writing, rename, removal, mkdir and
// link a program's code makes. One whose target is outside the writable folders (the request's scratch and
// the build cache, the temporary folder, KSCOPE_WRITABLE, /dev and /proc of this process) is refused with
// EACCES, as Landlock refuses it in the contained runner (docs/security.md), and remembered with the path and
// the program's line, so the attempt becomes evidence (module-shadowing) rather than a silent failure.
// Only operations with a frame of a program on the stack count: torch and the runner write where they write.
#include <filesystem>
#include <string>
#include <vector>

#include "core/engine/python_error.h"

namespace ks::engine {

struct WriteAttempt {
  std::string path;   // absolute
  std::string event;  // the audit event: "open", "os.rename", ...
  std::string program;  // "candidate" | "reference"
  int line = 0;
};

class WriteWatch {
 public:
  // Installs the hook once per interpreter and starts watching for `programs` (their files need not exist
  // yet: writes at import count).
  WriteWatch(const std::vector<std::filesystem::path>& writable, const std::vector<ProgramFile>& programs);
  ~WriteWatch();  // stops watching
  WriteWatch(const WriteWatch&) = delete;
  WriteWatch& operator=(const WriteWatch&) = delete;

  std::vector<WriteAttempt> attempts() const;  // refused so far, in order
};

}  // namespace ks::engine
