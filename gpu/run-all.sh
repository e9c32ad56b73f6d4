#!/usr/bin/env bash
# The whole GPU cross-check in one call, on a machine with an NVIDIA GPU and the
# CUDA toolkit (nothing else): builds the harness (gpu/build.sh), runs every
# model under compute-sanitizer (racecheck, synccheck, memcheck), then runs
# every model on the GPU for an equal share of the remaining time, and writes
#   OUT/results.jsonl     one JSON line per model: the outcome histogram
#   OUT/sanitizer.log     every sanitizer report, one section per model and tool
#   OUT/environment.txt   nvidia-smi, nvcc and compute-sanitizer versions
#   OUT/run.log           this script's log
# One model that fails, hangs or crashes costs only its own line (each runs in
# its own process under `timeout`).
#
# Usage: gpu/run-all.sh [OUT_DIR]   (default: $OUT, else ./gpu-results)
# Environment: SCOPESIM_GPU_BUDGET  seconds for everything, build included (default 540)
#              SCOPESIM_GPU_MODELS  space-separated models to run (default: every model)
#              SCOPESIM_GPU_ARCH    nvcc -arch (default sm_90)
#              SCOPESIM_GPU_BIN     a harness already built (skips the build)
#              SCOPESIM_GPU_FLAGS   extra harness options for the main runs
set -u
script_start=$SECONDS
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-${OUT:-$root/gpu-results}}"
budget="${SCOPESIM_GPU_BUDGET:-540}"
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
exec > >(tee "$out/run.log") 2>&1
say() { echo "run-all [$((SECONDS - script_start))s] $*"; }

export PATH="${CUDA_HOME:-/usr/local/cuda}/bin:$PATH"
{
  echo "## nvidia-smi"; nvidia-smi 2>&1
  echo "## nvcc"; nvcc --version 2>&1
  echo "## compute-sanitizer"; compute-sanitizer --version 2>&1
  echo "## uname"; uname -a
} >"$out/environment.txt"

# ---- build ----
bin="${SCOPESIM_GPU_BIN:-}"
if [ -z "$bin" ]; then
  say "building"
  if ! bash "$root/gpu/build.sh" "$work/build" "${SCOPESIM_GPU_ARCH:-sm_90}"; then
    say "build failed"
    exit 1
  fi
  bin="$work/build/scopesim-gpu"
fi
if [ -n "${SCOPESIM_GPU_MODELS:-}" ]; then
  read -r -a models <<<"$SCOPESIM_GPU_MODELS"
else
  mapfile -t models < <("$bin" --list)
fi
n=${#models[@]}
say "${n} models"
(( n > 0 )) || exit 1

# ---- sanitizers: one plain instance of each model under each tool, in parallel ----
sanitize() {  # sanitize MODEL TOOL -> a section of the sanitizer log
  local m="$1" tool="$2" extra=() rc
  [ "$tool" = racecheck ] && extra=(--racecheck-report analysis)
  timeout -k 5 90 compute-sanitizer --tool "$tool" "${extra[@]}" --print-limit 50 \
    "$bin" "$m" --plain --instances 1 --timeout-ms 1000 >"$work/san/$m.$tool.txt" 2>&1
  rc=$?
  { echo "#### scopesim-sanitizer model=$m tool=$tool exit=$rc"; cat "$work/san/$m.$tool.txt"; } \
    >"$work/san/$m.$tool.section"
}
export -f sanitize
export bin work
mkdir -p "$work/san"
if command -v compute-sanitizer >/dev/null; then
  say "sanitizers"
  for m in "${models[@]}"; do for t in racecheck synccheck memcheck; do echo "$m $t"; done; done |
    xargs -P 12 -L 1 bash -c 'sanitize "$0" "$1"'
  for m in "${models[@]}"; do for t in racecheck synccheck memcheck; do
    cat "$work/san/$m.$t.section" 2>/dev/null || echo "#### scopesim-sanitizer model=$m tool=$t exit=-1"
  done; done >"$out/sanitizer.log"
else
  say "no compute-sanitizer: sanitizer.log is empty"
  : >"$out/sanitizer.log"
fi

# ---- the GPU runs: an equal share of what is left ----
left=$(( budget - (SECONDS - script_start) ))
per=$(( (left * 10 - 15 * n) / (10 * n) ))   # about 1.5 s per model for process start and set-up
(( per < 1 )) && per=1
say "runs: ${per}s per model"
: >"$out/results.jsonl"
status=0
for m in "${models[@]}"; do
  # shellcheck disable=SC2086
  timeout -k 5 $(( per + 90 )) "$bin" "$m" --seconds "$per" ${SCOPESIM_GPU_FLAGS:-} \
    >"$work/line.json" 2>"$work/line.err"
  rc=$?
  if [ -s "$work/line.json" ]; then
    cat "$work/line.json" >>"$out/results.jsonl"
  else
    reason="$(tail -n 1 "$work/line.err" | tr -d '"\\' | cut -c1-300)"
    printf '{"model":"%s","error":"harness exit %s: %s","outcomes":[],"instances":0}\n' "$m" "$rc" "$reason" \
      >>"$out/results.jsonl"
  fi
  (( rc != 0 )) && status=1
  say "$m exit $rc: $(grep -o '"instances":[0-9]*' "$work/line.json" | head -1)"
done
say "done"
exit $status
