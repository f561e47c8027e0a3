#include "views/logic/recorded_headline.h"

#include <QObject>
#include <QStringList>
#include <algorithm>

#include "views/logic/measured_format.h"
#include "views/logic/speedup_format.h"
#include "views/logic/speedup_trust.h"

namespace ks {

QString seriesListText(const std::vector<SpeedupSeries>& series) {
  std::vector<std::string> baselines;
  std::vector<std::vector<std::string>> modes;  // per baseline, in order
  for (const SpeedupSeries& s : series) {
    const auto it = std::find(baselines.begin(), baselines.end(), s.baseline);
    if (it == baselines.end()) {
      baselines.push_back(s.baseline);
      modes.push_back({s.mode});
    } else {
      modes[static_cast<std::size_t>(it - baselines.begin())].push_back(s.mode);
    }
  }
  const bool sameModes =
      std::all_of(modes.begin(), modes.end(), [&](const auto& m) { return m == modes[0]; });
  QStringList names;
  if (sameModes && !modes.empty() && !(modes[0].size() == 1 && modes[0][0].empty())) {
    for (const std::string& b : baselines) names << QString::fromStdString(b);
    QStringList modeNames;
    for (const std::string& m : modes[0]) modeNames << QString::fromStdString(m);
    const QString each = modeNames.size() == 1
                             ? modeNames[0]
                             : QObject::tr("%1 and %2")
                                   .arg(modeNames.mid(0, modeNames.size() - 1).join(", "), modeNames.back());
    return QObject::tr("%1, each %2").arg(names.join(QStringLiteral(", ")), each);
  }
  for (const SpeedupSeries& s : series) names << QString::fromStdString(seriesLabel(s));
  return names.join(QStringLiteral(", "));
}

QString recordedHeadlineHtml(const Candidate& c, const SpeedupSeries& series, const SpeedupTrust& trust,
                             const QString& whereHtml) {
  const std::vector<SpeedupSeries> recorded = seriesOf(c);
  const QString label = QString::fromStdString(seriesLabel(series)).toHtmlEscaped();
  const std::optional<double> claim = recordedSpeedup(c, series);
  QStringList parts;
  if (claim) {
    // The claim by the one rule (speedup_trust.h): after the verdict, struck through for a caught hack.
    parts << QObject::tr("recorded <b%1>%2</b>%3 (%4)")
                 .arg(trust.trusted ? QString() : QStringLiteral(" style='color: #cf222e'"),
                      claimHtml(formatSpeedup(*claim), trust),
                      series.isDefault() ? QString() : QObject::tr(" vs %1").arg(label), whereHtml);
  } else if (recorded.empty()) {
    parts << QObject::tr("no speedup recorded");
  } else {
    parts << QObject::tr("no speedup recorded vs %1").arg(label);
  }
  // What else the file records (the claim rows below list the numbers): for the default series only when
  // it has none, so a run file's headline stays its one claim.
  if (!recorded.empty() && (!claim || (!series.isDefault() && recorded.size() > 1)))
    parts
        << QObject::tr("%1 recorded: %2").arg(recorded.size()).arg(seriesListText(recorded).toHtmlEscaped());
  return parts.join(QStringLiteral(" · "));
}

}  // namespace ks
