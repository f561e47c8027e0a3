import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

softmax_source = r"""
#include <torch/extension.h>
#include <cfloat>

// One thread per row, three passes over the row: max, sum of exponentials, write.
__global__ void softmax_rows_kernel(const float* __restrict__ x, float* __restrict__ out, int rows, int cols) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const float* in = x + (long long)row * cols;
    float* o = out + (long long)row * cols;
    float m = -FLT_MAX;
    for (int c = 0; c < cols; ++c) m = fmaxf(m, in[c]);
    float s = 0.0f;
    for (int c = 0; c < cols; ++c) s += expf(in[c] - m);
    const float inv = 1.0f / s;
    for (int c = 0; c < cols; ++c) o[c] = expf(in[c] - m) * inv;
}

torch::Tensor softmax_rows(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "softmax_rows: x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2 && x.scalar_type() == torch::kFloat32, "softmax_rows: expected 2-D float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int rows = (int)xc.size(0);
    const int cols = (int)xc.size(1);
    const int threads = 128;
    softmax_rows_kernel<<<(rows + threads - 1) / threads, threads>>>(xc.data_ptr<float>(), out.data_ptr<float>(),
                                                                    rows, cols);
    return out;
}
"""

softmax = load_inline(
    name="search_softmax_r0",
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
