// RunnerServer (the core of `kscope serve`) and ServerClient against fake_runner.py: requests through the
// socket reach one runner that stays up between clients, a crash is reported to its client and the next
// client gets a fresh (warmed) runner, a client that hangs up cancels its request, the idle deadline and
// stop() end the server, and a second server for the same socket is refused.
#include "core/supervisor/runner_server.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <mutex>
#include <thread>

#include "core/supervisor/server_client.h"
#include "core/supervisor/server_socket.h"
#include "tests/supervisor/fake_runner_support.h"

namespace ks::supervisor {
namespace {

using namespace fake;
using protocol::ErrorKind;

std::filesystem::path testFolder() { return testRoot() / "server"; }

// A server on its own thread, with its log kept; stopped and joined on destruction.
class ServerThread {
 public:
  explicit ServerThread(ServerOptions options = {}, SupervisorOptions runner = fakeRunner()) {
    std::filesystem::create_directories(testFolder());
    std::filesystem::permissions(testFolder(), std::filesystem::perms::owner_all);  // listenAt() insists
    socket_ = testFolder() / ("s" + std::to_string(++count_) + ".sock");
    options.socket = socket_;
    server_ = std::make_unique<RunnerServer>(runner, options, [this](const std::string& line) {
      std::lock_guard lock(mutex_);
      log_ += line + "\n";
    });
    thread_ = std::thread([this] { code_ = server_->serve(); });
    // Listening: a client can connect (warm-up may still be going; the client then waits its turn).
    for (auto start = Clock::now(); secondsSince(start) < 10;) {
      if (std::filesystem::exists(socket_)) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  ~ServerThread() { join(); }
  void join() {
    if (!thread_.joinable()) return;
    server_->stop();
    thread_.join();
  }
  const std::filesystem::path& socket() const { return socket_; }
  RunnerServer& server() { return *server_; }
  std::string log() {
    std::lock_guard lock(mutex_);
    return log_;
  }
  int code() const { return code_; }
  std::thread& thread() { return thread_; }

 private:
  static inline int count_ = 0;
  std::filesystem::path socket_;
  std::unique_ptr<RunnerServer> server_;
  std::thread thread_;
  std::mutex mutex_;
  std::string log_;
  int code_ = -1;
};

RequestOutcome through(const std::filesystem::path& socket, const protocol::Request& request,
                       std::vector<std::string>* seen = nullptr) {
  std::string why;
  auto client = ServerClient::connect(socket, &why);
  if (!client) {
    protocol::ErrorEvent e;
    e.error.message = "no server: " + why;
    return RequestOutcome{e};
  }
  return client->request(request, [&](const protocol::Event& e) {
    if (!seen) return;
    if (std::holds_alternative<protocol::PhaseEvent>(e)) seen->push_back("phase");
    if (std::holds_alternative<protocol::ProgressEvent>(e)) seen->push_back("progress");
    if (std::holds_alternative<protocol::ResultEvent>(e)) seen->push_back("result");
    if (std::holds_alternative<protocol::ErrorEvent>(e)) seen->push_back("error");
  });
}

TEST(RunnerServer, ClientsGetEveryEventFromOneRunnerThatStaysUp) {
  ServerThread server;
  std::vector<std::string> seen;
  const RequestOutcome first = through(server.socket(), evaluate("ok"), &seen);
  ASSERT_TRUE(first.isResult()) << first.error()->error.message;
  EXPECT_EQ(seen, (std::vector<std::string>{"phase", "progress", "result"}));
  const RequestOutcome second = through(server.socket(), evaluate("ok"));
  ASSERT_TRUE(second.isResult());
  EXPECT_NE(runnerPid(first), 0);
  EXPECT_EQ(runnerPid(second), runnerPid(first)) << "the second client got a new runner";
  EXPECT_EQ(server.server().requestsServed(), 2);
  EXPECT_NE(server.log().find("ready on cpu, warmed up"), std::string::npos) << server.log();
}

TEST(RunnerServer, ACrashGoesToItsClientAndTheNextClientGetsAFreshRunner) {
  ServerThread server;
  const auto before = runnerPid(through(server.socket(), evaluate("ok")));
  const RequestOutcome crashed = through(server.socket(), evaluate("segfault"));
  ASSERT_NE(crashed.error(), nullptr);
  EXPECT_EQ(crashed.error()->error.kind, ErrorKind::Crash);
  EXPECT_NE(crashed.error()->error.message.find("SIGSEGV"), std::string::npos)
      << crashed.error()->error.message;
  EXPECT_NE(crashed.error()->error.stderrTail.find("last words"), std::string::npos);
  const RequestOutcome next = through(server.socket(), evaluate("ok"));
  ASSERT_TRUE(next.isResult()) << next.error()->error.message;
  EXPECT_NE(runnerPid(next), before);
  // The replacement was warmed between the clients: two warm-ups in the log.
  const std::string log = server.log();
  EXPECT_NE(log.find("warmed up"), log.rfind("warmed up")) << log;
}

TEST(RunnerServer, AClientThatHangsUpCancelsItsRequest) {
  ServerThread server;
  ASSERT_TRUE(through(server.socket(), evaluate("ok")).isResult());  // warm-up done, runner up
  auto client = ServerClient::connect(server.socket());
  ASSERT_TRUE(client);
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    client->cancel();
  });
  const auto start = Clock::now();
  const RequestOutcome o = client->request(evaluate("sleep"));  // 60 s of "timing"
  canceller.join();
  ASSERT_NE(o.error(), nullptr);
  EXPECT_EQ(o.error()->error.kind, ErrorKind::Cancelled);
  EXPECT_LT(secondsSince(start), 5.0);
  // The server noticed, killed that runner, and answers the next client at once.
  const auto next = Clock::now();
  EXPECT_TRUE(through(server.socket(), evaluate("ok")).isResult());
  EXPECT_LT(secondsSince(next), 5.0);
  EXPECT_NE(server.log().find("cancelled, the client went away"), std::string::npos) << server.log();
}

TEST(RunnerServer, ASecondServerForTheSameSocketIsRefused) {
  ServerThread first;
  ServerOptions options;
  options.socket = first.socket();
  std::string log;
  RunnerServer second(fakeRunner(), options, [&](const std::string& line) { log += line; });
  EXPECT_EQ(second.serve(), 2);
  EXPECT_NE(log.find("already listening"), std::string::npos) << log;
  EXPECT_TRUE(through(first.socket(), evaluate("ok")).isResult()) << "the refused server broke the first";
}

TEST(RunnerServer, StopsWhenIdleAndRemovesItsSocket) {
  ServerOptions options;
  options.idleExitSeconds = 0.5;
  options.warmUp = false;
  ServerThread server(options);
  const auto start = Clock::now();
  server.thread().join();
  EXPECT_EQ(server.code(), 0);
  EXPECT_LT(secondsSince(start), 5.0);
  EXPECT_FALSE(std::filesystem::exists(server.socket()));
  EXPECT_NE(server.log().find("no client for"), std::string::npos) << server.log();
  std::string why;
  EXPECT_FALSE(ServerClient::connect(server.socket(), &why));
  EXPECT_NE(why.find("no runner server"), std::string::npos) << why;
}

TEST(RunnerServer, AMalformedRequestIsAnsweredWithAProtocolError) {
  ServerThread server;
  std::string error;
  const int fd = connectTo(server.socket(), error);
  ASSERT_GE(fd, 0) << error;
  ASSERT_TRUE(sendAll(fd, "{\"id\": \"x\", \"op\": \"evaluate\", \"bogus\": 1}\n"));
  std::string reply;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) reply.append(buffer, std::size_t(n));
  ::close(fd);
  EXPECT_NE(reply.find("\"kind\":\"protocol\""), std::string::npos) << reply;
  EXPECT_NE(reply.find("\"id\":\"x\""), std::string::npos) << reply;
  EXPECT_TRUE(through(server.socket(), evaluate("ok")).isResult());
}

TEST(ServerSocket, OneSocketPerRunnerDeviceAndMemoryLimit) {
  const std::filesystem::path runner = fakeRunner().runner;
  const auto a = serverSocketPath(runner, "cuda", 0);
  EXPECT_EQ(a, serverSocketPath(runner, "cuda", 0));
  EXPECT_NE(a, serverSocketPath(runner, "cpu", 0));
  EXPECT_NE(a, serverSocketPath(runner, "cuda", 1 << 30));
  EXPECT_NE(a, serverSocketPath(runner.parent_path() / "line_splitter_test.cpp", "cuda", 0));
  EXPECT_EQ(a.extension(), ".sock");
  EXPECT_LT(a.string().size(), 100u);  // sun_path holds 108 bytes
}

}  // namespace
}  // namespace ks::supervisor
