#pragma once
// Opens files off the GUI thread, in two steps run by QtConcurrent and watched by QFutureWatchers:
// loadAny (core/formats) builds the LoadedRun, which is handed over at once (loaded); then the static
// checks run over it and its flagged snapshot (LoadedRun::withFlags) is handed over (flagsChecked). Reports
// progress, says when the work has run long enough to show it (200 ms), and can be cancelled; opening another
// path cancels the work in progress. Work runs on the loader's own thread pools, never on the global one.
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QTimer>
#include <memory>

namespace ks {

class LoadedRun;

class RunLoader : public QObject {
  Q_OBJECT

 public:
  static constexpr int kShowProgressAfterMs = 200;

  explicit RunLoader(QObject* parent = nullptr);
  ~RunLoader() override;  // cancels and waits for the worker

  void open(const QString& path);
  bool isBusy() const { return m_job != nullptr; }  // reading or checking

 public slots:
  void cancel();

 signals:
  void started(const QString& path);
  void slow(const QString& path);  // the work has taken kShowProgressAfterMs and goes on
  void progressChanged(int permille, const QString& phase);
  void loaded(const QString& path, std::shared_ptr<const ks::LoadedRun> run);  // flags follow
  void flagsChecked(std::shared_ptr<const ks::LoadedRun> run);                 // the same read, flagged
  // Nothing could be read: the message names what went wrong (the file's issues, or an exception).
  void failed(const QString& path, const QString& message);
  // Stopped: before `loaded` nothing changes; after it, the run stays without flags.
  void canceled(const QString& path);

 private:
  struct Job;
  void startChecks(const std::shared_ptr<Job>& job);
  void finishLoad(const std::shared_ptr<Job>& job);
  void finishChecks(const std::shared_ptr<Job>& job);
  void release(const std::shared_ptr<Job>& job);
  void stop();

  std::shared_ptr<Job> m_job;
  QTimer m_poll;
  // Own pools: the global one also runs Qt's parallel raster painting, which would wait for the checks.
  QThreadPool m_control;  // the job's steps, one at a time
  QThreadPool m_workers;  // the static checks' candidates
};

}  // namespace ks
