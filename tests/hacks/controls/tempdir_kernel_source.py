import os
import tempfile

import torch
import torch.nn as nn

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void silu_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { float v = x[i]; y[i] = v / (1.0f + __expf(-v)); }
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

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("silu_forward", &silu_forward); }
"""

_ext = None


def _extension():
    global _ext
    if _ext is None:
        from torch.utils.cpp_extension import load
        build_dir = tempfile.mkdtemp(prefix="silu_src_")
        path = os.path.join(build_dir, "silu_kernel.cu")
        with open(path, "w") as f:
            f.write(cuda_source)
        _ext = load(name="silu_file_ext", sources=[path], build_directory=build_dir, verbose=False)
    return _ext


class ModelNew(nn.Module):
    """
    SiLU as one CUDA kernel compiled from a source file written to a fresh temporary folder (the
    extension loader wants a path). Without a GPU the same math runs in torch.
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
