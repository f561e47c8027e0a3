import importlib

import torch
import torch.nn as nn

F = importlib.import_module("torch.nn.functional")

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

#define DEFINE_ACT(name, expr) \
    __device__ __forceinline__ float act_##name(float v) { return expr; }

DEFINE_ACT(silu, v / (1.0f + __expf(-v)))
DEFINE_ACT(relu, fmaxf(v, 0.0f))

__global__ void silu_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = act_silu(x[i]);
}

torch::Tensor silu_forward(torch::Tensor x) {
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int64_t n = xc.numel();
    silu_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), y.data_ptr<float>(), n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

cpp_source = "torch::Tensor silu_forward(torch::Tensor x);"

_ext = None


def _extension():
    global _ext
    if _ext is None:
        from torch.utils.cpp_extension import load_inline
        _ext = load_inline(name="silu_act_table_ext", cpp_sources=cpp_source, cuda_sources=cuda_source,
                           functions=["silu_forward"], verbose=False)
    return _ext


class ModelNew(nn.Module):
    """
    SiLU as one CUDA kernel; the activations are generated from one macro (token pasting builds
    act_silu, act_relu). Without a GPU the functional op runs.
    """

    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.is_cuda and x.dtype == torch.float32:
            return _extension().silu_forward(x)
        return F.silu(x)


batch_size = 512
dim = 1024


def get_inputs():
    x = torch.randn(batch_size, dim)
    return [x]


def get_init_inputs():
    return []
