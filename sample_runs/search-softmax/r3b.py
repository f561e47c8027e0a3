import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

softmax_source = r"""
#include <torch/extension.h>
#include <cfloat>

__device__ __forceinline__ float warp_max(float v) {
    #pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
    return v;
}

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

// One warp per row; the row stays in registers (N4 float4 per lane), so x is read from memory once.
template <int N4>
__global__ void softmax_regs_kernel(const float* __restrict__ x, float* __restrict__ out, int rows) {
    constexpr int cols = N4 * 128;
    const int row = (int)((blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32);
    const int lane = threadIdx.x % 32;
    if (row >= rows) return;  // the whole warp leaves together
    const float4* in4 = reinterpret_cast<const float4*>(x + (long long)row * cols);
    float4* o4 = reinterpret_cast<float4*>(out + (long long)row * cols);
    float4 v[N4];
    float m = -FLT_MAX;
    #pragma unroll
    for (int i = 0; i < N4; ++i) {
        v[i] = in4[lane + 32 * i];
        m = fmaxf(m, fmaxf(fmaxf(v[i].x, v[i].y), fmaxf(v[i].z, v[i].w)));
    }
    m = warp_max(m);
    float s = 0.0f;
    #pragma unroll
    for (int i = 0; i < N4; ++i) {
        v[i].x = exp2f(v[i].x - m);
        v[i].y = exp2f(v[i].y - m);
        v[i].z = exp2f(v[i].z - m);
        v[i].w = exp2f(v[i].w - m);
        s += v[i].x + v[i].y + v[i].z + v[i].w;
    }
    const float inv = 1.0f / warp_sum(s);
    #pragma unroll
    for (int i = 0; i < N4; ++i)
        o4[lane + 32 * i] = make_float4(v[i].x * inv, v[i].y * inv, v[i].z * inv, v[i].w * inv);
}

torch::Tensor softmax_rows(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "softmax_rows: x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2 && x.scalar_type() == torch::kFloat32, "softmax_rows: expected 2-D float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int rows = (int)xc.size(0);
    const int cols = (int)xc.size(1);
    TORCH_CHECK(cols == 512 || cols == 1024 || cols == 2048 || cols == 4096,
                "softmax_rows: the row is kept in registers: dim must be 512, 1024, 2048 or 4096");
    const int threads = 8 * 32;
    const int blocks = (rows + 8 - 1) / 8;
    const float* in = xc.data_ptr<float>();
    float* o = out.data_ptr<float>();
    switch (cols) {
        case 512: softmax_regs_kernel<4><<<blocks, threads>>>(in, o, rows); break;
        case 1024: softmax_regs_kernel<8><<<blocks, threads>>>(in, o, rows); break;
        case 2048: softmax_regs_kernel<16><<<blocks, threads>>>(in, o, rows); break;
        default: softmax_regs_kernel<32><<<blocks, threads>>>(in, o, rows); break;
    }
    return out;
}
"""

softmax = load_inline(
    name="search_softmax_r3b",
    cpp_sources="torch::Tensor softmax_rows(torch::Tensor x);",
    cuda_sources=softmax_source,
    functions=["softmax_rows"],
    extra_cuda_cflags=["-O3", "--use_fast_math"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x):
        return softmax.softmax_rows(x)


batch_size = 4096
dim = 2048


def get_inputs():
    return [torch.randn(batch_size, dim) * 10.0]


def get_init_inputs():
    return []
