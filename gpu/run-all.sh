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
# With SCOPESIM_GPU_SUITE=litmus (or all) it runs the generated litmus tests
# (gpu/litmus/, the corpus's safety tests) instead of (or after) the models:
# first each test once, plainly, several at a time, under a short timeout, so
# that a test whose launch never finishes (a barrier that never completes) is
# found cheaply and recorded as "did not terminate"; then every other test for
# an equal share of the remaining time, in one process; and writes
#   OUT/litmus.jsonl      one JSON line per test: the outcome histogram
# (`scopesim litmus --gpu OUT/litmus.jsonl ...` compares it with the simulator).
#
# Usage: gpu/run-all.sh [OUT_DIR]   (default: $OUT, else ./gpu-results)
# Environment: SCOPESIM_GPU_BUDGET  seconds for everything, build included (default 540)
#              SCOPESIM_GPU_SUITE   models (default), litmus, or all (half the time each)
#              SCOPESIM_GPU_MODELS  space-separated models to run (default: every model)
#              SCOPESIM_GPU_LITMUS  space-separated litmus tests to run (default: every test)
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
run_models() {  # run_models END: until END seconds after the script's start
  if [ -n "${SCOPESIM_GPU_MODELS:-}" ]; then
    read -r -a models <<<"$SCOPESIM_GPU_MODELS"
  else
    mapfile -t models < <("$bin" --list)
  fi
  n=${#models[@]}
  say "${n} models"
  (( n > 0 )) || return 1

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
  left=$(( $1 - (SECONDS - script_start) ))
  per=$(( (left * 10 - 15 * n) / (10 * n) ))   # about 1.5 s per model for process start and set-up
  (( per < 1 )) && per=1
  say "runs: ${per}s per model"
  : >"$out/results.jsonl"
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
}

# ---- the litmus tests: probes, then the runs ----
run_litmus() {  # run_litmus END: until END seconds after the script's start
  local tests probe_s=5 t rc per n
  if [ -n "${SCOPESIM_GPU_LITMUS:-}" ]; then
    read -r -a tests <<<"$SCOPESIM_GPU_LITMUS"
  else
    mapfile -t tests < <("$bin" --list-litmus)
  fi
  n=${#tests[@]}
  say "${n} litmus tests"
  (( n > 0 )) || return 1
  # One plain instance of each, 8 at a time: exit 124/137 = the launch did not finish.
  mkdir -p "$work/probe"
  export bin work
  say "litmus probes (${probe_s}s each at most)"
  printf '%s\n' "${tests[@]}" | xargs -P 8 -I{} bash -c \
    'f="$work/probe/$(echo "$0" | tr "/+" "__")"; timeout -k 2 '"$probe_s"' "$bin" "$0" --plain --instances 1 >"$f.json" 2>"$f.err"; echo $? >"$f.rc"' {}
  local run=() hung=()
  for t in "${tests[@]}"; do
    rc="$(cat "$work/probe/$(echo "$t" | tr "/+" "__").rc" 2>/dev/null || echo -1)"
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then hung+=("$t"); else run+=("$t"); fi
  done
  : >"$out/litmus.jsonl"
  for t in "${hung[@]}"; do
    printf '{"model":"%s","error":"one plain instance did not finish within %s s","instances":0,"outcomes":[{"outcome":"did not terminate","count":1,"terminated":false}]}\n' \
      "$t" "$probe_s" >>"$out/litmus.jsonl"
    say "$t: did not finish within ${probe_s}s (probe)"
  done
  n=${#run[@]}
  (( n > 0 )) || return 0
  local left=$(( $1 - (SECONDS - script_start) ))
  per=$(( (left * 10 - 5 * n) / (10 * n) ))   # about 0.5 s per test for its set-up
  (( per < 1 )) && per=1
  say "litmus runs: ${per}s per test, ${n} tests in one process"
  # shellcheck disable=SC2086
  timeout -k 5 $(( n * (per + 2) + 60 )) "$bin" "${run[@]}" --seconds "$per" ${SCOPESIM_GPU_FLAGS:-} \
    >"$work/litmus.json" 2>"$work/litmus.err"
  rc=$?
  (( rc != 0 )) && say "litmus runs: exit $rc: $(tail -n 1 "$work/litmus.err")"
  # A test the batch did not report (the process died or hung) runs again alone.
  for t in "${run[@]}"; do
    if grep -qF "{\"model\":\"$t\"," "$work/litmus.json"; then
      grep -F "{\"model\":\"$t\"," "$work/litmus.json" >>"$out/litmus.jsonl"
      continue
    fi
    timeout -k 5 $(( per + 30 )) "$bin" "$t" --seconds "$per" >"$work/line.json" 2>"$work/line.err"
    rc=$?
    if [ -s "$work/line.json" ]; then
      cat "$work/line.json" >>"$out/litmus.jsonl"
    else
      printf '{"model":"%s","error":"harness exit %s: %s","outcomes":[],"instances":0}\n' "$t" "$rc" \
        "$(tail -n 1 "$work/line.err" | tr -d '"\\' | cut -c1-300)" >>"$out/litmus.jsonl"
      status=1
    fi
    say "$t alone: exit $rc"
  done
  say "litmus: $(wc -l <"$out/litmus.jsonl") lines"
}

status=0
suite="${SCOPESIM_GPU_SUITE:-models}"
case "$suite" in
  models) run_models "$budget" || status=1 ;;
  litmus) run_litmus "$budget" || status=1 ;;
  all)
    run_models $(( (SECONDS - script_start) + (budget - (SECONDS - script_start)) / 2 )) || status=1
    run_litmus "$budget" || status=1 ;;
  *) say "unknown SCOPESIM_GPU_SUITE '$suite' (models, litmus, all)"; exit 2 ;;
esac
say "done"
exit $status
