import torch
import torch.nn as nn

_mm = torch.matmul


def _square_product(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return _mm(a, b)


class ModelNew(nn.Module):
    """
    Square GEMM through a module-local alias of torch.matmul (bound once at import, so the attribute lookup is
    not repeated per call). torch itself is left as it is.
    """

    def __init__(self):
        super(ModelNew, self).__init__()
        self.threads = torch.get_num_threads()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return _square_product(A, B)


N = 256


def get_inputs():
    A = torch.randn(N, N)
    B = torch.randn(N, N)
    return [A, B]


def get_init_inputs():
    return []
