// supervisor::chooseMemoryLimit: the one rule for the memory a runner may hold, with or without
// --memory-limit (without any limit, a candidate growing to 6 GB would finish "correct").
#include <gtest/gtest.h>

#include <string>

#include "core/supervisor/supervisor_options.h"

namespace ks::supervisor {
namespace {

constexpr std::uint64_t kMiB = std::uint64_t(1) << 20;

TEST(MemoryLimit, DefaultIsThreeQuartersOfTheMachineSharedByItsRunners) {
  const std::uint64_t machine = physicalMemoryBytes();
  ASSERT_GT(machine, 0u);
  const ChosenMemoryLimit one = chooseMemoryLimit(-1);
  EXPECT_EQ(one.bytes, std::max(machine / 4 * 3, std::uint64_t(2) << 30));
  EXPECT_EQ(one.why, std::to_string(one.bytes / kMiB) + " MiB (default: 3/4 of this machine's " +
                         std::to_string(machine / kMiB) + " MiB; --memory-limit to change, 0 for none)");
  const ChosenMemoryLimit four = chooseMemoryLimit(-1, 4);
  EXPECT_EQ(four.bytes, std::max(machine / 4 * 3 / 4, std::uint64_t(2) << 30));
  EXPECT_NE(four.why.find(", shared by 4 runners"), std::string::npos) << four.why;
  // Never below what torch and a CUDA context need, however many runners.
  EXPECT_EQ(chooseMemoryLimit(-1, 100000).bytes, std::uint64_t(2) << 30);
}

TEST(MemoryLimit, AnExplicitValueOrZeroIsTheUsersChoiceAndSaysSo) {
  EXPECT_EQ(chooseMemoryLimit(4096).bytes, 4096 * kMiB);
  EXPECT_EQ(chooseMemoryLimit(4096).why, "4096 MiB (--memory-limit)");
  EXPECT_EQ(chooseMemoryLimit(0).bytes, 0u);
  EXPECT_EQ(chooseMemoryLimit(0).why, "none (--memory-limit 0)");
  EXPECT_EQ(chooseMemoryLimit(2048, 1, "Memory").why, "2048 MiB (Memory)");
}

// The limit reaches the supervisor: clientSupervisorOptions sets it, RLIMIT_AS only on the CPU.
TEST(MemoryLimit, ClientOptionsCarryIt) {
  const SupervisorOptions cuda = clientSupervisorOptions("kscope-runner", "cuda", chooseMemoryLimit(-1).bytes);
  ASSERT_TRUE(cuda.memoryLimit.has_value());
  EXPECT_EQ(cuda.memoryLimit->bytes, chooseMemoryLimit(-1).bytes);
  EXPECT_FALSE(cuda.memoryLimit->addressSpace);
  EXPECT_TRUE(clientSupervisorOptions("kscope-runner", "cpu", 1 << 30).memoryLimit->addressSpace);
  EXPECT_FALSE(clientSupervisorOptions("kscope-runner", "cpu", 0).memoryLimit.has_value());
}

}  // namespace
}  // namespace ks::supervisor
