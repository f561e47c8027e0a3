"""A linear layer with ReLU that leaves a daemon behind at one of the runner's ends, chosen by MODE:
  atexit  an `atexit` handler starts it while the executor shuts down (the runner's shutdown)
  exit    its first call starts it, then ends the executor itself with os._exit(7) (a crash)
  hang    its first call starts it, then hangs until the client's deadline ends the request (a timeout)
The daemon is `sleep TOKEN` in a session of its own (setsid from a shell that exits at once, so it is
re-parented); each mode waits until it runs. The test fills in MODE and TOKEN, and after the end looks for
a process running `sleep TOKEN`: none may be left."""
import atexit
import os
import subprocess
import time

import torch
import torch.nn as nn

MODE = "@MODE@"
TOKEN = "@TOKEN@"
STARTED = []


def _running():
    n = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                n += f.read().split(b"\0")[:2] == [b"sleep", TOKEN.encode()]
        except OSError:
            pass
    return n


def _leave_daemon():
    subprocess.run(["sh", "-c", f"setsid sleep {TOKEN} >/dev/null 2>&1 </dev/null &"], check=True)
    deadline = time.time() + 30
    while not _running() and time.time() < deadline:
        time.sleep(0.02)


if MODE == "atexit":
    atexit.register(_leave_daemon)


class ModelNew(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.linear = nn.Linear(features, features)

    def forward(self, x):
        if MODE in ("exit", "hang") and not STARTED:
            STARTED.append(True)
            _leave_daemon()
            if MODE == "exit":
                os._exit(7)
            time.sleep(600)
        return torch.relu(self.linear(x))


def get_inputs():
    return [torch.randn(8, 16)]


def get_init_inputs():
    return [16]
