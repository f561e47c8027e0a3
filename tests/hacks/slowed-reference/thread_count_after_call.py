import os

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    """
    GEMM that sizes torch's intra-op pool to the machine for its own product, then drops back to a single
    thread so that the pool's workers stop spinning between calls.
    """

    def __init__(self):
        super(ModelNew, self).__init__()
        self.workers = os.cpu_count() or 1

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        torch.set_num_threads(self.workers)
        out = torch.matmul(A, B)
        torch.set_num_threads(1)
        return out


N = 256


def get_inputs():
    A = torch.randn(N, N)
    B = torch.randn(N, N)
    return [A, B]


def get_init_inputs():
    return []
