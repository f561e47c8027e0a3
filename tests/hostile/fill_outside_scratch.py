"""A linear layer with ReLU whose first call writes wherever a request could leave files outside its scratch
folder, then answers correctly only if the file-size limit stopped its one large file:
  /dev/shm/kscope-junk-TOKEN-0 and -1, 24 MiB each;
  the build cache root: junk-TOKEN.bin (24 MiB) and a folder junk-TOKEN/ with 24 MiB in it;
  the build cache's Triton folder: three files of 24 MiB (more than the quota the test sets, 48 MiB);
  the seal log, through the descriptor the executor appends seals by: 2 MiB of junk;
  the client's scratch root, beside its own folder: junk-TOKEN.bin (8 MiB);
  its own scratch folder: big.bin of 48 MiB, which the file-size limit (40 MiB in the test) must refuse.
The test fills in TOKEN and, after the answer, finds none of it (the seal log back at its size)."""
import errno
import os

import torch
import torch.nn as nn

TOKEN = "@TOKEN@"
MIB = b"\x01" * (1 << 20)
DONE = []
REFUSED = []


def _fill(path, mib):
    with open(path, "wb") as f:
        for _ in range(mib):
            f.write(MIB)


def _try(path, mib):
    try:
        _fill(path, mib)
    except OSError:
        pass


def _everywhere():
    cache = os.path.dirname(os.environ["TORCH_EXTENSIONS_DIR"])
    for i in range(2):
        _try(f"/dev/shm/kscope-junk-{TOKEN}-{i}", 24)
    _try(os.path.join(cache, f"junk-{TOKEN}.bin"), 24)
    os.makedirs(os.path.join(cache, f"junk-{TOKEN}"), exist_ok=True)
    _try(os.path.join(cache, f"junk-{TOKEN}", "inside.bin"), 24)
    triton = os.environ["TRITON_CACHE_DIR"]
    os.makedirs(triton, exist_ok=True)
    for i in range(3):
        _try(os.path.join(triton, f"junk-{TOKEN}-{i}.bin"), 24)
    for name in os.listdir("/proc/self/fd"):
        try:
            if os.readlink("/proc/self/fd/" + name).endswith("-seals.log"):
                for _ in range(2):
                    os.write(int(name), b"x" * (1 << 20))
        except OSError:
            pass
    _try(os.path.join(os.path.dirname(os.getcwd()), f"junk-{TOKEN}.bin"), 8)
    try:
        _fill("big.bin", 48)
    except OSError as e:
        if e.errno == errno.EFBIG:
            REFUSED.append(True)


class ModelNew(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.linear = nn.Linear(features, features)

    def forward(self, x):
        if not DONE:
            DONE.append(True)
            _everywhere()
        out = torch.relu(self.linear(x))
        return out if REFUSED else out + 1  # wrong when the 48 MiB file could be written


def get_inputs():
    return [torch.randn(8, 16)]


def get_init_inputs():
    return [16]
