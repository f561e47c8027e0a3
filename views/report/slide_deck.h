#pragma once
// The slides of a talk about an open run (presentation mode): which candidates, in which order.
// Saved next to the run in a sidecar file, `<run file>.slides.json` (docs/formats.md, "Presentation
// sidecar"), so that a talk can be prepared and reopened with the run. A slide names its candidate by task
// key and candidate id, as the CLI does, so that the sidecar survives edits that reorder the file.
#include <QString>
#include <string>
#include <vector>

namespace ks {

class LoadedRun;

struct Slide {
  std::string task;       // Task::key(): "L1/12"
  std::string candidate;  // Candidate::id; empty: the task's first row
  bool operator==(const Slide&) const = default;
};

class SlideDeck {
 public:
  static QString sidecarPath(const QString& runPath);  // "<run>.slides.json"

  // Reads the sidecar of `runPath`; an empty deck when there is none. *error says why a sidecar that exists
  // could not be used (it is then left as it is, never overwritten by an empty deck).
  static SlideDeck load(const QString& runPath, QString* error = nullptr);
  // Writes the sidecar of `runPath` (replacing it); false with *error when it could not.
  bool save(const QString& runPath, QString* error = nullptr) const;

  const std::vector<Slide>& slides() const { return m_slides; }
  bool empty() const { return m_slides.empty(); }
  // Adds a slide at the end unless the deck has it already; true when added.
  bool add(const Slide& slide);
  bool remove(const Slide& slide);
  void clear() { m_slides.clear(); }

  // The LoadedRun rows of the slides, in order; slides whose candidate the run lacks are left out.
  std::vector<int> rows(const LoadedRun& run) const;
  // The slide of row `row` of `run`.
  static Slide slideOf(const LoadedRun& run, int row);

 private:
  std::vector<Slide> m_slides;
};

}  // namespace ks
