// anchoredSearch must find what std::regex_search finds, with the same captures, for the patterns it stands
// in for: gemm_tile_config.cpp's tile-configuration patterns, each with the literal it is anchored at.
#include "core/formats/anchored_regex.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/formats/shared_data.h"

namespace ks {
namespace {

struct Anchored {
  const char* pattern;
  const char* literal;
  Anchor anchor;
};

// As in core/formats/gemm_tile_config.cpp.
const std::vector<Anchored>& tilePatterns() {
  static const std::vector<Anchored> all = {
      {R"(\busing\s+(\w+)\s*=\s*(.*))", "using", Anchor::AtLiteral},
      {R"(\bdim3\s+(\w*[Cc]luster\w*)\s*[({]([^)}]*)[)}])", "dim3", Anchor::AtLiteral},
      {R"(\bSwizzle<\s*(\w+)\s*,\s*(\w+)\s*,\s*(\w+)\s*>)", "Swizzle<", Anchor::AtLiteral},
      {R"(\bLayout_(K|MN)_(SW\d+|INTER)_Atom\b)", "Layout_", Anchor::AtLiteral},
      {R"(\b(\w*[Ss]wizzle\w*)\s*=\s*(true|false)\b)", "wizzle", Anchor::AtWordStart},
      {R"(\b(SM\d+_\d+x\d+x\d+_\w+))", "SM", Anchor::AtLiteral},
      {R"(\bwmma::fragment<\s*(?:nvcuda::)?wmma::accumulator\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*([\w:]+)\s*>)",
       "wmma::fragment", Anchor::AtLiteral},
      {R"(\bmma\.sync\.aligned\.(m\d+n\d+k\d+)((?:\.\w+)*))", "mma.sync.aligned.", Anchor::AtLiteral},
      {R"(\bElementAccumulator\s*=\s*([\w:]+))", "ElementAccumulator", Anchor::AtLiteral},
      {R"(\bcutlass::gemm::(Kernel\w+))", "cutlass::gemm::Kernel", Anchor::AtLiteral},
      {R"(\bcutlass::gemm::(\w*Scheduler\w*))", "cutlass::gemm::", Anchor::AtLiteral},
      {R"(\bvoid\s+(cuda_l2_\w+)\s*\(\s*(?:torch::Tensor|$))", "void", Anchor::AtLiteral},
  };
  return all;
}

// Every match left to right, as positions and captures ("-" for a group that took no part).
std::string describeAll(const std::string& text, const std::regex& re, bool anchored, const Anchored& a) {
  std::ostringstream out;
  auto put = [&](const std::smatch& m) {
    out << '[' << (m[0].first - text.begin()) << ',' << m[0].length();
    for (std::size_t g = 1; g < m.size(); ++g) out << '|' << (m[g].matched ? m[g].str() : "-");
    out << ']';
  };
  if (!anchored) {
    for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it) put(*it);
    return out.str();
  }
  std::smatch m;
  for (std::size_t from = 0; anchoredSearch(text, a.literal, a.anchor, re, m, from);
       from = static_cast<std::size_t>(m[0].second - text.begin()))
    put(m);
  return out.str();
}

void expectSameAsRegexSearch(const std::vector<std::string>& lines, std::size_t* compared = nullptr) {
  for (const Anchored& a : tilePatterns()) {
    const std::regex re(a.pattern);
    for (const std::string& line : lines) {
      if (compared && line.find(a.literal) == std::string::npos) continue;  // neither can match
      EXPECT_EQ(describeAll(line, re, true, a), describeAll(line, re, false, a))
          << "pattern " << a.pattern << " on: " << line;
      if (compared) ++*compared;
    }
  }
}

TEST(AnchoredRegex, FindsWhatRegexSearchFindsOnEdgeCases) {
  expectSameAsRegexSearch({
      "",
      "using",
      "using TileShape = Shape<_128, _256, _64>;",
      "  xusing A = B; using TileShape = Shape<_1>;",  // the first occurrence has no word boundary
      "usingusing X = 1",                              // a second occurrence inside the first's word
      "SMSM80_16x8x16_F32F16F16F32_TN SM80_16x8x16_F32F16F16F32_TN",
      "MMA_Atom<SM90_64x128x16_F32F16F16_SS<GMMA::Major::K>>; SM80_8x8x4_F16F16F16F16_TN x;",
      "dim3 cluster(2, 1, 1); dim3 clusterDims{1,2,1}",
      "dim3 grid(1,1,1); dim3 my_cluster_dim(2,2)",
      "StageCountAutoCarveout<sizeof(typename Epilogue::SharedStorage)> StageCount<4> StageCountX",
      "using Stages = cutlass::gemm::collective::StageCount< 3 >;",
      "Swizzle<3, 3, 3> Swizzle<2,x>, Swizzle<1,2,3>",
      "GMMA::Layout_K_SW128_Atom<T>, Layout_MN_INTER_Atom Layout_K_SW64_Atomx",
      "bool use_swizzle = true; bool kSwizzle=false; swizzle = true",
      "SwizzleSwizzle = true; xswizzle=false; swizzle_block = false",
      "static constexpr bool Swizzle = truefalse, swizzle = false",
      "wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc; "
      "wmma::fragment<nvcuda::wmma::accumulator,8,32,16,half>",
      "asm volatile(\"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0}\"); mma.sync.aligned.m8n8k4",
      "using ElementAccumulator = float; ElementAccumulator=cutlass::half_t",
      "cutlass::gemm::KernelTmaWarpSpecializedCooperative, cutlass::gemm::KernelTmaWarpSpecializedPingpong",
      "using Sched = cutlass::gemm::PersistentScheduler; cutlass::gemm::StreamKScheduler "
      "cutlass::gemm::Kernel",
      "void cuda_l2_h100_fp32(torch::Tensor a,",
      "void cuda_l2_h100_fp32(",
      "voidvoid cuda_l2_x(torch::Tensor) void  cuda_l2_y ( torch::Tensor",
      "\xe9using A = Shape<1>; \xffSM80_16x8x16_F16F16F16F16_TN",  // bytes that are not word characters
  });
}

// The real thing: every distinct line of the CUDA-L2 release's 1000 kernels that holds a pattern's literal.
TEST(AnchoredRegex, FindsWhatRegexSearchFindsOnEveryCudaL2Line) {
  KS_REQUIRE_CUDA_L2();
  std::set<std::string> distinct;
  for (const auto& folder : std::filesystem::directory_iterator(test::cudaL2Root() / "kernels")) {
    if (!folder.is_directory()) continue;
    for (const auto& file : std::filesystem::directory_iterator(folder.path())) {
      std::ifstream in(file.path());
      for (std::string line; std::getline(in, line);)
        if (line.size() <= 1024) distinct.insert(line);  // gemm_tile_config reads no longer line
    }
  }
  ASSERT_GT(distinct.size(), 1000u);
  std::size_t compared = 0;
  expectSameAsRegexSearch({distinct.begin(), distinct.end()}, &compared);
  EXPECT_GT(compared, 1000u) << "the release's lines should hold the literals";
}

}  // namespace
}  // namespace ks
