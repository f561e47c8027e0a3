import torch
import torch.nn as nn


class ModelNew(nn.Module):
    """
    SiLU through torch.nn.functional.silu (one fused op instead of sigmoid and multiply). At construction
    the fused path is checked once against the composed formula with torch.allclose, and the composed
    formula is kept if the two disagree on this build of torch.
    """

    def __init__(self):
        super(ModelNew, self).__init__()
        probe = torch.linspace(-8.0, 8.0, 4096)
        self.fused_ok = torch.allclose(torch.nn.functional.silu(probe), probe * torch.sigmoid(probe),
                                       rtol=1e-5, atol=1e-6)
        torch.testing.assert_close(torch.nn.functional.silu(probe[:4]), probe[:4] * torch.sigmoid(probe[:4]))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.fused_ok:
            return torch.nn.functional.silu(x)
        return x * torch.sigmoid(x)


batch_size = 512
dim = 1024


def get_inputs():
    x = torch.randn(batch_size, dim)
    return [x]


def get_init_inputs():
    return []
