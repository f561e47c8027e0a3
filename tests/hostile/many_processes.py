"""A linear layer with ReLU whose first call starts 200 processes (`sleep TOKEN`, each in a session of its
own) and keeps them for 20 s before it answers correctly: a burst a fork bomb begins with, bounded so that a
test can run it. The client's cap on the runner's processes must end the request before the answer, and no
process may be left. The test fills in TOKEN."""
import subprocess
import time

import torch
import torch.nn as nn

TOKEN = "@TOKEN@"
STARTED = []


class ModelNew(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.linear = nn.Linear(features, features)

    def forward(self, x):
        if not STARTED:
            STARTED.append(True)
            for _ in range(200):
                try:
                    subprocess.Popen(["sleep", TOKEN], start_new_session=True)
                except OSError:  # RLIMIT_NPROC refused the fork: as good as a cap
                    break
            time.sleep(20)
        return torch.relu(self.linear(x))


def get_inputs():
    return [torch.randn(8, 16)]


def get_init_inputs():
    return [16]
