#include "views/logic/phase_estimate.h"

#include <QObject>
#include <algorithm>
#include <cmath>

namespace ks {

QString roughDuration(double seconds) {
  const auto s = static_cast<long>(std::lround(std::max(0.0, seconds)));
  if (s < 90) return QObject::tr("%1 s").arg(s);
  if (s < 3600) return QObject::tr("%1 min").arg((s + 30) / 60);
  return QObject::tr("%1 h %2 min").arg(s / 3600).arg((s % 3600 + 30) / 60, 2, 10, QLatin1Char('0'));
}

QString phaseEstimate(double seconds, int doneAtStart, int done, int total) {
  QString text = QStringLiteral("%1/%2").arg(done).arg(total);
  if (!(seconds >= 0) || total <= 0) return text;
  if (seconds >= 5) text += QObject::tr(" · %1 so far").arg(roughDuration(seconds));
  const int stepsTimed = done - doneAtStart;
  if (stepsTimed <= 0 || done >= total) return text;
  const double left = seconds / stepsTimed * (total - done);
  return text + QObject::tr(" · about %1 left").arg(roughDuration(left));
}

double queueSecondsLeft(double meanJobSeconds, const std::vector<double>& inFlightSeconds, int waiting,
                        int runners) {
  if (!(meanJobSeconds >= 0)) return -1;
  std::vector<double> freeAt(static_cast<std::size_t>(std::max({runners, 1, static_cast<int>(inFlightSeconds.size())})), 0.0);
  for (std::size_t i = 0; i < inFlightSeconds.size(); ++i)
    freeAt[i] = std::max(0.0, meanJobSeconds - inFlightSeconds[i]);
  for (int i = 0; i < waiting; ++i) *std::min_element(freeAt.begin(), freeAt.end()) += meanJobSeconds;
  return *std::max_element(freeAt.begin(), freeAt.end());
}

}  // namespace ks
