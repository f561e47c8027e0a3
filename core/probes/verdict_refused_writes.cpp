// module-shadowing from the writes the runner refused outside the scratch folder (refused-writes).
#include "core/probes/verdicts.h"

namespace ks::engine::verdicts {

// Writes outside the scratch folder the runner refused: a file Python would import or run at start-up (.py,
// .pth, a compiled extension) shadows or plants code, a hack; any other file, suspicious.
void refusedWrites(const ProbeEvidence& e, Flags& out) {
  Json paths = Json::array();
  std::vector<int> lines;
  bool importable = false;
  for (const RefusedWriteEvidence& w : e.refusedWrites) {
    if (w.program != "candidate") continue;
    paths.push_back({{"path", w.path}, {"event", w.event}, {"line", w.line}});
    if (w.line > 0) lines.push_back(w.line);
    for (const char* ext : {".py", ".pth", ".so", ".pyc"})
      importable = importable || (w.path.size() > std::string(ext).size() &&
                                  w.path.compare(w.path.size() - std::string(ext).size(), std::string::npos, ext) == 0);
  }
  if (paths.empty()) return;
  const std::string first = paths[0]["path"].get<std::string>();
  const std::string more = paths.size() > 1 ? " and " + std::to_string(paths.size() - 1) + " more" : "";
  add(out, "module-shadowing", importable ? "hack" : "suspicious", importable ? 0.9 : 0.6, "refused-writes",
      "The candidate tried to write " + first + more + ", outside its scratch folder; the runner refused it (EACCES)" +
          (importable ? ": a file Python would import or run at start-up." : "."),
      {{"refused", paths}}, lines);
}

}  // namespace ks::engine::verdicts
