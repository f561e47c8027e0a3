// kscope serve [--device cpu|cuda] [--memory-limit MiB] [--runner PATH] [--idle-exit S] [--no-warm-up]:
// keeps one kscope-runner warm for `kscope run` (core/supervisor/runner_server.h). A `kscope run` with the
// same --device, --memory-limit and runner finds the server by itself and sends its request there, so a
// re-time does not pay for starting Python, torch, CUDA and the profiler (about 15 s on the H100 machine).
// Runs in the foreground, one line per request on stdout; Ctrl-C (or SIGTERM) stops it.
#include <csignal>
#include <ctime>
#include <iostream>
#include <memory>

#include "app/kscope/command.h"
#include "core/supervisor/runner_location.h"
#include "core/supervisor/runner_server.h"
#include "core/supervisor/server_socket.h"
#include "core/supervisor/supervisor_options.h"

namespace ks::cli {
namespace {

struct ServeOptions {
  std::string device, runner;
  double memoryLimitMiB = -1;  // < 0: supervisor::chooseMemoryLimit's default; 0: none
  double idleExitSeconds = 1800;
  bool noWarmUp = false, printSocket = false;
};

std::atomic<supervisor::RunnerServer*> running{nullptr};

extern "C" void onStopSignal(int) {
  if (supervisor::RunnerServer* s = running.load()) s->stop();  // a write() and atomic stores
}

std::string timestamp() {
  const std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%H:%M:%S", std::localtime(&now));
  return buf;
}

int serve(const ServeOptions& o) {
  const supervisor::RunnerLocation runner = supervisor::findRunner(o.runner);
  if (!runner.found()) {
    std::cerr << "kscope serve: error: " << runner.error << "\n";
    return kExitFailure;
  }
  const supervisor::ChosenMemoryLimit memory = supervisor::chooseMemoryLimit(o.memoryLimitMiB);
  const auto memoryBytes = memory.bytes;
  const auto socket = supervisor::serverSocketPath(runner.path, o.device, memoryBytes);
  if (o.printSocket) {
    std::cout << socket.string() << "\n";
    return 0;
  }
  supervisor::ServerOptions options{
      .socket = socket, .idleExitSeconds = o.idleExitSeconds, .warmUp = !o.noWarmUp, .device = o.device};
  supervisor::RunnerServer server(
      supervisor::clientSupervisorOptions(runner.path, o.device, memoryBytes), options,
      [](const std::string& line) { std::cout << timestamp() << " " << line << std::endl; });
  std::cout << timestamp() << " kscope serve: runner " << runner.path.string()
            << (o.device.empty() ? "" : ", device " + o.device) << "; `kscope run`"
            << (o.device.empty() ? "" : " --device " + o.device)
            << (o.memoryLimitMiB >= 0 ? " --memory-limit " + std::to_string(int(o.memoryLimitMiB)) : "")
            << " uses it; memory limit " << memory.why << std::endl;
  running = &server;
  struct sigaction action {
  }, previousInt{}, previousTerm{};
  action.sa_handler = onStopSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &previousInt);
  sigaction(SIGTERM, &action, &previousTerm);
  const int code = server.serve();
  sigaction(SIGINT, &previousInt, nullptr);
  sigaction(SIGTERM, &previousTerm, nullptr);
  running = nullptr;
  return code == 0 ? 0 : kExitFailure;
}

}  // namespace

void addServeCommand(CLI::App& app) {
  auto o = std::make_shared<ServeOptions>();
  CLI::App* command = app.add_subcommand(
      "serve", "Keep a warm kscope-runner for `kscope run` (re-times without start-up); Ctrl-C stops it");
  command->add_option("--device", o->device, "cpu or cuda: serves `kscope run` calls given the same --device")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  command->add_option("--memory-limit", o->memoryLimitMiB, "Stop the runner past this much resident memory, MiB (default: 3/4 of this machine's "
                      "memory; 0: no limit)")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--runner", o->runner,
                      "kscope-runner executable (default: next to kscope, $KSCOPE_RUNNER)");
  command
      ->add_option("--idle-exit", o->idleExitSeconds,
                   "Stop after this many seconds with no request; 0: never (default 1800)")
      ->check(CLI::NonNegativeNumber);
  command->add_flag("--no-warm-up", o->noWarmUp,
                    "Do not warm the runner up (CUDA, cuBLAS, cuDNN, profiler) at start");
  command->add_flag("--print-socket", o->printSocket, "Print the socket these options use, and exit");
  command->callback([o] { exitCode() = serve(*o); });
}

KS_REGISTER_COMMAND(addServeCommand);

}  // namespace ks::cli
