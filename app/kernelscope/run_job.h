#pragma once
// One queued re-run: a candidate of an open run, the program sent for it (its recorded program or the
// user's edit of it) and the runner request that evaluates it.
#include <QObject>
#include <QString>
#include <memory>

#include "core/protocol/request.h"
#include "core/runs/result_row.h"

namespace ks {

class LoadedRun;

// What the supervisor allows a run (SupervisorOptions).
struct RunLimits {
  double phaseSeconds = 0;  // the longest any phase may run (maxPhaseSeconds); 0: the client's phase limits
  double memoryGiB = 0;     // resident memory of the runner; 0: three quarters of this machine's memory
  bool operator==(const RunLimits&) const = default;
};

struct RunJob {
  int id = 0;    // numbered from 1 in the order queued
  int row = -1;  // the candidate's LoadedRun row in `run`
  std::shared_ptr<const LoadedRun> run;
  runs::RunSubject subject;
  bool edited = false;  // subject.code is an edit, not the program the file records
  protocol::Request request;
  RunLimits limits;

  // "L1/12 r2", "L1/12 r2 (edited)"
  QString label() const {
    const QString name = QString::fromStdString(subject.taskKey + " " + subject.candidateId);
    return edited ? QObject::tr("%1 (edited)").arg(name) : name;
  }
};

}  // namespace ks
