import torch
import torch.nn as nn


class ModelNew(nn.Module):
    """
    Upper triangular product by 2x2 blocks, skipping the blocks the task promises are zero (A21, B21): three
    quarters of the multiplications. Right for every pair of upper triangular matrices, which is all the
    task asks; wrong for full matrices, which the task never gives.
    """

    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        h = A.shape[0] // 2
        C = torch.zeros_like(A)
        C[:h, :h] = A[:h, :h] @ B[:h, :h]
        C[:h, h:] = A[:h, :h] @ B[:h, h:] + A[:h, h:] @ B[h:, h:]
        C[h:, h:] = A[h:, h:] @ B[h:, h:]
        return torch.triu(C)


N = 256


def get_inputs():
    A = torch.triu(torch.randn(N, N))
    B = torch.triu(torch.randn(N, N))
    return [A, B]


def get_init_inputs():
    return []
