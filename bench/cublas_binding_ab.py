#!/usr/bin/env python3
"""What each part of a baseline's call path costs in CUDA-L2's protocol (docs/method-fidelity.md, "The cuBLAS
gap"), on the GPU machine:

  python3 bench/cublas_binding_ab.py HARNESS_DIR SHAPE,SHAPE... SECONDS BLOCKS OUT.json

Builds bench/cublas_binding_ab.cpp (one cuBLAS TN GEMM bound four ways) with torch.utils.cpp_extension, then
per shape times the four bindings and torch.matmul in CUDA-L2's own protocol (its benchmarking_utils
run_all_perf_funcs_once from HARNESS_DIR, unchanged: fresh inputs every round, each call between two
synchronizes, timed by the host clock), all five in every round in a shuffled order, for BLOCKS blocks of
SECONDS each. Prints, per shape and binding, the mean µs a call in each block and over all.
"""
import json
import os
import random
import statistics
import sys
import time

import torch
from torch.utils.cpp_extension import load

harness, shapes, seconds, blocks, out_path = (sys.argv[1], sys.argv[2].split(","), float(sys.argv[3]),
                                              int(sys.argv[4]), sys.argv[5])
sys.path.insert(0, harness)
from benchmarking_utils import run_all_perf_funcs_once  # noqa: E402  (CUDA-L2's, run unchanged)

torch.set_grad_enabled(False)
here = os.path.dirname(os.path.abspath(__file__))
ext = load(name="cublas_binding_ab", sources=[os.path.join(here, "cublas_binding_ab.cpp")], with_cuda=True,
           extra_ldflags=["-lcublas"], extra_cflags=["-O3"], verbose=False)

result = {"gpu": torch.cuda.get_device_name(0), "torch": torch.__version__, "shapes": {}}
for shape in shapes:
    m, n, k = map(int, shape.split("_"))

    def pointers_torchstream(a, b, bc, c):
        ext.pointers_torchstream(a.data_ptr(), bc.data_ptr(), c.data_ptr(), m, n, k)

    funcs = [ext.tensors_nullstream, ext.tensors_torchstream, ext.objects_torchstream, pointers_torchstream,
             torch.matmul]
    names = [f.__name__ for f in funcs]

    def rounds(secs):
        recs, end = [], time.time() + secs
        while time.time() < end:
            random.shuffle(funcs)
            recs.append(run_all_perf_funcs_once(perf_func_list=funcs, m=m, n=n, k=k, acc_precise="fp32",
                                                device_type="h100", padding_m=0, padding_k=0, padding_n=0))
        return recs

    rounds(0.5)  # warm-up, as the harness's
    per_block = []
    for _ in range(blocks):
        recs = rounds(seconds)
        per_block.append({nm: statistics.fmean(r[nm + "_ms"] for r in recs) * 1000 for nm in names})
    result["shapes"][shape] = {"blocks": per_block, "rounds_per_block": len(recs)}
    print(f"{shape}: µs a call (host clock, CUDA-L2's protocol), blocks of {seconds} s")
    for nm in names:
        vals = [b[nm] for b in per_block]
        print(f"  {nm:22s} " + " ".join(f"{v:6.1f}" for v in vals) + f"   median {statistics.median(vals):6.1f}")
with open(out_path, "w") as f:
    json.dump(result, f, indent=1)
