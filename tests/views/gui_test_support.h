#pragma once
// What the GUI tests share: the releases and samples they open, a clean window layout, waiting on the event
// loop with a limit, and saving a screenshot that is read back.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QPixmap>
#include <QSettings>
#include <QString>
#include <QTest>
#include <QWidget>
#include <functional>

#include "ks_test_paths.h"

namespace ks::guitest {

inline const QString kCudaL1Release = QStringLiteral(KS_SHARED_DIR "/datasets/cuda-l1/h100.jsonl");
inline const QString kCudaL2Release = QStringLiteral(KS_SHARED_DIR "/datasets/cuda-l2");
inline const QString kDiagSample = QStringLiteral(KS_SOURCE_DIR "/sample_runs/diag-matmul.kscope.jsonl");
inline const QString kSearchSample = QStringLiteral(KS_SOURCE_DIR "/sample_runs/search-softmax.kscope.jsonl");
inline const QString kScreenshotDir = QStringLiteral(KS_BINARY_DIR "/screenshots");

// The main window's remembered geometry, dock layout and code-compare split, so it opens at its first size.
inline void forgetWindowLayout() {
  for (const char* key : {"mainWindow/geometry", "mainWindow/state", "mainWindow/codeCompare"})
    QSettings().remove(QString::fromLatin1(key));
}

// Runs the event loop until `done` or `ms` milliseconds; `done`'s last answer.
inline bool waitUntil(const std::function<bool()>& done, int ms) {
  QElapsedTimer timer;
  timer.start();
  while (!done() && timer.elapsed() < ms) QTest::qWait(20);
  return done();
}

// Grabs `widget` into kScreenshotDir/`name` and reads the file back (same size).
inline void saveScreenshot(QWidget* widget, const QString& name) {
  QApplication::processEvents();
  const QPixmap pixmap = widget->grab();
  ASSERT_FALSE(pixmap.isNull()) << name.toStdString();
  const QString path = QDir(kScreenshotDir).filePath(name);
  ASSERT_TRUE(pixmap.save(path)) << path.toStdString();
  const QImage image(path);
  EXPECT_EQ(image.size(), pixmap.size()) << path.toStdString();
}

}  // namespace ks::guitest
