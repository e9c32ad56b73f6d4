#!/usr/bin/env bash
# Builds the GPU harness, scopesim-gpu, from the CUDA toolkit alone (nvcc; no
# CMake package, no other library): every model source under models/, the
# registry, the outcome formatting of sim/core, gpu/*.cu and the generated
# litmus tests (gpu/litmus/all.cu).
# Usage: gpu/build.sh BUILD_DIR [ARCH]   (ARCH default sm_90)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:?usage: gpu/build.sh BUILD_DIR [ARCH]}"
arch="${2:-sm_90}"
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
mkdir -p "$build/obj"
flags=(-std=c++20 -arch="$arch" -O2 -lineinfo --expt-relaxed-constexpr -DSCOPESIM_GPU_HARNESS
       "-DSCOPESIM_CUDA_ARCH_NAME=\"$arch\"" -I"$root")

# Every model family is picked up: models/<family>/*.cpp (the dialect is not a family).
sources=()
for f in "$root"/models/*/*.cpp; do
  case "$f" in */models/dialect/*) continue ;; esac
  sources+=("$f")
done
sources+=("$root/models/registry.cpp" "$root/sim/core/event.cpp" "$root/gpu/host.cu" "$root/gpu/harness.cu")
# The generated litmus tests, one translation unit (gpu/litmus/generate.sh).
sources+=("$root/gpu/litmus/all.cu")

compile() {  # compile SOURCE: one object per source, named after its path
  local src="$1" rel obj
  rel="${src#"$root"/}"
  obj="$build/obj/${rel//\//_}.o"
  "$nvcc" "${flags[@]}" -x cu -c "$src" -o "$obj"
}
export -f compile
export nvcc root build
jobs="$(nproc 2>/dev/null || echo 4)"
status=0
pids=()
for src in "${sources[@]}"; do
  while (( $(jobs -rp | wc -l) >= jobs )); do wait -n || status=1; done
  compile "$src" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
if (( status != 0 )); then
  echo "gpu/build.sh: compilation failed" >&2
  exit 1
fi
objects=()
for src in "${sources[@]}"; do
  rel="${src#"$root"/}"
  objects+=("$build/obj/${rel//\//_}.o")
done
"$nvcc" -arch="$arch" "${objects[@]}" -o "$build/scopesim-gpu"
echo "gpu/build.sh: built $build/scopesim-gpu (${#sources[@]} sources, $arch)"
