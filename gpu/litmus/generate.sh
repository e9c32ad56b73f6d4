#!/usr/bin/env bash
# Writes gpu/litmus/: every safety test of the corpus (the files that
# tests/conformance/dat3m-ptx/expected-safety.csv names) as a model of the GPU
# harness, with `scopesim litmus --emit-cuda` (sim/litmus/cuda.hpp), plus
# all.cu, the one translation unit the harness build compiles. Tests the
# simulator does not support (threads on two GPUs) are left out. The files are
# committed because a GPU machine cannot build scopesim; with --check nothing
# is written and the exit code says whether the committed files are current
# (the ctest litmus_cuda_current).
# Usage: gpu/litmus/generate.sh SCOPESIM [--check]
set -euo pipefail
scopesim="$(realpath "${1:?usage: gpu/litmus/generate.sh SCOPESIM [--check]}")"
check="${2:-}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
files=()
while IFS=, read -r path verdict; do
  [[ -z "$path" ]] && continue
  files+=("tests/conformance/dat3m-ptx/${path#litmus/PTX/}")
done < tests/conformance/dat3m-ptx/expected-safety.csv
# Exit 1: some tests are unsupported (reported on stderr, not written); 2: an error.
rc=0
"$scopesim" litmus --emit-cuda "$work/litmus" "${files[@]}" > /dev/null 2> "$work/unsupported.txt" || rc=$?
if (( rc > 1 )); then
  cat "$work/unsupported.txt" >&2
  exit 2
fi
cp gpu/litmus/generate.sh "$work/litmus/"
if [[ "$check" == "--check" ]]; then
  if diff -r "$work/litmus" gpu/litmus > "$work/diff.txt"; then
    echo "gpu/litmus is current ($(find gpu/litmus -name '*.cu' | wc -l) files)"
    exit 0
  fi
  head -n 40 "$work/diff.txt"
  echo "gpu/litmus is out of date: run gpu/litmus/generate.sh SCOPESIM and commit the result" >&2
  exit 1
fi
find gpu/litmus -mindepth 1 ! -name generate.sh -delete
cp -r "$work/litmus/." gpu/litmus/
echo "wrote gpu/litmus ($(find gpu/litmus -name '*.cu' | wc -l) files); not written:"
cat "$work/unsupported.txt"
