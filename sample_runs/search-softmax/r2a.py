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

__device__ __forceinline__ float max4(float4 v) { return fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)); }

// One warp per row, 128-bit loads and stores (float4); the row is read twice and written once.
__global__ void softmax_warp4_kernel(const float* __restrict__ x, float* __restrict__ out, int rows, int cols) {
    const int row = (int)((blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32);
    const int lane = threadIdx.x % 32;
    if (row >= rows) return;  // the whole warp leaves together
    const int n4 = cols / 4;
    const float4* in4 = reinterpret_cast<const float4*>(x + (long long)row * cols);
    float4* o4 = reinterpret_cast<float4*>(out + (long long)row * cols);
    float m = -FLT_MAX;
    for (int i = lane; i < n4; i += 32) m = fmaxf(m, max4(in4[i]));
    m = warp_max(m);
    float s = 0.0f;
    for (int i = lane; i < n4; i += 32) {
        const float4 v = in4[i];
        s += expf(v.x - m) + expf(v.y - m) + expf(v.z - m) + expf(v.w - m);
    }
    const float inv = 1.0f / warp_sum(s);
    for (int i = lane; i < n4; i += 32) {
        const float4 v = in4[i];
        o4[i] = make_float4(expf(v.x - m) * inv, expf(v.y - m) * inv, expf(v.z - m) * inv, expf(v.w - m) * inv);
    }
}

torch::Tensor softmax_rows(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "softmax_rows: x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2 && x.scalar_type() == torch::kFloat32, "softmax_rows: expected 2-D float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int rows = (int)xc.size(0);
    const int cols = (int)xc.size(1);
    TORCH_CHECK(cols % 4 == 0, "softmax_rows: dim must be a multiple of 4 for float4 access");
    softmax_warp4_kernel<<<(rows + 7) / 8, 256>>>(xc.data_ptr<float>(), out.data_ptr<float>(), rows, cols);
    return out;
}
"""

softmax = load_inline(
    name="search_softmax_r2a",
    cpp_sources="torch::Tensor softmax_rows(torch::Tensor x);",
    cuda_sources=softmax_source,
    functions=["softmax_rows"],
    extra_cuda_cflags=["-O3"],
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
