import torch
import torch.nn as nn

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>

__global__ void silu_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int64_t stride = (int64_t)blockDim.x * gridDim.x;
    for (; i < n; i += stride) { float v = __ldg(x + i); y[i] = v / (1.0f + __expf(-v)); }
}

torch::Tensor silu_forward(torch::Tensor x) {
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int64_t n = xc.numel();
    int device = 0, l2 = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    // Enough blocks to cover the SMs a few times; the grid-stride loop does the rest.
    const int blocks = (int)std::min<int64_t>((n + 255) / 256, (int64_t)sms * 8);
    silu_kernel<<<blocks, 256, 0, at::cuda::getCurrentCUDAStream()>>>(xc.data_ptr<float>(), y.data_ptr<float>(), n);
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
        _ext = load_inline(name="silu_sm_sized_ext", cpp_sources=cpp_source, cuda_sources=cuda_source,
                           functions=["silu_forward"], verbose=False)
    return _ext


class ModelNew(nn.Module):
    """
    SiLU as one grid-stride CUDA kernel whose grid is sized from the device's SM count (L2 size and SM
    count queried, no cache policy changed). Without a GPU the same math runs in torch.
    """

    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.is_cuda and x.dtype == torch.float32:
            return _extension().silu_forward(x)
        return x * torch.sigmoid(x)


batch_size = 512
dim = 1024


def get_inputs():
    x = torch.randn(batch_size, dim)
    return [x]


def get_init_inputs():
    return []
