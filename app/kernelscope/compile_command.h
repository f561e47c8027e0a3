#pragma once
// Compile (F7): the candidate program on show (an edit included) compiled with nvcc alone for a chosen
// architecture (Compile Architecture…; default this machine's GPU, else sm_90a), off the GUI thread, the way
// `kscope check --compile` does (core/nvcc/python_sources_build.h, torch's headers; no GPU needed, no torch
// architecture detection). Its errors, the failure's cause and each kernel's ptxas resources are shown on the
// program's lines (compileProblems).
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <string>

#include "core/nvcc/build_result.h"

class QAction;
class QWidget;

namespace ks {

class CodeCompareView;
class OpenRun;

class CompileCommand : public QObject {
  Q_OBJECT

 public:
  struct Outcome {
    nvcc::BuildResult result;
    std::string error;  // why nothing could be compiled (no torch headers, no nvcc)
    std::string program;
    std::string arch;
    int row = -1;
    bool forRun =
        false;  // Run asked for it on a machine without a GPU (RunController::compilesInsteadOfRunning)
    bool cancelled = false;
  };

  CompileCommand(CodeCompareView* code, const OpenRun* open, QWidget* window);
  QAction* compileAction() const { return m_compile; }
  QAction* archAction() const { return m_chooseArch; }
  QString arch();  // the chosen architecture ("sm_90a")
  void setArch(const QString& arch);
  bool isRunning() const { return m_watcher.isRunning(); }
  // How long the last compile took on this machine (remembered), for the progress's estimate; 0 if none yet.
  static double lastSeconds();

 public slots:
  void trigger();
  // Run on a machine without a GPU: the same compile, said as what Run did instead
  // ("No GPU here: Run compiled the kernel for sm_90a instead of running it: …").
  void compileForRun();
  void chooseArch();
  // Stops the compile in flight: nvcc's process group is killed and nothing is marked.
  void cancel();

 signals:
  void message(const QString& text);  // for the status bar
  // A compile began (what and for which architecture, "L1/12 r2 for sm_90a"); `finished` always follows.
  void started(const QString& what);
  void finished(const QString& summary);

 public:
  // What a compile says for a person: "compiled for sm_90a: 2 errors (bound-kernel); first: …" or
  // "compiled for sm_90a: 1 kernel (scale_kernel: 12 registers, 0 B shared, no spills), 31 s".
  static QString summary(const Outcome& outcome);

 private:
  void start(bool forRun);
  void show();

  CodeCompareView* m_code;
  const OpenRun* m_open;
  QWidget* m_window;
  QAction* m_compile;
  QAction* m_chooseArch;
  QFutureWatcher<Outcome> m_watcher;
  std::shared_ptr<std::atomic<bool>> m_cancel;  // the compile in flight's; shared with its thread
};

}  // namespace ks
