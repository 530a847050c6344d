#!/usr/bin/env bash
# Compiles each kernels/src/main/cuda/*.cu into <out>/<name>.fatbin: machine code for sm_80 and sm_90 plus
# compute_90 PTX that the driver compiles for newer GPUs. Called by the Maven build (generate-resources).
# Where no nvcc is found the build goes on without kernels and the GPU backend reports "kernels not built".
# nvcc is looked for in $NVCC, on PATH, then /usr/local/cuda/bin and /usr/local/bin. FRONTIER_SKIP_NVCC=1 skips.
set -euo pipefail
src="$(cd "$(dirname "$0")" && pwd)"
out="${1:?usage: build-kernels.sh OUTPUT_DIR}"
mkdir -p "$out"

if [[ "${FRONTIER_SKIP_NVCC:-0}" == 1 ]]; then
  echo "[frontier-cuda] FRONTIER_SKIP_NVCC=1: CUDA kernels not built" >&2
  exit 0
fi
nvcc="${NVCC:-}"
if [[ -z "$nvcc" ]]; then
  for c in "$(command -v nvcc || true)" /usr/local/cuda/bin/nvcc /usr/local/bin/nvcc; do
    if [[ -n "$c" && -x "$c" ]]; then nvcc="$c"; break; fi
  done
fi
if [[ -z "$nvcc" ]]; then
  echo "[frontier-cuda] WARNING: nvcc not found; CUDA kernels not built (the GPU backend will report it)" >&2
  exit 0
fi

flags=(-O3 -std=c++17 -fatbin
       -gencode arch=compute_80,code=sm_80
       -gencode arch=compute_90,code=sm_90
       -gencode arch=compute_90,code=compute_90)
pids=()
for cu in "$src"/*.cu; do
  name="$(basename "$cu" .cu)"
  target="$out/$name.fatbin"
  # rebuild when the .cu, a header or this script is newer than the fatbin
  if [[ -f "$target" ]] && [[ -z "$(find "$src" -newer "$target" \( -name '*.cu' -o -name '*.cuh' -o -name '*.sh' \))" ]]; then
    continue
  fi
  echo "[frontier-cuda] $nvcc $name.cu -> $target" >&2
  "$nvcc" "${flags[@]}" -o "$target.tmp" "$cu" && mv "$target.tmp" "$target" &
  pids+=($!)
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
# the index of what was built, read by the GPU engine (KernelModule.MODULES): written only when every module is there
if [[ $status == 0 ]]; then
  for cu in "$src"/*.cu; do basename "$cu" .cu; done | sort > "$out/modules.txt.tmp" && mv "$out/modules.txt.tmp" "$out/modules.txt"
fi
exit $status
