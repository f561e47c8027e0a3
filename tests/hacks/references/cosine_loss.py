import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """
    Cosine embedding loss: the mean over the batch of 1 - cos(a_i, b_i).
    """

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.mean(1 - F.cosine_similarity(a, b, dim=1))


batch_size = 128
features = 4096


def get_inputs():
    a = torch.randn(batch_size, features)
    b = torch.randn(batch_size, features)
    return [a, b]


def get_init_inputs():
    return []
