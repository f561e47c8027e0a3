#pragma once
// Where the time of opening a run goes (to find what stands between a million candidates and the first
// paint). Each stage logs its wall-clock milliseconds and the process's CPU milliseconds over it (every
// thread: the reader parses on all cores) to the logging category "kscope.timing", which is off unless
// enabled (QT_LOGGING_RULES="kscope.timing.debug=true"); bench_gui enables it and prints the stages as the
// first-paint breakdown. On a machine shared with other work the CPU time moves much less than the wall time.
// A disabled timer costs one check.
#include <QElapsedTimer>
#include <QLoggingCategory>
#include <ctime>

namespace ks {

Q_DECLARE_LOGGING_CATEGORY(lcTiming)

class StageTimer {
 public:
  explicit StageTimer(const char* stage) : m_stage(stage) {
    if (!lcTiming().isDebugEnabled()) return;
    m_timer.start();
    m_cpuStart = cpuMs();
  }
  ~StageTimer() {
    if (m_timer.isValid())
      qCDebug(lcTiming, "%s: %.1f ms, cpu %.1f ms", m_stage,
              static_cast<double>(m_timer.nsecsElapsed()) / 1e6, cpuMs() - m_cpuStart);
  }
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;

 private:
  static double cpuMs() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
  }

  const char* m_stage;
  QElapsedTimer m_timer;
  double m_cpuStart = 0;
};

}  // namespace ks
