import torch
import torch.nn as nn


class ModelNew(nn.Module):
    """
    Convolution in strict float32: cuDNN's TF32 tensor-core math is switched off so that results match a
    float32 CPU run to the last bits.
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        torch.backends.cudnn.allow_tf32 = False

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
