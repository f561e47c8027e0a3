// The model's two small types for large runs: ProgramText (a text in memory or in its file) and SharedString
// (a measurement's names, shared).
#include "core/model/program_text.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "core/model/measurement.h"
#include "core/model/shared_string.h"

namespace ks {
namespace {

TEST(ProgramText, ReadsLikeAnOptionalString) {
  ProgramText none;
  EXPECT_FALSE(none.has_value());
  EXPECT_TRUE(none.empty());
  EXPECT_TRUE(none == std::nullopt);
  EXPECT_EQ(none.value_or("fallback"), "fallback");
  EXPECT_EQ(none.valueOrEmpty(), "");
  EXPECT_THROW((void)none.value(), std::bad_optional_access);

  const ProgramText empty = std::string();
  EXPECT_TRUE(empty.has_value());
  EXPECT_TRUE(empty.empty());
  EXPECT_FALSE(empty == none);  // "" is a program the file records; none is no program

  ProgramText code = "import torch\n";
  EXPECT_TRUE(code.inMemory());
  EXPECT_EQ(*code, "import torch\n");
  EXPECT_EQ(code->find("torch"), 7u);
  EXPECT_EQ(code, std::string("import torch\n"));
  EXPECT_EQ(code.storedBytes(), 13u);
  const ProgramText copy = code;  // shares the text
  EXPECT_EQ(copy, code);
  code.reset();
  EXPECT_FALSE(code.has_value());
  EXPECT_EQ(*copy, "import torch\n");
  EXPECT_EQ(ProgramText(std::optional<std::string>("x")).value(), "x");
  EXPECT_FALSE(ProgramText(std::optional<std::string>()).has_value());
}

// A source whose reads fail: value() throws, valueOrEmpty() says nothing.
class Broken final : public TextSource {
 public:
  std::string text(std::uint64_t, std::uint32_t) const override { throw TextReadError("gone"); }
};

TEST(ProgramText, AnUnreadableTextThrowsOrReadsEmpty) {
  const ProgramText text(std::make_shared<const Broken>(), 10, 5);
  EXPECT_TRUE(text.has_value());
  EXPECT_FALSE(text.empty());
  EXPECT_FALSE(text.inMemory());
  EXPECT_THROW((void)text.value(), TextReadError);
  EXPECT_EQ(text.valueOrEmpty(), "");
}

TEST(SharedString, ReadsLikeAStringAndCopiesShare) {
  const SharedString none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none, "");
  const SharedString device = "NVIDIA H100 80GB HBM3";
  const SharedString copy = device;
  EXPECT_TRUE(copy.sameCopy(device));
  EXPECT_EQ(copy, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(copy, std::string("NVIDIA H100 80GB HBM3"));
  EXPECT_EQ(copy.size(), 21u);
  EXPECT_TRUE(copy.starts_with("NVIDIA"));
  EXPECT_EQ(copy + "!", "NVIDIA H100 80GB HBM3!");
  const std::string& asString = copy;
  EXPECT_EQ(asString, "NVIDIA H100 80GB HBM3");
  EXPECT_LT(SharedString("a"), SharedString("b"));
  EXPECT_EQ(SharedString("x"), SharedString(std::string("x")));  // equal, different copies
  EXPECT_EQ(std::hash<SharedString>{}(device), std::hash<std::string>{}(asString));
  Measurement m;
  EXPECT_EQ(m.baseline, "default");
  EXPECT_EQ(m.origin, "recorded");
  EXPECT_TRUE(m.outcome.empty());
  EXPECT_EQ(sizeof(SharedString), sizeof(void*));
}

TEST(SharedString, TheCacheHandsOutOneCopyPerName) {
  SharedStringCache cache;
  const SharedString a = cache.get("NVIDIA H100 80GB HBM3");
  const SharedString b = cache.get("NVIDIA H100 80GB HBM3");
  EXPECT_TRUE(a.sameCopy(b));
  for (int i = 0; i < 100; ++i) cache.get("when " + std::to_string(i));  // pushes it out
  const SharedString c = cache.get("NVIDIA H100 80GB HBM3");
  EXPECT_EQ(c, a);
}

TEST(SharedString, CopiesMayLiveOnManyThreads) {
  const SharedString shared = "a name longer than the inline buffer";
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 100000; ++i) {
        SharedString copy = shared;
        SharedString moved = std::move(copy);
        if (moved != shared) std::abort();
      }
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(shared, "a name longer than the inline buffer");
}

}  // namespace
}  // namespace ks
