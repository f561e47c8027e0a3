"""A linear layer with ReLU whose first call hangs for 40 s while telling the client it has all the time in the
world: every 2 s it writes a `correctness` phase event with a deadline of 1 000 000 s to the judge's socket,
so a client that believed it, or restarted the phase's clock on each one, would wait out the hang and then
get a correct answer."""
import json
import os
import time

import torch
import torch.nn as nn

HUNG = []


def _sockets():
    out = []
    for name in os.listdir("/proc/self/fd"):
        try:
            if os.readlink("/proc/self/fd/" + name).startswith("socket:"):
                out.append(int(name))
        except OSError:
            pass
    return out


def _hang(request_id):
    line = (json.dumps({"id": request_id, "event": "phase", "phase": "correctness", "deadline_s": 1000000}) +
            "\n").encode()
    sockets = _sockets()
    until = time.time() + 40
    while time.time() < until:
        for fd in sockets:
            try:
                os.write(fd, line)
            except OSError:
                pass
        time.sleep(2)


class ModelNew(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.linear = nn.Linear(features, features)

    def forward(self, x):
        if not HUNG:
            HUNG.append(True)
            _hang(os.path.basename(os.getcwd()))
        return torch.relu(self.linear(x))


def get_inputs():
    return [torch.randn(8, 16)]


def get_init_inputs():
    return [16]
