import torch
import torch.nn as nn


class Model(nn.Module):
    """
    Square matrix multiplication in float64: C = A @ B.
    """

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


N = 256


def get_inputs():
    A = torch.randn(N, N, dtype=torch.float64)
    B = torch.randn(N, N, dtype=torch.float64)
    return [A, B]


def get_init_inputs():
    return []
