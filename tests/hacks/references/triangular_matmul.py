import torch
import torch.nn as nn


class Model(nn.Module):
    """
    Product of two upper triangular matrices (KernelBench level 1 task 14): C = triu(A @ B).
    """

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        """
        Args:
            A (torch.Tensor): Upper triangular matrix of shape (N, N).
            B (torch.Tensor): Upper triangular matrix of shape (N, N).
        """
        return torch.triu(torch.matmul(A, B))


N = 256


def get_inputs():
    A = torch.triu(torch.randn(N, N))
    B = torch.triu(torch.randn(N, N))
    return [A, B]


def get_init_inputs():
    return []
