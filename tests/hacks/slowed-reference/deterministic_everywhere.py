import torch
import torch.nn as nn

torch.use_deterministic_algorithms(True)


class ModelNew(nn.Module):
    """
    Convolution with reproducible results: deterministic algorithms are requested once, for the whole process,
    so that every run of the model gives bitwise identical outputs.
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


batch_size = 8
in_channels = 3
out_channels = 16
kernel_size = 3
height = 32
width = 32


def get_inputs():
    x = torch.randn(batch_size, in_channels, height, width)
    return [x]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
