import torch
import torch.nn as nn

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void silu_kernel(const float* __restrict__ x, float* __restrict__ scratch, float* __restrict__ y,
                            int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) {
        float s = 1.0f / (1.0f + __expf(-x[i]));
        scratch[i] = s;
        y[i] = x[i] * s;
    }
}

// A workspace allocated once and grown when needed; every call overwrites it before reading it.
static float* workspace = nullptr;
static int64_t workspace_numel = 0;

torch::Tensor silu_forward(torch::Tensor x) {
    const int64_t n = x.numel();
    if (n > workspace_numel) {
        if (workspace) cudaFree(workspace);
        cudaMalloc(&workspace, n * sizeof(float));
        workspace_numel = n;
    }
    auto y = torch::empty_like(x);
    const int threads = 256;
    silu_kernel<<<(n + threads - 1) / threads, threads>>>(x.data_ptr<float>(), workspace, y.data_ptr<float>(), n);
    return y;
}
"""

cpp_source = "torch::Tensor silu_forward(torch::Tensor x);"

_ext = None


class ModelNew(nn.Module):
    """
    SiLU as one CUDA kernel that also leaves the gate values in a reusable device workspace (for a backward
    pass), allocated once and rewritten by every call.
    """

    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        global _ext
        if not x.is_cuda:
            return x * torch.sigmoid(x)
        if _ext is None:
            from torch.utils.cpp_extension import load_inline
            _ext = load_inline(name="silu_workspace_ext", cpp_sources=cpp_source, cuda_sources=cuda_source,
                               functions=["silu_forward"], verbose=False)
        return _ext.silu_forward(x.contiguous())


batch_size = 512
dim = 1024


def get_inputs():
    x = torch.randn(batch_size, dim)
    return [x]


def get_init_inputs():
    return []
