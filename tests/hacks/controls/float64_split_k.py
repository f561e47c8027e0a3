import torch
import torch.nn as nn


class ModelNew(nn.Module):
    """
    Float64 GEMM as four K-panels summed last to first: the same float64 products, added in another order.
    """

    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        k = A.shape[1]
        step = k // 4
        parts = [torch.matmul(A[:, i:i + step], B[i:i + step, :]) for i in range(0, k, step)]
        out = parts[-1]
        for p in reversed(parts[:-1]):
            out = out + p
        return out


N = 256


def get_inputs():
    A = torch.randn(N, N, dtype=torch.float64)
    B = torch.randn(N, N, dtype=torch.float64)
    return [A, B]


def get_init_inputs():
    return []
