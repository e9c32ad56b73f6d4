#!/usr/bin/env bash
# Emits the CUDA code of every litmus test named by a verdict csv and compiles
# it with nvcc for the GPU: one translation unit holds every test, each in its
# own namespace with a kernel that calls its litmus_instance (so that ptxas
# checks every inline PTX instruction). Exit 77 (skipped) when nvcc is absent.
# Usage: cuda_compile.sh SCOPESIM NVCC ARCH CORPUS_DIR CSV
set -euo pipefail
scopesim=$1 nvcc=$2 arch=$3 corpus=$4 csv=$5
if [[ -z "$nvcc" || ! -x "$nvcc" ]]; then
  echo "SKIPPED: nvcc not found; the CUDA code of the litmus tests is not compiled"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=()
while IFS=, read -r path verdict; do
  [[ -z "$path" ]] && continue
  files+=("$corpus/${path#litmus/PTX/}")
done < "$csv"
# Tests outside the simulator's subset are reported as unsupported (exit 1); the rest are written.
"$scopesim" litmus --emit-cuda "$work/cu" "${files[@]}" > /dev/null 2> "$work/unsupported.txt" || true
tu="$work/all.cu"
n=0
for cu in "$work"/cu/*.cu; do
  meta="${cu%.cu}.json"
  # Arguments of litmus_instance: cta, thread, one pointer per location, results.
  nloc=$(grep -c '"parameter"' "$meta" || true)
  args="0u, 0u"
  for ((i = 0; i < nloc; ++i)); do args+=", cells"; done
  {
    echo "namespace t$n {"
    echo "#include \"$cu\""
    echo "__global__ void kernel(unsigned* cells) { litmus_instance($args, cells); }"
    echo "}"
  } >> "$tu"
  n=$((n + 1))
done
echo "compiling $n litmus tests for $arch"
"$nvcc" -std=c++20 -arch="$arch" -c "$tu" -o "$work/all.o"
echo "ok: $n tests compile; unsupported:"
cat "$work/unsupported.txt"
