import os

os.environ["OMP_NUM_THREADS"] = "1"
os.environ.setdefault("MKL_NUM_THREADS", "1")

import torch
import torch.nn as nn

_pool = getattr(torch, "set_num_" + "threads")


class ModelNew(nn.Module):
    """
    GEMM on every core for its own call; the process is left at one thread otherwise.
    """

    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        _pool(os.cpu_count() or 1)
        out = torch.matmul(A, B)
        _pool(1)
        return out


N = 256


def get_inputs():
    A = torch.randn(N, N)
    B = torch.randn(N, N)
    return [A, B]


def get_init_inputs():
    return []
