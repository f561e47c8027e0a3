#include "core/supervisor/interrupt_cancel.h"

#include <atomic>

namespace ks::supervisor {
namespace {

std::atomic<RunnerClient*> target{nullptr};
std::atomic<bool> signalled{false};

extern "C" void onInterrupt(int) {
  signalled = true;
  if (RunnerClient* c = target.load()) c->cancel();  // atomic stores, write() or shutdown(): signal-safe
}

}  // namespace

InterruptCancel::InterruptCancel(RunnerClient& client) {
  signalled = false;
  target = &client;
  struct sigaction action {};
  action.sa_handler = onInterrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &previousInt_);
  sigaction(SIGTERM, &action, &previousTerm_);
}

InterruptCancel::~InterruptCancel() {
  sigaction(SIGINT, &previousInt_, nullptr);
  sigaction(SIGTERM, &previousTerm_, nullptr);
  target = nullptr;
}

bool InterruptCancel::interrupted() const { return signalled.load(); }

}  // namespace ks::supervisor
