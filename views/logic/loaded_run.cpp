#include "views/logic/loaded_run.h"

#include <QtConcurrent/QtConcurrentMap>
#include <algorithm>
#include <exception>

#include "core/flags/flag_counts.h"
#include "core/flags/static_rules.h"

namespace ks {
namespace {

std::vector<LoadedRun::Row> flatten(const RunFile& run) {
  std::vector<LoadedRun::Row> rows;
  rows.reserve(run.candidateCount() + run.tasks.size());
  for (std::size_t t = 0; t < run.tasks.size(); ++t) {
    const auto& candidates = run.tasks[t].candidates;
    if (candidates.empty()) rows.push_back({static_cast<int>(t), -1});
    for (std::size_t c = 0; c < candidates.size(); ++c)
      rows.push_back({static_cast<int>(t), static_cast<int>(c)});
  }
  return rows;
}

std::uint64_t nextRead() {
  static std::atomic<std::uint64_t> reads{0};
  return ++reads;
}

}  // namespace

LoadedRun::LoadedRun(std::shared_ptr<const File> file, std::uint64_t read)
    : m_file(std::move(file)), m_read(read), m_flags(m_file->rows.size()) {}

LoadedRun::LoadedRun(RunFile run) : m_read(nextRead()) {
  auto file = std::make_shared<File>();
  file->run = std::move(run);
  file->rows = flatten(file->run);
  file->series = recordedSeries(file->run);
  for (const Row& r : file->rows) {
    if (r.candidate < 0) continue;
    const Candidate& c =
        file->run.tasks[static_cast<std::size_t>(r.task)].candidates[static_cast<std::size_t>(r.candidate)];
    if (c.code) ++file->rowsWithCode;
  }
  m_flags.resize(file->rows.size());
  m_file = std::move(file);
}

LoadedRun::LoadedRun(RunFile run, std::vector<std::vector<Flag>> flags) : LoadedRun(std::move(run)) {
  applyFlags(std::move(flags));
}

std::optional<LoadedRun::FlagCheck> LoadedRun::checkFlags(QThreadPool* pool,
                                                          const std::function<void(double)>& progress,
                                                          const std::atomic<bool>* cancel) const {
  std::vector<int> withCode;
  for (int r = 0; r < rowCount(); ++r)
    if (const Candidate* c = candidate(r); c && c->code) withCode.push_back(r);

  FlagCheck check;
  check.flags.resize(m_file->rows.size());
  std::vector<std::string> failures(m_file->rows.size());
  std::atomic<std::size_t> done{0};
  const double total = static_cast<double>(std::max<std::size_t>(withCode.size(), 1));
  QtConcurrent::blockingMap(pool, withCode, [&](int r) {
    if (cancel && cancel->load()) return;
    try {
      check.flags[static_cast<std::size_t>(r)] = checkStatic(task(r).referenceCode, *candidate(r)->code);
    } catch (const std::exception& e) {
      failures[static_cast<std::size_t>(r)] = e.what();
    }
    const std::size_t n = ++done;
    if (progress && (n % 64 == 0 || n == withCode.size())) progress(static_cast<double>(n) / total);
  });
  if (cancel && cancel->load()) return std::nullopt;

  for (int r : withCode) {
    const std::string& failure = failures[static_cast<std::size_t>(r)];
    if (failure.empty()) continue;
    const Candidate& c = *candidate(r);
    check.issues.push_back(
        {run().path, c.sourceLine,
         "static checks failed on " + task(r).key() + " candidate " + c.id + ": " + failure,
         LoadIssue::Severity::Warning});
  }
  return check;
}

std::shared_ptr<const LoadedRun> LoadedRun::withFlags(FlagCheck check) const {
  std::shared_ptr<const File> file = m_file;
  if (!check.issues.empty()) {  // rare: a check threw; only then is the file's data copied
    auto withIssues = std::make_shared<File>(*m_file);
    withIssues->run.issues.insert(withIssues->run.issues.end(), check.issues.begin(), check.issues.end());
    file = std::move(withIssues);
  }
  std::shared_ptr<LoadedRun> flagged(new LoadedRun(std::move(file), m_read));
  flagged->applyFlags(std::move(check.flags));
  return flagged;
}

void LoadedRun::applyFlags(std::vector<std::vector<Flag>> flags) {
  m_flags = std::move(flags);
  m_flags.resize(m_file->rows.size());
  m_rowsFlagged = static_cast<int>(
      std::count_if(m_flags.begin(), m_flags.end(), [](const auto& flags) { return isFlagged(flags); }));
  m_flagsChecked = true;
}

const Task& LoadedRun::task(int row) const {
  return run().tasks[static_cast<std::size_t>(this->row(row).task)];
}

const Candidate* LoadedRun::candidate(int row) const {
  const Row& r = this->row(row);
  return r.candidate < 0 ? nullptr
                         : &run()
                                .tasks[static_cast<std::size_t>(r.task)]
                                .candidates[static_cast<std::size_t>(r.candidate)];
}

int LoadedRun::seriesIndex(const SpeedupSeries& s) const {
  const auto it = std::find(m_file->series.begin(), m_file->series.end(), s);
  return it == m_file->series.end() ? -1 : static_cast<int>(it - m_file->series.begin());
}

int LoadedRun::findRow(const std::string& taskKey, const std::string& candidateId) const {
  for (int r = 0; r < rowCount(); ++r) {
    if (task(r).key() != taskKey) continue;
    const Candidate* c = candidate(r);
    if (candidateId.empty() || (c && c->id == candidateId)) return r;
  }
  return -1;
}

}  // namespace ks
