#pragma once
// kscope-runner splits into two processes at start-up, before Python, torch or CUDA start
// (docs/runner-protocol.md, "Threat model"): the judge (the parent) keeps the client's protocol descriptors
// and never runs Python or a program; the executor (the child) runs the engine, and with it every program it
// is sent, and talks to the judge over a private socket. In the executor the client's descriptors are closed
// and checked gone: no descriptor of the executor leads to the client's pipes, so a program that scans
// /proc/self/fd finds the judge's socket, never the client. The executor dies with the judge
// (PR_SET_PDEATHSIG SIGKILL); both stay in the runner's process group, which the supervisor kills.
#include <sys/types.h>

#include <string>
#include <variant>

#include "app/kscope-runner/protocol_channel.h"

namespace ks::runner {

struct Split {
  bool executor = false;  // true in the child
  int link = -1;          // this side's end of the judge-executor socket
  pid_t executorPid = -1;  // in the judge: the executor's pid
};

// Forks. In the child, `client` is closed first. Returns why it could not split (both sides: nothing forked,
// or the child could not drop the client's descriptors).
std::variant<Split, std::string> splitJudgeAndExecutor(ProtocolChannel& client);

}  // namespace ks::runner
