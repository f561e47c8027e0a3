#!/usr/bin/env bash
# Makes the fuzz corpus seeds in OUT/<target>/ (and OUT/json.dict) at run time: the hand-written edge cases
# committed in tests/fuzz/seeds/, plus cuts of the real files — a few lines of CUDA-L1's JSONL, a few rows of
# CUDA-L2's tables, a few of its kernels, good-kernels' ref.py/src.py — from ../shared/datasets (never
# copied into the repository), and the bundled sample runs. Without the datasets only the rest is used.
#   bash tests/fuzz/seeds.sh OUT
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out=${1:?usage: seeds.sh OUT}
data=${KSCOPE_DATASETS:-$repo/../shared/datasets}
mkdir -p "$out"
for d in "$here"/seeds/*/; do
  t=$(basename "$d")
  mkdir -p "$out/$t"
  cp "$d"/* "$out/$t/"
done
for t in cuda_l1_jsonl run_jsonl cuda_source cuda_l2_csv cuda_l2_kernel good_kernels_csv good_kernels_json \
  kernelbench_task load_any request_decoder event_decoder; do
  mkdir -p "$out/$t"
done

# The bundled sample runs (ours): whole, and their first lines.
for f in "$repo"/sample_runs/*.kscope.jsonl; do
  n=$(basename "$f" .kscope.jsonl)
  cp "$f" "$out/run_jsonl/sample_$n.kscope.jsonl"
  head -n 2 "$f" >"$out/run_jsonl/sample_${n}_head.kscope.jsonl"
  head -n 1 "$f" >"$out/load_any/sample_$n"
  for py in "$repo/sample_runs/$n"/*.py; do cp "$py" "$out/kernelbench_task/sample_${n}_$(basename "$py")"; done
done

if [ ! -d "$data" ]; then
  echo "seeds: no datasets at $data; using the committed seeds and the sample runs only"
else
  l1="$data/cuda-l1/h100.jsonl"
  if [ -f "$l1" ]; then
    for i in 1 2 3 100 250; do sed -n "${i}p" "$l1" >"$out/cuda_l1_jsonl/h100_line$i.jsonl"; done
    head -n 3 "$l1" >"$out/cuda_l1_jsonl/h100_lines1-3.jsonl"
    head -n 1 "$l1" >"$out/load_any/cuda_l1_line1"
    # Two of its programs as task files, for the Python-file reader.
    if command -v python3 >/dev/null; then
      python3 - "$l1" "$out/kernelbench_task" <<'PY'
import json, sys
with open(sys.argv[1], encoding="utf-8") as f:
    row = json.loads(f.readline())
for key in ("ref_code", "custom_code"):
    if isinstance(row.get(key), str):
        with open(f"{sys.argv[2]}/cuda_l1_{key}.py", "w", encoding="utf-8") as out:
            out.write(row[key])
PY
    fi
  fi
  for csv in "$data"/cuda-l2/eval_results/*.csv; do
    [ -f "$csv" ] || continue
    n=$(basename "$csv" .csv)
    head -n 6 "$csv" >"$out/cuda_l2_csv/${n}_head.csv"
    { head -n 1 "$csv"; tail -n 3 "$csv"; } >"$out/cuda_l2_csv/${n}_tail.csv"
  done
  kernels="$data/cuda-l2/kernels"
  if [ -d "$kernels" ]; then
    # The three smallest kernels and one of the largest: CuTe's tile spellings and a hand-written loop.
    mapfile -t picks < <(find "$kernels" -name '*.cu' -printf '%s %p\n' | sort -n | sed -n '1,3p;$p' | cut -d' ' -f2-)
    for k in "${picks[@]}"; do
      cp "$k" "$out/cuda_source/l2_$(basename "$k")"
      cp "$k" "$out/cuda_l2_kernel/l2_$(basename "$k")"
    done
  fi
  for task in LayerNorm Softmax MatmulFP32; do
    for py in ref src; do
      f="$data/good-kernels/$task/$py.py"
      [ -f "$f" ] && cp "$f" "$out/kernelbench_task/gk_${task}_$py.py"
    done
  done
fi

# The JSON keys the readers and the protocol know, from their sources, as a libFuzzer dictionary.
{
  printf '"{"\n"}"\n"["\n"]"\n":"\n","\n"null"\n"true"\n"false"\n"\\\\u0000"\n"\\\\ud800"\n"1e999"\n"-0"\n"\\x0a"\n'
  grep -ohE '"[a-z][a-z0-9_]*"' "$repo"/core/protocol/*.cpp "$repo"/core/formats/run_format_reader.cpp \
    "$repo"/core/formats/cuda_l1_reader.cpp "$repo"/core/formats/good_kernels_reader.cpp "$repo"/core/json/*.cpp |
    sort -u | sed 's/"/\\"/g; s/^/"/; s/$/"/'
} >"$out/json.dict"
cp "$here"/dicts/*.dict "$out/"
counts=$(for d in "$out"/*/; do printf '%s %s, ' "$(basename "$d")" "$(find "$d" -type f | wc -l)"; done)
echo "seeds: ${counts%, }"
