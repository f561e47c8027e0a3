import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

softmax_source = r"""
#include <torch/extension.h>
#include <cfloat>

#define EXP expf

// Online softmax state of a set of elements: their max m and sum of exp(x - m).
struct MaxSum {
    float m;
    float d;
};

__device__ __forceinline__ MaxSum combine(MaxSum a, MaxSum b) {
    const float m = fmaxf(a.m, b.m);
    return {m, a.d * EXP(a.m - m) + b.d * EXP(b.m - m)};
}

__device__ __forceinline__ MaxSum warp_combine(MaxSum v) {
    #pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        const MaxSum other = {__shfl_xor_sync(0xffffffffu, v.m, offset), __shfl_xor_sync(0xffffffffu, v.d, offset)};
        v = combine(v, other);
    }
    return v;
}

// One block of 256 threads per row: one pass for max and sum together, one pass to write.
__global__ void softmax_online_kernel(const float* __restrict__ x, float* __restrict__ out, int cols) {
    const float* in = x + (long long)blockIdx.x * cols;
    float* o = out + (long long)blockIdx.x * cols;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    MaxSum v = {-FLT_MAX, 0.0f};
    for (int c = threadIdx.x; c < cols; c += 256) {
        const float xv = in[c];
        if (xv > v.m) {
            v.d = v.d * EXP(v.m - xv) + 1.0f;
            v.m = xv;
        } else {
            v.d += EXP(xv - v.m);
        }
    }
    v = warp_combine(v);
    __shared__ float shared_m[8], shared_d[8];
    if (lane == 0) {
        shared_m[warp] = v.m;
        shared_d[warp] = v.d;
    }
    __syncthreads();
    if (warp == 0) {
        MaxSum w = lane < 8 ? MaxSum{shared_m[lane], shared_d[lane]} : MaxSum{-FLT_MAX, 0.0f};
        w = warp_combine(w);
        if (lane == 0) {
            shared_m[0] = w.m;
            shared_d[0] = w.d;
        }
    }
    __syncthreads();
    const float m = shared_m[0];
    const float inv = 1.0f / shared_d[0];
    for (int c = threadIdx.x; c < cols; c += 256) o[c] = EXP(in[c] - m) * inv;
}

torch::Tensor softmax_rows(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "softmax_rows: x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2 && x.scalar_type() == torch::kFloat32, "softmax_rows: expected 2-D float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int rows = (int)xc.size(0);
    const int cols = (int)xc.size(1);
    softmax_online_kernel<<<rows, 256>>>(xc.data_ptr<float>(), out.data_ptr<float>(), cols);
    return out;
}
"""

softmax = load_inline(
    name="search_softmax_r1e",
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
