import torch
import torch.nn as nn


class ModelNew(nn.Module):
    """
    Float64 GEMM in row blocks of 64 into a preallocated float64 result: every operand is brought to double
    precision explicitly (a no-op for these inputs), so no block computes in another type.
    """

    BLOCK = 64

    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        out = torch.zeros(A.shape[0], B.shape[1], dtype=torch.float64, device=A.device)
        b = B.double()
        for i in range(0, A.shape[0], self.BLOCK):
            torch.mm(A[i:i + self.BLOCK].to(torch.float64), b, out=out[i:i + self.BLOCK])
        return out.to(dtype=A.dtype)


N = 256


def get_inputs():
    A = torch.randn(N, N, dtype=torch.float64)
    B = torch.randn(N, N, dtype=torch.float64)
    return [A, B]


def get_init_inputs():
    return []
