#!/usr/bin/env bash
# End-to-end tests of how `scopesim compare`, `scopesim litmus --gpu` and
# `scopesim gpu` take GPU results and options: bad input is one line naming
# the file, the line and the field (exit 2), never read as something else.
# Usage: compare_cli_test.sh PATH_TO_SCOPESIM
source "$(dirname "$0")/cli_support.sh"
expect_err() {  # expect_err DESCRIPTION LINE: stderr is exactly LINE
  [ "$(cat err.txt)" = "$2" ] && pass || fail "$1: stderr is '$(cat err.txt)', expected '$2'"
}

results="$repo/docs/gpu/results.jsonl"
grep '"litmus.SB.xcta"' "$results" >sb.jsonl
sb=$(cat sb.jsonl)
# SB across blocks observes r0 and r1, each 0 or 1: r0=5 is an outcome the model forbids (its
# first outcome, r0=0 r1=1, made r0=5 r1=1 in its values and its text alike).
forbidden=$(sed 's/"outcome":"r0=0 r1=1"/"outcome":"r0=5 r1=1"/; s/"bits":0/"bits":5/' sb.jsonl)
grep -qF '"outcome":"r0=5 r1=1","count":' <<<"$forbidden" && grep -qF '"r0","type":"i32","bits":5}' <<<"$forbidden" &&
  pass || fail "the forbidden line was not made"

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
# A budget is a whole number, read as explore reads it: never clamped, never CLI11's own words.
expect_code 2 "compare with a budget past 2^64" -- "$bin" compare litmus.SB.xcta --gpu sb.jsonl \
  --max-executions 99999999999999999999999
expect_err "a budget past 2^64" "scopesim: --max-executions: must be at most 18446744073709551615, got \
99999999999999999999999 (see 'scopesim compare --help')"
expect_code 2 "compare with a budget of 1e5" -- "$bin" compare litmus.SB.xcta --gpu sb.jsonl --max-executions 1e5
expect_err "a budget of 1e5" \
  "scopesim: --max-executions: must be a whole number, 0 or more, got '1e5' (see 'scopesim compare --help')"

# The GPU's values are those the model observes, each of the type it observes: publish.relaxed
# observes error, an int. Anything else is malformed input (exit 2, the file, the line and what is
# wrong), never an outcome the model forbids (a soundness failure, exit 1).
grep '"model":"publish.relaxed"' "$results" >publish.jsonl
malformed() {  # malformed FILE WHAT [--json]: compare exits 2 with one line on stderr naming FILE:1 and WHAT
  local file=$1 what=$2; shift 2
  expect_code 2 "compare: $what" -- "$bin" compare publish.relaxed --gpu "$file" "$@"
  expect_err "compare: $what" "scopesim: $file:1: $what"
}
observes=" (the model observes error)"
python3 - <<'PY'
import json
line = json.loads(open("publish.jsonl").read())
assert [v["name"] for v in line["outcomes"][0]["values"]] == ["error"], line["outcomes"][0]
def write(name, change):
    l = json.loads(json.dumps(line))
    change(l["outcomes"][0])
    open(name, "w").write(json.dumps(l) + "\n")
write("nosuch.jsonl", lambda o: o["values"][0].update(name="nosuch"))
write("novalues.jsonl", lambda o: o.update(values=[]))
write("f64.jsonl", lambda o: o["values"][0].update(type="f64"))
write("text.jsonl", lambda o: o.update(outcome=o["outcome"].replace("error=0", "error=1")))
write("wide.jsonl", lambda o: o["values"][0].update(bits=2**32 + 7))
write("minus-one.jsonl", lambda o: (o["values"][0].update(bits=2**32 - 1), o.update(outcome="error=-1")))
PY
malformed nosuch.jsonl "publish.relaxed: 'outcomes[0]' has no value of error$observes"
malformed novalues.jsonl "publish.relaxed: 'outcomes[0]' has no value of error$observes"
malformed f64.jsonl "publish.relaxed: 'outcomes[0]' has error of another type than i32$observes"
malformed text.jsonl "publish.relaxed: 'outcomes[0]' says 'error=1', but its values are 'error=0'$observes"
# A value's bits fit its type: an i32's are its 32 bits (-1 is 2^32-1, as the harness writes it), never cut.
malformed wide.jsonl \
  "'outcomes[0].values[0].bits' must be 0 to 4294967295 for error, an i32 (its 32 bits: -1 is 4294967295), not 4294967303"
# With --json the error is also the one JSON object on stdout.
malformed nosuch.jsonl "publish.relaxed: 'outcomes[0]' has no value of error$observes" --json
python3 -c 'import json, sys; j = json.load(open("out.txt")); assert j == {"error": sys.argv[1]}, j' \
  "nosuch.jsonl:1: publish.relaxed: 'outcomes[0]' has no value of error$observes" && pass ||
  fail "compare --json: the malformed line is not {\"error\": ...} on stdout: $(cat out.txt)"
# 2^32-1 is the i32 -1, an outcome publish.relaxed never has (error is 0 or 1): a soundness failure.
expect_code 1 "compare with error=-1" -- "$bin" compare publish.relaxed --gpu minus-one.jsonl
grep -qx "SOUNDNESS FAILURE: publish.relaxed: the GPU showed 'error=-1', which the simulator does not permit" out.txt &&
  pass || fail "error=-1 is not read as -1"

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
expect_err "litmus --gpu names the file and line once" \
  "scopesim: dup-cta.jsonl:2: a second line for 'litmus/Nvidia/SB-cta' (the first is line 1)"
expect_code 2 "compare as JSON and Markdown at once" -- "$bin" compare --all --gpu sb.jsonl --json --markdown
# litmus --gpu: an outcome's values are the ones the test observes, each once.
sed 's/"values":\[/"values":[{"name":"x","type":"i32","bits":0},/' sb-cta.jsonl >extra.jsonl
expect_code 2 "litmus --gpu with a value the test does not observe" -- \
  "$bin" litmus --no-schedules --gpu extra.jsonl "$test_file"
grep -qF "has a value of x, which the test does not observe" err.txt && pass || fail "litmus --gpu takes an extra value"
sed 's/"values":\[/"values":[{"name":"P1:r1","type":"i32","bits":0},/' sb-cta.jsonl >twice.jsonl
expect_code 2 "litmus --gpu with a value twice" -- "$bin" litmus --no-schedules --gpu twice.jsonl "$test_file"
grep -qF "'outcomes[0].values' names 'P1:r1' twice" err.txt && pass || fail "litmus --gpu takes a value twice"
[ "$(wc -l <err.txt)" -eq 1 ] && pass || fail "litmus --gpu's error is more than one line"
# litmus --gpu: a value's bits fit its type (the test's registers and locations are i32): 2^40 is no
# i32 (not 0), nor is 2^32+2 (not 2, which would repeat another outcome of SB-cta).
for bits in 1099511627776 4294967298; do
  sed "s/\"bits\":0/\"bits\":$bits/" sb-cta.jsonl >wide-cta.jsonl
  expect_code 2 "litmus --gpu with bits $bits" -- "$bin" litmus --no-schedules --gpu wide-cta.jsonl "$test_file"
  grep -qxF "scopesim: wide-cta.jsonl:1: 'outcomes[0].values[0].bits' must be 0 to 4294967295 for P0:r0, an i32 (its 32 \
bits: -1 is 4294967295), not $bits" err.txt && pass || fail "litmus --gpu with bits $bits: $(cat err.txt)"
done
# litmus --gpu: an outcome's text is that of its values.
sed 's/"outcome":"P0:r0=0 P1:r1=1"/"outcome":"P0:r0=1 P1:r1=1"/' sb-cta.jsonl >text-cta.jsonl
expect_code 2 "litmus --gpu with a text that is not its values'" -- "$bin" litmus --no-schedules --gpu text-cta.jsonl "$test_file"
grep -qF "'outcomes[0]' says 'P0:r0=1 P1:r1=1', but its values are 'P0:r0=0 P1:r1=1'" err.txt && pass ||
  fail "litmus --gpu takes a text that is not its values': $(cat err.txt)"
# Values are known by name: the same outcome with its values in another order is the same outcome.
sed 's/"values":\[\({[^}]*}\),\({[^}]*}\)\]/"values":[\2,\1]/' sb-cta.jsonl >swapped.jsonl
cmp -s swapped.jsonl sb-cta.jsonl && fail "the values were not swapped" || pass
expect_code 0 "litmus --gpu with values in another order" -- "$bin" litmus --no-schedules --gpu swapped.jsonl "$test_file"

# Nothing above shows a parser's own exception text.
for f in *.jsonl; do
  "$bin" compare --all --gpu "$f" --max-executions 1 >/dev/null 2>err.txt
  grep -q "json.exception" err.txt && fail "$f: raw exception text: $(cat err.txt)" || pass
done

# Ctrl-C (exactly one SIGINT, to the job alone) stops the exploration it lands in: counter.plain's
# 128 plain increments take an unbounded exhaustive search hours. Its row is printed, incomplete and
# stopped by interrupt; publish.relaxed, after it, is not compared, which stderr says; exit 1, as
# exit 0 would claim a full comparison. (--time-limit bounds it should Ctrl-C not stop it.)
interrupted() {  # interrupted OUT ARGS...: compare ARGS in the background, one SIGINT after a second
  local out=$1; shift
  set -m  # the job in a process group of its own, where SIGINT is not ignored
  "$bin" compare counter.plain publish.relaxed --gpu "$results" --max-executions 0 --time-limit 30 "$@" >"$out" 2>err.txt &
  local pid=$!
  set +m
  sleep 1
  kill -INT "$pid"
  wait "$pid"
}
interrupted int.txt
code=$?
[ "$code" -eq 1 ] && pass || fail "compare after Ctrl-C: exit $code, expected 1 (a model left out); $(cat err.txt)"
grep -qE '^counter.plain <<<2,64>>>: simulator [0-9]+ executions \(INCOMPLETE, stopped by interrupt: only bad outcomes of a model that forbids them count as failures\)' int.txt &&
  pass || fail "compare after Ctrl-C: the stopped model's row is not incomplete, stopped by interrupt"
grep -q "^publish.relaxed .*simulator" int.txt && fail "compare after Ctrl-C: the model after it was compared" || pass
grep -qx "1 models: 0 soundness failure(s), 0 failed GPU run(s), .*, 1 model(s) not compared (interrupted)" int.txt &&
  pass || fail "compare after Ctrl-C: no summary of the one model compared and the one left out"
grep -q "^publish.relaxed <<<.*>>>: not compared (interrupted before its turn)$" int.txt && pass ||
  fail "compare after Ctrl-C: the model left out is not listed as such"
[ "$(cat err.txt)" = "scopesim: interrupted: 1 of 2 model(s) compared, the rest not run" ] && pass ||
  fail "compare after Ctrl-C: stderr is '$(cat err.txt)'"
interrupted int.json --json
code=$?
[ "$code" -eq 1 ] && pass || fail "compare --json after Ctrl-C: exit $code, expected 1"
python3 -c '
import json
(c, n) = json.load(open("int.json"))
assert c["model"] == "counter.plain" and c["stopped_by"] == "interrupt" and not c["complete"], c
assert c["unsound"] == [] and not c["not_run"], c
assert n["model"] == "publish.relaxed" and n["not_run"] and not n["explored"] and n["outcomes"] == [], n
' && pass || fail "compare --json after Ctrl-C: $(head -c 300 int.json)"

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

finish
