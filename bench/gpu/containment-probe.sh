#!/usr/bin/env bash
# Which piece of the runner's containment stops CUDA on this machine? Applies each piece alone
# (tests/sandbox/contain_probe.cpp) around a Python check of libcuda's cuInit and torch.cuda, with strace
# where the machine has it. GPU machine only (shared/gpu/README.md recipe); logs under $OUT.
#   bash bench/gpu/containment-probe.sh
set -u
out=${OUT:-/tmp/kscope-containment-probe}
mkdir -p "$out"
# shellcheck source=bench/gpu/build-lib.sh
source "$(dirname "$0")/build-lib.sh"
gpu_build 300 "$out/build.log" kscope-contain-probe || { tail -30 "$out/build.log"; exit 1; }
probe=$gpu_build_dir/bin/kscope-contain-probe
check=$out/cuda_check.py
cat > "$check" <<'PY'
import ctypes
try:
    cu = ctypes.CDLL("libcuda.so.1")
    n = ctypes.c_int(0)
    r = cu.cuInit(0)
    cu.cuDeviceGetCount(ctypes.byref(n))
    print("cuInit", r, "devices", n.value)
except OSError as e:
    print("libcuda not loaded:", e)
import torch
print("torch.cuda.is_available", torch.cuda.is_available())
PY
scratch=$(mktemp -d)
gcc -shared -fPIC -O1 -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=0 -o "$out/deny_trace.so" "$(dirname "$0")/deny_trace.c" -ldl || exit 1
ls -la /dev/nvidia* /dev/shm 2>&1 | head -20 > "$out/dev.txt"
uname -r >> "$out/dev.txt"
for variant in "none" "--seccomp" "--landlock" "--landlock --no-scope" "--landlock --no-devices" \
               "--landlock --seccomp" "--landlock --proc-self" "--landlock --proc-self --seccomp"; do
  args=$variant
  [[ $variant == none ]] && args=
  name=$(echo "$variant" | tr -d ' -')
  # shellcheck disable=SC2086
  result=$(TMPDIR=$scratch timeout 120 "$probe" $args --writable "$scratch" -- python3 "$check" 2>"$out/$name.err")
  printf '%-28s %s\n' "$variant" "$(echo "$result" | tr '\n' ' ')"
  # Which calls were refused: LD_PRELOAD bench/gpu/deny_trace.c (logs EACCES/EPERM of file calls).
  # shellcheck disable=SC2086
  TMPDIR=$scratch LD_PRELOAD=$out/deny_trace.so timeout 120 "$probe" $args --writable "$scratch" -- \
    python3 "$check" 2>&1 >/dev/null | grep '^deny_trace' | grep -v '__pycache__' | sort | uniq -c > "$out/$name.denied"
done
# Bisect: which extra writable folder makes cuInit work under Landlock?
cat > "$out/cuinit.py" <<'PY'
import ctypes
cu = ctypes.CDLL("libcuda.so.1")
print("cuInit", cu.cuInit(0))
PY
for extra in / /dev /proc /sys /run /tmp /var /root "$HOME" /opt /usr /etc; do
  printf 'landlock + writable %-10s %s\n' "$extra" \
    "$(TMPDIR=$scratch timeout 60 "$probe" --landlock --writable "$scratch" --writable "$extra" -- python3 "$out/cuinit.py" 2>&1 | grep -v '^probe' | tr '\n' ' ')"
done
for f in "$out"/*.denied; do [[ -s $f ]] && { echo "== $f"; head -12 "$f"; }; done
rm -rf "$scratch"
