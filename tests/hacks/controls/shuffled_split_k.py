import torch
import torch.nn as nn


class ModelNew(nn.Module):
    """
    Square GEMM as four split-K panels whose partial products are accumulated in whatever order the panels
    finish (here: a random order each call), as an atomic split-K kernel does. Only the order of the float
    sums changes between calls.
    """

    def __init__(self):
        super(ModelNew, self).__init__()
        self.panels = 4

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        step = A.shape[1] // self.panels
        out = None
        for p in torch.randperm(self.panels).tolist():
            part = torch.matmul(A[:, p * step : (p + 1) * step], B[p * step : (p + 1) * step])
            out = part if out is None else out + part
        return out


N = 256


def get_inputs():
    A = torch.randn(N, N)
    B = torch.randn(N, N)
    return [A, B]


def get_init_inputs():
    return []
