#!/usr/bin/env bash
# The GPU harness on this machine's GPU: one litmus model and one chapter kernel run there through
# `scopesim gpu`, their lines read back by `scopesim compare` (no soundness failure: every outcome
# the GPU showed is one the model permits). Where there is no GPU (CI), the test is skipped, saying
# why (exit 77, ctest's SKIP_RETURN_CODE). Usage: gpu_smoke_test.sh SCOPESIM SCOPESIM_GPU
set -u
if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
  echo "usage: $(basename "$0") PATH_TO_SCOPESIM PATH_TO_SCOPESIM_GPU" >&2
  exit 2
fi
bin=$(realpath "$1") harness=$(realpath "$2")  # (absolute: the test runs in a directory of its own)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

models=(litmus.SB.xcta publish.block_acqrel)
"$bin" gpu "${models[@]}" --harness "$harness" --instances 20000 --seconds 2 >results.jsonl 2>err.txt
code=$?
if [ "$code" -eq 2 ] && grep -q "no CUDA GPU here" err.txt; then
  echo "skip: the GPU tests need a CUDA GPU: $(grep -m1 "no CUDA GPU here" err.txt)"
  exit 77
fi
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
[ "$code" -eq 0 ] || fail "scopesim gpu: exit $code, expected 0 (every model ran); $(cat err.txt)"
[ "$(wc -l <results.jsonl)" -eq ${#models[@]} ] || fail "scopesim gpu: not one line per model: $(cat results.jsonl)"
"$bin" compare "${models[@]}" --gpu results.jsonl >report.txt 2>err.txt
code=$?
[ "$code" -eq 0 ] || fail "compare: exit $code, expected 0 (no soundness failure, no failed run); $(cat report.txt err.txt)"
for m in "${models[@]}"; do
  grep -qE "^$m <<<[0-9]+,[0-9]+>>>: simulator [0-9]+ executions \(complete\); GPU [0-9]+ instances" report.txt ||
    fail "compare: no complete comparison of $m: $(cat report.txt)"
done
grep -q "SOUNDNESS FAILURE" report.txt && fail "the GPU showed an outcome the model forbids: $(cat report.txt)"
echo "$fails failed"
[ "$fails" -eq 0 ]
