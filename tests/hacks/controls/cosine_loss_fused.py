import torch
import torch.nn as nn


class ModelNew(nn.Module):
    """
    Cosine embedding loss with the dot product and both norms taken in one pass over the embeddings.
    """

    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        dot = (a * b).sum(dim=1)
        norms = torch.sqrt((a * a).sum(dim=1) * (b * b).sum(dim=1)).clamp_min(1e-8)
        return torch.mean(1 - dot / norms)


batch_size = 128
features = 4096


def get_inputs():
    a = torch.randn(batch_size, features)
    b = torch.randn(batch_size, features)
    return [a, b]


def get_init_inputs():
    return []
