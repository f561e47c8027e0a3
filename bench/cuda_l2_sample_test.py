#!/usr/bin/env python3
"""Tests of bench/cuda_l2_sample.py on the real H100 file list (skipped, exit 77, when the release is absent)."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuda_l2_sample as s  # noqa: E402

shared = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../shared")
release = os.path.join(shared, "datasets/cuda-l2")
kernels = os.path.join(release, "kernels/h100_F32F16F16F32")
if not os.path.isdir(kernels):
    print(f"SKIP: CUDA-L2 release not found at {kernels}")
    sys.exit(77)

shapes = s.kernel_shapes(kernels)
assert len(shapes) == 1000, len(shapes)
chosen = s.stratified_sample(shapes)
assert len(chosen) == 70 and len(set(chosen)) == 70, len(chosen)
assert all(c in set(shapes) for c in chosen)
for d in range(3):
    sizes = sorted({x[d] for x in shapes})
    counts = [sum(c[d] == v for c in chosen) for v in sizes]
    assert counts == [7] * len(sizes), (d, counts)  # every size of every extent, equally often
assert s.stratified_sample(shapes) == chosen  # the seed decides
assert s.stratified_sample(shapes, seed=1) != chosen
assert len(s.stratified_sample(shapes, count=64)) == 70  # rounded up to whole rounds

with tempfile.TemporaryDirectory() as out:
    s.main(["prepare", release, out, "--count", "10"])
    copied = sorted(os.listdir(os.path.join(out, "kernels/h100_F32F16F16F32")))
    assert len(copied) == 10, copied
    tables = s.read_tables(out, "h100_F32F16F16F32")
    assert set(tables) == {"offline", "server"} and len(tables["offline"]) == 10, tables.keys()
    keys = open(os.path.join(out, "shapes.txt")).read().split()
    assert len(keys) == 10 and keys[0].startswith("h100_F32F16F16F32/") and "x" in keys[0], keys
print("cuda_l2_sample: ok,", len(chosen), "shapes")
