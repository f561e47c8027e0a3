#include "core/cluster/gpu_list.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <unistd.h>

namespace ks::cluster {
namespace {

struct Env {
  std::map<std::string, std::string> vars;
  std::function<const char*(const char*)> get() {
    return [this](const char* n) { return vars.count(n) ? vars[n].c_str() : nullptr; };
  }
};

TEST(GpuList, ExplicitIds) {
  Env env;
  GpuList l = gpuList("0, 2,3", env.get(), "/nonexistent");
  EXPECT_EQ(l.ids, (std::vector<std::string>{"0", "2", "3"}));
  EXPECT_TRUE(l.error.empty());
  l = gpuList("0,0", env.get(), "/nonexistent");
  EXPECT_TRUE(l.ids.empty());
  EXPECT_NE(l.error.find("twice"), std::string::npos) << l.error;
  EXPECT_FALSE(gpuList("0,,1", env.get(), "/nonexistent").error.empty());
}

TEST(GpuList, AllPrefersTheFakeListThenVisibleDevices) {
  Env env;
  env.vars["CUDA_VISIBLE_DEVICES"] = "GPU-1a2b,GPU-3c4d";
  GpuList l = gpuList("all", env.get(), "/nonexistent");
  EXPECT_EQ(l.ids, (std::vector<std::string>{"GPU-1a2b", "GPU-3c4d"}));
  EXPECT_EQ(l.source, "CUDA_VISIBLE_DEVICES");
  env.vars["KSCOPE_GPU_LIST"] = "5";
  l = gpuList("all", env.get(), "/nonexistent");
  EXPECT_EQ(l.ids, (std::vector<std::string>{"5"}));
  EXPECT_EQ(l.source, "KSCOPE_GPU_LIST");
}

TEST(GpuList, AllCountsTheDriversGpus) {
  const auto dir = std::filesystem::temp_directory_path() / ("gpu-list-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "0000:01:00.0");
  std::filesystem::create_directories(dir / "0000:02:00.0");
  Env env;
  GpuList l = gpuList("all", env.get(), dir);
  EXPECT_EQ(l.ids, (std::vector<std::string>{"0", "1"}));
  std::filesystem::remove_all(dir);
  l = gpuList("all", env.get(), dir);
  EXPECT_TRUE(l.ids.empty());
  EXPECT_NE(l.error.find("no GPU"), std::string::npos) << l.error;
}

// The GUI's default: every GPU found, one runner each; none found is one runner that sees what the GUI sees,
// not an error; an explicit list that does not read is one.
TEST(GpuList, GuiRunnersDefaultToAllAndToOneRunnerWithoutGpus) {
  Env env;
  GpuList l = gpuRunners("", env.get(), "/nonexistent");
  EXPECT_EQ(l.ids, (std::vector<std::string>{""}));
  EXPECT_TRUE(l.error.empty()) << l.error;
  EXPECT_NE(l.source.find("no GPU found"), std::string::npos) << l.source;
  env.vars["KSCOPE_GPU_LIST"] = "0,1,2";
  l = gpuRunners("", env.get(), "/nonexistent");
  EXPECT_EQ(l.ids, (std::vector<std::string>{"0", "1", "2"}));
  EXPECT_EQ(l.source, "KSCOPE_GPU_LIST");
  EXPECT_EQ(gpuRunners(" all ", env.get(), "/nonexistent").ids, l.ids);
  l = gpuRunners("1", env.get(), "/nonexistent");
  EXPECT_EQ(l.ids, (std::vector<std::string>{"1"}));
  l = gpuRunners("1,1", env.get(), "/nonexistent");
  EXPECT_TRUE(l.ids.empty());
  EXPECT_NE(l.error.find("twice"), std::string::npos) << l.error;
  EXPECT_EQ(gpuRunnerEnvironment("3"), (std::vector<std::pair<std::string, std::string>>{{"CUDA_VISIBLE_DEVICES", "3"}}));
}

}  // namespace
}  // namespace ks::cluster
