"""A linear layer with ReLU whose first call starts four processes that hold 384 MiB each (1.5 GiB in all,
outside the process that runs programs) for 30 s, waits until they hold it, and answers correctly 20 s later.
Under a memory limit smaller than the runner plus its children, the request must end with a `memory` error
before that answer, and no child may be left. The test fills in TOKEN (each child's last argument)."""
import os
import subprocess
import sys
import time

import torch
import torch.nn as nn

TOKEN = "@TOKEN@"
STARTED = []
HOLD = ("import sys, time\n"
        "block = bytearray(384 << 20)\n"
        "for i in range(0, len(block), 4096):\n"
        "    block[i] = 1\n"
        "open(sys.argv[1], 'w').close()\n"
        "time.sleep(30)\n")


def _python():
    return sys.executable if sys.executable and os.path.exists(sys.executable) else "python3"


class ModelNew(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.linear = nn.Linear(features, features)

    def forward(self, x):
        if not STARTED:
            STARTED.append(True)
            marks = [os.path.abspath(f"held-{i}") for i in range(4)]
            for mark in marks:
                subprocess.Popen([_python(), "-c", HOLD, mark, TOKEN], start_new_session=True)
            deadline = time.time() + 60
            while not all(os.path.exists(m) for m in marks) and time.time() < deadline:
                time.sleep(0.1)
            time.sleep(20)
        return torch.relu(self.linear(x))


def get_inputs():
    return [torch.randn(8, 16)]


def get_init_inputs():
    return [16]
