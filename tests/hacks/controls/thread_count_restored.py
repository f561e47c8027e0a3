import os

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    """
    SiLU on one thread for its own call (the tensor is small enough that waking a pool costs more than it
    saves), with the caller's thread count put back afterwards; the pool size the environment asks for is
    read, never changed.
    """

    def __init__(self):
        super(ModelNew, self).__init__()
        self.requested = os.environ.get("OMP_NUM_THREADS")

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        previous = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            return x * torch.sigmoid(x)
        finally:
            torch.set_num_threads(previous)


batch_size = 512
dim = 1024


def get_inputs():
    x = torch.randn(batch_size, dim)
    return [x]


def get_init_inputs():
    return []
