#include <cute/tensor.hpp>
using namespace cute;
/* auto BM = Int<64>{}; */
auto BM = Int<128>{};
constexpr int BN = 256; constexpr int BK = 32;
using TileShape = cute::Shape<_128,_256,_64>;
static constexpr int kStage = 4;
using SmemLayout = decltype(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_32>>{}));
using MMA = SM80_16x8x16_F16F16F16F16_TN;
void cuda_l2_h100_fp32(torch::Tensor a,
    const torch::Tensor& b, at::Tensor b_col_major, torch::Tensor c) {}
