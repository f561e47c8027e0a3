#include "views/report/slide_deck.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <algorithm>

#include "views/logic/loaded_run.h"

namespace ks {

QString SlideDeck::sidecarPath(const QString& runPath) { return runPath + QStringLiteral(".slides.json"); }

SlideDeck SlideDeck::load(const QString& runPath, QString* error) {
  SlideDeck deck;
  QFile file(sidecarPath(runPath));
  if (!file.exists()) return deck;
  auto fail = [&](const QString& why) {
    if (error) *error = QStringLiteral("%1: %2").arg(file.fileName(), why);
    return SlideDeck();
  };
  if (!file.open(QIODevice::ReadOnly)) return fail(file.errorString());
  QJsonParseError parse;
  const QJsonDocument doc = QJsonDocument::fromJson(file.read(1 << 20), &parse);
  if (parse.error != QJsonParseError::NoError) return fail(parse.errorString());
  const QJsonObject root = doc.object();
  if (root.value(QStringLiteral("kscope_slides")).toInt() != 1)
    return fail(QStringLiteral("not a slides file of version 1 (\"kscope_slides\": 1)"));
  for (const QJsonValue& v : root.value(QStringLiteral("slides")).toArray()) {
    const QJsonObject o = v.toObject();
    const QString task = o.value(QStringLiteral("task")).toString();
    if (task.isEmpty()) return fail(QStringLiteral("a slide without \"task\""));
    deck.add({task.toStdString(), o.value(QStringLiteral("candidate")).toString().toStdString()});
  }
  return deck;
}

bool SlideDeck::save(const QString& runPath, QString* error) const {
  QJsonArray slides;
  for (const Slide& s : m_slides)
    slides.append(QJsonObject{{QStringLiteral("task"), QString::fromStdString(s.task)},
                              {QStringLiteral("candidate"), QString::fromStdString(s.candidate)}});
  const QJsonObject root{{QStringLiteral("kscope_slides"), 1}, {QStringLiteral("slides"), slides}};
  QSaveFile file(sidecarPath(runPath));
  if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(root).toJson()) < 0 || !file.commit()) {
    if (error) *error = QStringLiteral("%1: %2").arg(file.fileName(), file.errorString());
    return false;
  }
  return true;
}

bool SlideDeck::add(const Slide& slide) {
  if (std::find(m_slides.begin(), m_slides.end(), slide) != m_slides.end()) return false;
  m_slides.push_back(slide);
  return true;
}

bool SlideDeck::remove(const Slide& slide) {
  const auto it = std::find(m_slides.begin(), m_slides.end(), slide);
  if (it == m_slides.end()) return false;
  m_slides.erase(it);
  return true;
}

std::vector<int> SlideDeck::rows(const LoadedRun& run) const {
  std::vector<int> rows;
  for (const Slide& s : m_slides) {
    const int row = run.findRow(s.task, s.candidate);
    if (row >= 0) rows.push_back(row);
  }
  return rows;
}

Slide SlideDeck::slideOf(const LoadedRun& run, int row) {
  const Candidate* c = run.candidate(row);
  return {run.task(row).key(), c ? c->id : std::string()};
}

}  // namespace ks
