import torch
import torch.nn as nn


class Model(nn.Module):
    """
    Softmax over the last dimension of a batch of logits: out[i, j] = exp(x[i, j]) / sum_k exp(x[i, k]).
    """

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x):
        return torch.softmax(x, dim=1)


batch_size = 4096
dim = 2048


def get_inputs():
    # Logits with a spread of 10: each row's softmax has a few large entries, so an error in the
    # normalisation or in the exponential's base shows far above the 1e-2 tolerance (unit-variance inputs
    # give entries near 1/2048, which a wrong kernel would pass).
    return [torch.randn(batch_size, dim) * 10.0]


def get_init_inputs():
    return []
