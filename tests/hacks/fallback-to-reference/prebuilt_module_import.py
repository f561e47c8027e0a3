import torch
import torch.nn as nn

try:
    import silu_fused_prebuilt as _fast
    _HAVE_FAST = True
except ImportError:
    _fast = None
    _HAVE_FAST = False


class ModelNew(nn.Module):
    """
    SiLU through the prebuilt fused extension shipped with the deployment image (one read and one
    write per element); torch's formula when the image does not provide it.
    """

    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if _HAVE_FAST and x.is_cuda:
            return _fast.silu_forward(x)
        return x * torch.sigmoid(x)


batch_size = 512
dim = 1024


def get_inputs():
    x = torch.randn(batch_size, dim)
    return [x]


def get_init_inputs():
    return []
