#!/usr/bin/env bash
# End-to-end tests of how `scopesim compare`, `scopesim litmus --gpu` and
# `scopesim gpu` take GPU results and options: bad input is one line naming
# the file, the line and the field (exit 2), never read as something else.
# Usage: compare_cli_test.sh PATH_TO_SCOPESIM
set -u
if [ $# -ne 1 ] || [ ! -x "$1" ]; then echo "usage: compare_cli_test.sh PATH_TO_SCOPESIM" >&2; exit 2; fi
bin=$(realpath "$1")  # the tests run in a scratch directory
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fails=0 passes=0
pass() { passes=$((passes + 1)); }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect_code() {  # expect_code CODE DESCRIPTION -- command...
  local want=$1 what=$2; shift 3
  "$@" >out.txt 2>err.txt
  local got=$?
  if [ "$got" -eq "$want" ]; then pass; else fail "$what: exit $got, expected $want"; cat err.txt; fi
}
expect_err() {  # expect_err DESCRIPTION LINE: stderr is exactly LINE
  [ "$(cat err.txt)" = "$2" ] && pass || fail "$1: stderr is '$(cat err.txt)', expected '$2'"
}

results="$repo/docs/gpu/results.jsonl"
grep '"litmus.SB.xcta"' "$results" >sb.jsonl
sb=$(cat sb.jsonl)
# SB across blocks observes r0 and r1, each 0 or 1: r0=5 is an outcome the model forbids.
forbidden=$(sed 's/"bits":[01]/"bits":5/' sb.jsonl)

# A second line of a model is refused, naming both lines, whichever comes first.
printf '%s\n%s\n' "$forbidden" "$sb" >dup.jsonl
expect_code 2 "compare with two lines of a model" -- "$bin" compare litmus.SB.xcta --gpu dup.jsonl
expect_err "two lines of a model" "scopesim: dup.jsonl:2: a second line for 'litmus.SB.xcta' (the first is line 1)"
# The forbidden line alone is a soundness failure: what the second line would have hidden.
printf '%s\n' "$forbidden" >forbidden.jsonl
expect_code 1 "compare with a forbidden outcome" -- "$bin" compare litmus.SB.xcta --gpu forbidden.jsonl

# No line is no results.
: >empty.jsonl
expect_code 2 "compare with an empty file" -- "$bin" compare --all --gpu empty.jsonl
expect_err "an empty file" "scopesim: empty.jsonl: no GPU results (no line)"
expect_code 2 "compare with /dev/null" -- "$bin" compare --all --gpu /dev/null
expect_err "/dev/null" "scopesim: /dev/null: no GPU results (no line)"

# A line of a model this build does not have is not compared, and says so on stderr.
printf '%s\n%s\n' "$sb" "$(sed 's/"litmus.SB.xcta"/"no.such.model"/' sb.jsonl)" >unknown.jsonl
expect_code 0 "compare with a line of an unknown model" -- "$bin" compare litmus.SB.xcta --gpu unknown.jsonl
expect_err "a line of an unknown model" \
  "scopesim: warning: unknown.jsonl:2: no model 'no.such.model' in this build; its line is not compared"

# The GPU line must be of the launch the simulator explores: SB across blocks is <<<2,1>>>.
sed 's/"grid":2/"grid":3/' sb.jsonl >launch.jsonl
expect_code 2 "compare with another launch" -- "$bin" compare litmus.SB.xcta --gpu launch.jsonl
expect_err "another launch" \
  "scopesim: launch.jsonl:1: litmus.SB.xcta ran as <<<3,1>>> on the GPU, but the simulator explores its launch <<<2,1>>>"

# Counts are non-negative integers; a line that ran ran some instances.
sed 's/"count":[0-9]*/"count":-5/' sb.jsonl >negative.jsonl
expect_code 2 "compare with a negative count" -- "$bin" compare litmus.SB.xcta --gpu negative.jsonl
expect_err "a negative count" "scopesim: negative.jsonl:1: 'outcomes[0].count' must be a non-negative integer"
sed 's/"instances":[0-9]*/"instances":-5/' sb.jsonl >negative.jsonl
expect_code 2 "compare with negative instances" -- "$bin" compare litmus.SB.xcta --gpu negative.jsonl
expect_err "negative instances" "scopesim: negative.jsonl:1: 'instances' must be a non-negative integer"
sed 's/"instances":[0-9]*/"instances":0/' sb.jsonl >zero.jsonl
expect_code 2 "compare with 0 instances" -- "$bin" compare litmus.SB.xcta --gpu zero.jsonl
expect_err "0 instances" "scopesim: zero.jsonl:1: 'instances' must be more than 0 in a line without 'error'"
sed 's/^{/{"error":5,/' sb.jsonl >error-number.jsonl
expect_code 2 "compare with a number for 'error'" -- "$bin" compare litmus.SB.xcta --gpu error-number.jsonl
expect_err "a number for 'error'" "scopesim: error-number.jsonl:1: 'error' must be a string"

# A failed GPU run is reported as failed, first after soundness failures, and exits 1.
sed 's/^{/{"error":"launch failed",/' sb.jsonl >failed.jsonl
expect_code 1 "compare with a failed GPU run" -- "$bin" compare litmus.SB.xcta --gpu failed.jsonl
[ "$(head -1 out.txt)" = "GPU RUN FAILED: litmus.SB.xcta: launch failed" ] && pass || fail "the failed run is not reported first"

# A model without a GPU line is not explored, and says so.
expect_code 0 "compare a model without a GPU line" -- "$bin" compare litmus.SB.xcta litmus.CoRW --gpu sb.jsonl
grep -qE '^litmus.CoRW <<<[0-9]+,[0-9]+>>>: no GPU result \(not explored\)$' out.txt && pass ||
  fail "a model without a GPU line does not say it was not explored"
grep -q "^litmus.CoRW.*executions" out.txt && fail "a model without a GPU line reports executions" || pass

# MODEL... and --all exclude each other.
expect_code 2 "compare --all MODEL" -- "$bin" compare --all litmus.SB.xcta --gpu sb.jsonl
expect_err "compare --all MODEL" "scopesim: compare takes MODEL... or --all, not both"

# The Markdown report names the command that made it.
cp sb.jsonl "my results.jsonl"
expect_code 0 "compare --markdown" -- "$bin" compare litmus.SB.xcta --gpu "my results.jsonl" --max-executions 3 --markdown
grep -qF "Generated by \`scopesim compare litmus.SB.xcta --gpu 'my results.jsonl' --max-executions 3 --markdown\` from" out.txt &&
  pass || fail "the Markdown report does not name its command"

# An execution budget, not a time, bounds each model: counter.plain (128 plain
# increments) has far more than 20 executions, and stops at 20 on any machine.
expect_code 0 "compare with a budget" -- "$bin" compare counter.plain --gpu "$results" --max-executions 20
cp out.txt budget1.txt
grep -qF "counter.plain <<<2,64>>>: simulator 20 executions (INCOMPLETE, stopped by max-executions" out.txt && pass ||
  fail "compare does not stop at --max-executions"
"$bin" compare counter.plain --gpu "$results" --max-executions 20 >budget2.txt 2>&1
cmp -s budget1.txt budget2.txt && pass || fail "compare with a budget is not byte-identical"
expect_code 2 "compare with a negative budget" -- "$bin" compare litmus.SB.xcta --gpu sb.jsonl --max-executions -5

# litmus --gpu reads the same lines: a second line of a test is refused.
test_file="$repo/tests/conformance/dat3m-ptx/Nvidia/SB-cta.litmus"
grep '"litmus/Nvidia/SB-cta"' "$repo/docs/gpu/litmus.jsonl" >sb-cta.jsonl
cat sb-cta.jsonl sb-cta.jsonl >dup-cta.jsonl
# litmus --gpu --json carries the comparison: SB-cta's GPU line, every outcome permitted (none
# unsound), its counts adding up to its instances as in the line.
"$bin" litmus --no-schedules --json --gpu sb-cta.jsonl "$test_file" >lg.json 2>err.txt
python3 - lg.json sb-cta.jsonl <<'PY' 2>err.txt && pass || fail "litmus --gpu --json comparison: $(cat err.txt)"
import json, sys
gpu = json.load(open(sys.argv[1]))["gpu"]
line = json.loads(open(sys.argv[2]).read())
(t,) = gpu["tests"]
assert t["model"] == "litmus/Nvidia/SB-cta" and t["unsound"] == []
assert t["gpu_instances"] == line["instances"]
assert sum(o["gpu_count"] for o in t["outcomes"]) == sum(o["count"] for o in line["outcomes"])
assert all(o["permitted"] for o in t["outcomes"] if o["gpu_count"] > 0)
PY
expect_code 2 "litmus --gpu with two lines of a test" -- "$bin" litmus --no-schedules --gpu dup-cta.jsonl "$test_file"
grep -qF "dup-cta.jsonl:2: a second line for 'litmus/Nvidia/SB-cta' (the first is line 1)" err.txt && pass ||
  fail "litmus --gpu does not refuse a second line"
# litmus --gpu: an outcome's values are the ones the test observes, each once.
sed 's/"values":\[/"values":[{"name":"x","type":"i32","bits":0},/' sb-cta.jsonl >extra.jsonl
expect_code 2 "litmus --gpu with a value the test does not observe" -- \
  "$bin" litmus --no-schedules --gpu extra.jsonl "$test_file"
grep -qF "has a value of x, which the test does not observe" err.txt && pass || fail "litmus --gpu takes an extra value"
sed 's/"values":\[/"values":[{"name":"P1:r1","type":"i32","bits":0},/' sb-cta.jsonl >twice.jsonl
expect_code 2 "litmus --gpu with a value twice" -- "$bin" litmus --no-schedules --gpu twice.jsonl "$test_file"
grep -qF "'outcomes[0].values' names 'P1:r1' twice" err.txt && pass || fail "litmus --gpu takes a value twice"
[ "$(wc -l <err.txt)" -eq 1 ] && pass || fail "litmus --gpu's error is more than one line"
# Values are known by name: the same outcome with its values in another order is the same outcome.
sed 's/"values":\[\({[^}]*}\),\({[^}]*}\)\]/"values":[\2,\1]/' sb-cta.jsonl >swapped.jsonl
cmp -s swapped.jsonl sb-cta.jsonl && fail "the values were not swapped" || pass
expect_code 0 "litmus --gpu with values in another order" -- "$bin" litmus --no-schedules --gpu swapped.jsonl "$test_file"

# Nothing above shows a parser's own exception text.
for f in *.jsonl; do
  "$bin" compare --all --gpu "$f" --max-executions 1 >/dev/null 2>err.txt
  grep -q "json.exception" err.txt && fail "$f: raw exception text: $(cat err.txt)" || pass
done

# gpu: --instances is a whole number the harness reads exactly (through a double: up to 2^53).
for n in 0.4 1e30 nan 0 -5 9007199254740993; do
  expect_code 2 "gpu --instances $n" -- "$bin" gpu litmus.SB.xcta --instances "$n"
  [ "$(wc -l <err.txt)" -eq 1 ] && grep -q "instances" err.txt && pass || fail "gpu --instances $n: $(cat err.txt)"
done
expect_code 2 "gpu --seconds inf" -- "$bin" gpu litmus.SB.xcta --seconds inf
expect_code 2 "gpu --all MODEL" -- "$bin" gpu --all litmus.SB.xcta
expect_err "gpu --all MODEL" "scopesim: gpu takes MODEL... or --all, not both"
expect_code 2 "gpu with a missing harness" -- "$bin" gpu litmus.SB.xcta --harness ./no-such-harness
expect_err "a missing harness" "scopesim: the GPU harness './no-such-harness' does not exist"
printf '#!/bin/sh\n' >not-executable
expect_code 2 "gpu with a harness that is not executable" -- "$bin" gpu litmus.SB.xcta --harness ./not-executable
expect_err "a harness that is not executable" "scopesim: the GPU harness './not-executable' is not executable"

# A harness that lists one model and one litmus test and records what it is asked.
cat >harness <<'EOF'
#!/bin/sh
case "$1" in
  --list) echo litmus.SB.xcta; exit 0 ;;
  --list-litmus) echo litmus/Nvidia/SB-cta; exit 0 ;;
esac
echo "$*" >harness-args.txt
EOF
chmod +x harness
expect_code 0 "gpu with a harness" -- "$bin" gpu litmus.SB.xcta litmus/Nvidia/SB-cta --instances 9007199254740992 --harness ./harness
[ "$(cat harness-args.txt)" = "litmus.SB.xcta litmus/Nvidia/SB-cta --instances 9007199254740992" ] && pass ||
  fail "the harness is asked '$(cat harness-args.txt)'"
expect_code 2 "gpu with an unknown model" -- "$bin" gpu nope --harness ./harness
expect_err "an unknown model" "scopesim: unknown model 'nope' (see 'scopesim-gpu --list' and 'scopesim-gpu --list-litmus')"
expect_code 2 "gpu with a model the harness does not run" -- "$bin" gpu publish.host_consumer --harness ./harness
grep -q "^scopesim: model 'publish.host_consumer' does not run on the GPU: " err.txt && pass ||
  fail "gpu does not say why a model does not run on the GPU: $(cat err.txt)"

echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
