#include "core/engine/cpu_pin.h"

#include <gtest/gtest.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <thread>

using ks::engine::CpuPin;
using ks::engine::CpuPinScope;

namespace {

int cpusAllowed() {  // of the calling thread
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
  return CPU_COUNT(&set);
}

}  // namespace

TEST(CpuPin, ScopesHaveTheProtocolsNames) {
  for (CpuPinScope s : {CpuPinScope::None, CpuPinScope::Thread, CpuPinScope::Process})
    EXPECT_EQ(ks::protocol::cpuPinScopeFrom(ks::protocol::cpuPinScopeName(s)), s);
  EXPECT_FALSE(ks::protocol::cpuPinScopeFrom("core"));
}

TEST(CpuPin, NonePinsNothing) {
  const int before = cpusAllowed();
  const CpuPin pin(CpuPinScope::None);
  EXPECT_FALSE(pin.cpu());
  EXPECT_EQ(pin.threadsPinned(), 0);
  EXPECT_EQ(cpusAllowed(), before);
}

TEST(CpuPin, ThreadPinsTheCallerToTheCpuItIsOnAndRestoresItsSet) {
  const int before = cpusAllowed();
  {
    const CpuPin pin(CpuPinScope::Thread);
    ASSERT_TRUE(pin.cpu());
    EXPECT_EQ(pin.threadsPinned(), 1);
    EXPECT_EQ(cpusAllowed(), 1);
    EXPECT_EQ(sched_getcpu(), *pin.cpu());
  }
  EXPECT_EQ(cpusAllowed(), before);
}

TEST(CpuPin, ProcessPinsTheOtherThreadsTooAndRestoresThem) {
  std::atomic<int> seen{-1};
  std::atomic<bool> ask{false}, stop{false};
  std::thread other([&] {
    while (!stop) {
      if (ask.exchange(false)) seen = cpusAllowed();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  const auto othersSet = [&] {
    seen = -1;
    ask = true;
    while (seen == -1) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return seen.load();
  };
  const int before = othersSet();
  {
    const CpuPin pin(CpuPinScope::Process);
    ASSERT_TRUE(pin.cpu());
    EXPECT_GE(pin.threadsPinned(), 2);
    EXPECT_EQ(cpusAllowed(), 1);
    EXPECT_EQ(othersSet(), 1);
  }
  EXPECT_EQ(othersSet(), before);
  EXPECT_EQ(cpusAllowed(), before);
  stop = true;
  other.join();
}
