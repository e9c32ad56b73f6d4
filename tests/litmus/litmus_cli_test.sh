#!/usr/bin/env bash
# `scopesim litmus` end to end. Usage: litmus_cli_test.sh SCOPESIM DIR (DIR: tests/litmus).
# Expected verdicts (semantics.md, verdict table): MP-gpu row 1 (stale data
# forbidden: the exists does not hold), MP-cta row 3 (permitted: it holds).
set -uo pipefail
scopesim=$1
data=$2/data
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail=0
check() {  # check NAME EXPECTED_RC ACTUAL_RC
  if [[ "$2" != "$3" ]]; then echo "FAIL: $1: exit $3, expected $2"; fail=1; else echo "ok: $1"; fi
}
contains() {  # contains NAME FILE TEXT
  if grep -qF -- "$3" "$2"; then echo "ok: $1"; else echo "FAIL: $1: '$3' not in output:"; cat "$2"; fail=1; fi
}

"$scopesim" litmus "$data/MP-gpu.litmus" "$data/MP-cta.litmus" > out.txt 2> err.txt
check "two supported tests run" 0 $?
contains "MP-gpu does not hold" out.txt "verdict:   does not hold"
contains "MP-cta holds" out.txt "verdict:   holds"
contains "MP-cta witness" out.txt "witness: token v1:"
contains "outcomes over the condition's registers" out.txt "P1:r0=1 P1:r1=0  [condition]"
schedule=$(ls scopesim-schedules/litmus.MP-cta.*.schedule | head -1)
[[ -f "$schedule" ]]; check "witness schedule written" 0 $?

"$scopesim" litmus "$data/MP-cta.litmus" --replay "$schedule" > replay.txt 2>&1
check "replay of the witness shows its bad outcome" 1 $?
contains "replay reaches the outcome" replay.txt "P1:r0=1 P1:r1=0"

"$scopesim" litmus "$data/MP-gpu.litmus" --replay "$schedule" > /dev/null 2> err.txt
check "a schedule of another test is refused" 2 $?
contains "refusal names the test" err.txt "the schedule is of 'MP-cta', not MP-gpu"

"$scopesim" litmus "$data/bad-scope.litmus" > /dev/null 2> err.txt
check "malformed input" 2 $?
contains "malformed input names file and line" err.txt "bad-scope.litmus:4: 'ld.relaxed.cpu': unknown scope 'cpu' (cta, gpu or sys)"
[[ $(wc -l < err.txt) == 1 ]]; check "malformed input: one line" 0 $?

# A malformed file among good ones: its error on stderr, the others' verdicts, exit 2.
"$scopesim" litmus --no-schedules "$data/MP-gpu.litmus" "$data/bad-scope.litmus" "$data/MP-cta.litmus" > out.txt 2> err.txt
check "a malformed file among good ones" 2 $?
contains "the first good file's verdict" out.txt "verdict:   does not hold"
contains "the last good file's verdict" out.txt "verdict:   holds"
contains "the malformed file's error" err.txt "bad-scope.litmus:4: 'ld.relaxed.cpu': unknown scope 'cpu' (cta, gpu or sys)"
[[ $(wc -l < err.txt) == 1 ]]; check "a malformed file among good ones: one line" 0 $?
"$scopesim" litmus --no-schedules --json "$data/MP-gpu.litmus" "$data/bad-scope.litmus" "$data/MP-cta.litmus" > out.json 2> /dev/null
check "a malformed file among good ones, json" 2 $?
contains "json has the malformed file's error" out.json '"error": "'"$data"'/bad-scope.litmus:4: '"'ld.relaxed.cpu'"': unknown scope'
[[ $(grep -c '"file":' out.json) == 3 ]]; check "json has an entry per file" 0 $?

"$scopesim" litmus "$data/two-gpus.litmus" > out.txt 2>&1
check "unsupported test" 1 $?
contains "unsupported verdict" out.txt "verdict:   unsupported: threads on more than one GPU"

# A thread that divides by zero (r0 reads the initial 0) faults: no verdict, exit 1.
printf 'PTX div0\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.relaxed.gpu r0, x ;\n div r1, 5, r0 ;\nexists (P0:r1 == 0)\n' > div0.litmus
"$scopesim" litmus --no-schedules div0.litmus > out.txt 2>&1
check "a faulting thread" 1 $?
contains "the fault is the verdict" out.txt "verdict:   faulted: kernel-fault: b0.t0 faulted: P0 divides by 0 at div0.litmus:5"
"$scopesim" litmus --no-schedules --json div0.litmus > out.txt 2>&1
check "a faulting thread, json" 1 $?
contains "json names the fault" out.txt '"finding": "kernel-fault: b0.t0 faulted: P0 divides by 0 at div0.litmus:5'
# A fault before the thread's first event names the fault's position alone.
printf 'PTX div0first
{ x=0; P0:r0=0; }
 P0@cta 0,gpu 0 ;
 div r1, 5, r0 ;
exists (P0:r1 == 0)
' > div0first.litmus
"$scopesim" litmus --no-schedules div0first.litmus > out.txt 2>&1
check "a thread that faults first" 1 $?
if grep -qx "  finding: kernel-fault: b0.t0 faulted: P0 divides by 0 at div0first.litmus:4" out.txt; then
  echo "ok: a fault before any event names one position"
else
  echo "FAIL: a fault before any event: $(grep kernel-fault out.txt)"; fail=1
fi
# An endless loop without memory accesses never terminates: it can hang, exit 1.
printf 'PTX loop\n{ x=0; }\n P0@cta 0,gpu 0 ;\n L: ;\n goto L ;\nexists (x == 0)\n' > loop.litmus
"$scopesim" litmus --no-schedules --liveness loop.litmus > out.txt 2>&1
check "an endless loop" 1 $?
contains "the loop can hang" out.txt "liveness:  can hang"
contains "the loop is a non-termination" out.txt "finding: non-termination: b0.t0 ran past the step bound of 20000 events at loop.litmus:4"
contains "the verdict is not proved" out.txt "verdict:   does not hold (not proved: an execution ran past the step bound)"

"$scopesim" litmus --no-schedules --expect "$data/expected.csv" "$data/MP-gpu.litmus" "$data/MP-cta.litmus" > out.txt 2>&1
check "--expect with a disagreement" 1 $?
contains "the disagreement is named" out.txt "[expected: does not hold; DISAGREES]"
contains "the summary counts it" out.txt "safety: 2 compared, 1 agree, 0 documented disagreement(s), 1 new disagreement(s)"

# An unsupported test fails a comparison even when the verdict file does not name it.
echo "MP-cta.litmus,1" > e.csv
"$scopesim" litmus --no-schedules --expect e.csv "$data/two-gpus.litmus" > out.txt 2>&1
check "--expect with an unsupported test" 1 $?
contains "the summary counts it" out.txt "safety: 0 compared, 0 agree, 0 documented disagreement(s), 0 new disagreement(s), 0 incomplete; 1 unsupported (0 documented)"
echo "two-gpus.litmus,unsupported,documented for this test" > known.csv
"$scopesim" litmus --no-schedules --expect e.csv --known known.csv "$data/two-gpus.litmus" > out.txt 2>&1
check "--expect with a documented unsupported test" 0 $?
contains "the summary counts it as documented" out.txt "1 unsupported (1 documented)"

# Two lines name the file: the longest path is the file's (MP-cta holds: row 3).
printf 'data/MP-cta.litmus,1\nMP-cta.litmus,0\n' > amb.csv
printf 'data/MP-cta.litmus,safety,the specific line\nMP-cta.litmus,safety,the general line\n' > known.csv
"$scopesim" litmus --no-schedules --expect amb.csv "$data/MP-cta.litmus" > out.txt 2>&1
check "--expect takes the most specific line" 0 $?
contains "the specific line agrees" out.txt "[expected: holds; agrees]"
printf 'data/MP-cta.litmus,0\nMP-cta.litmus,1\n' > amb.csv
"$scopesim" litmus --no-schedules --expect amb.csv --known known.csv "$data/MP-cta.litmus" > out.txt 2>&1
check "--known takes the most specific line" 0 $?
contains "the specific reason" out.txt "documented: the specific line"

# One execution of MP-gpu's several: the search is incomplete, and as the
# outcome is forbidden it finds no witness: nothing proved either way.
for verdict in 0 1; do
  echo "MP-gpu.litmus,$verdict" > e.csv
  "$scopesim" litmus --no-schedules --max-executions 1 --expect e.csv "$data/MP-gpu.litmus" > out.txt 2>&1
  check "an incomplete search under --expect ($verdict)" 1 $?
  contains "incomplete, neither agreement nor disagreement ($verdict)" out.txt "verdict:   does not hold (search incomplete: not proved)  [expected: $( ((verdict)) && echo holds || echo does not hold); incomplete]"
  contains "the summary counts it ($verdict)" out.txt "safety: 1 compared, 0 agree, 0 documented disagreement(s), 0 new disagreement(s), 1 incomplete;"
done

echo "MP-cta.litmus,safety,documented for this test" > known.csv
"$scopesim" litmus --no-schedules --expect "$data/expected.csv" --known known.csv "$data/MP-gpu.litmus" "$data/MP-cta.litmus" > out.txt 2>&1
check "--expect with a documented disagreement" 0 $?
echo "MP-gpu.litmus,safety,listed but agrees" > known.csv
"$scopesim" litmus --no-schedules --expect "$data/expected.csv" --known known.csv "$data/MP-gpu.litmus" > out.txt 2>&1
check "a documented disagreement that agrees fails" 1 $?

"$scopesim" litmus --no-schedules --liveness --json "$data/MP-gpu.litmus" > a.json 2>&1
check "--json" 0 $?
contains "json verdict" a.json '"holds": false'
contains "json liveness" a.json '"can_hang": false'
"$scopesim" litmus --no-schedules --liveness --json "$data/MP-gpu.litmus" > b.json 2>&1
cmp -s a.json b.json; check "json is deterministic" 0 $?

"$scopesim" litmus --print "$data/MP-gpu.litmus" > printed.litmus
check "--print" 0 $?
"$scopesim" litmus --no-schedules printed.litmus > out.txt 2>&1
contains "the printed listing gives the same verdict" out.txt "verdict:   does not hold"

"$scopesim" litmus --print "$data/two-gpus.litmus" "$data/MP-cta.litmus" > printed.litmus 2> err.txt
check "--print with an unsupported test" 1 $?
contains "--print names the unsupported test" err.txt "two-gpus.litmus: unsupported: threads on more than one GPU"
contains "--print prints the supported one" printed.litmus "PTX MP-cta"
for mode in "--print" "--emit-cuda cu-json"; do
  "$scopesim" litmus $mode --json "$data/MP-gpu.litmus" > out.txt 2> err.txt
  check "$mode --json is refused" 2 $?
  contains "$mode --json: why" err.txt "--json does not apply to --print or --emit-cuda"
  # Nothing written but the error, which --json makes a JSON object on stdout as well.
  [[ ! -e cu-json ]] && python3 -c 'import json; assert "does not apply" in json.load(open("out.txt"))["error"]'
  check "$mode --json: nothing written but the error" 0 $?
done

"$scopesim" litmus --emit-cuda cu "$data/MP-gpu.litmus" > /dev/null
check "--emit-cuda" 0 $?
contains "cuda function" cu/data/MP-gpu.cu "__device__ void litmus_instance(unsigned cta, unsigned thread, unsigned* loc_f, unsigned* loc_x, unsigned* results)"
contains "exact PTX" cu/data/MP-gpu.cu 'st.release.gpu.global.u32 [%0], %1;'
contains "harness model name" cu/data/MP-gpu.cu 'scopesim::gpu::litmus::model("litmus/data/MP-gpu"'
contains "observes with the simulator's names" cu/data/MP-gpu.cu 'observe(h, "P1:r1", reinterpret_cast<const int&>(results[1]));'
contains "one translation unit" cu/all.cu '#include "data/MP-gpu.cu"'
# A path through '..' is normalised: the file lands inside DIR, never beside it.
mkdir -p sub out && cp "$data/MP-gpu.litmus" .
"$scopesim" litmus --emit-cuda out/inner sub/../MP-gpu.litmus > /dev/null
check "--emit-cuda of a path with '..'" 0 $?
[[ -f out/inner/MP-gpu.cu && ! -e out/MP-gpu.cu ]]; check "--emit-cuda writes inside DIR" 0 $?

# The GPU cross-check. Outcomes over (P1:r0, P1:r1), reasoned from semantics.md:
# MP-gpu (release/acquire at gpu scope across CTAs, verdict table row 1):
# r0=1 forces r1=1, so (1,0) is forbidden; (0,0), (0,1), (1,1) are permitted
# and are also sequentially consistent. MP-cta (cta scope across CTAs, row 3):
# no synchronization, so (1,0) is permitted but not sequentially consistent: weak.
line() {  # line MODEL R0 R1 COUNT -> a harness JSON line with one outcome
  printf '{"model":"%s","instances":%s,"outcomes":[{"outcome":"P1:r0=%s P1:r1=%s","count":%s,"terminated":true,"values":[{"name":"P1:r0","type":"i32","bits":%s},{"name":"P1:r1","type":"i32","bits":%s}]}]}\n' \
    "$1" "$4" "$2" "$3" "$4" "$2" "$3"
}
{ line litmus/data/MP-gpu 1 1 60; line litmus/data/MP-cta 1 0 3; } > sound.jsonl
"$scopesim" litmus --no-schedules --gpu sound.jsonl "$data/MP-gpu.litmus" "$data/MP-cta.litmus" > out.txt 2>&1
check "--gpu: permitted outcomes only" 0 $?
contains "a weak outcome is named" out.txt "weak outcome on the GPU: litmus/data/MP-cta: P1:r0=1 P1:r1=0 condition=1"
contains "weak occurrences counted" out.txt "3 weak (non-sc) outcome occurrence(s) on the GPU"
"$scopesim" litmus --no-schedules --gpu sound.jsonl --gpu-markdown report.md "$data/MP-gpu.litmus" "$data/MP-cta.litmus" > /dev/null 2>&1
check "--gpu-markdown" 0 $?
contains "markdown summary" report.md "**2 tests (0 more are not supported: none), 2 with GPU results: 2 ran 63 instances in all (3 to 60 per test), 0 did not terminate; 3 weak outcome occurrence(s) in 1 test(s); 0 soundness failure(s).**"
line litmus/data/MP-gpu 1 0 1 > unsound.jsonl
"$scopesim" litmus --no-schedules --gpu unsound.jsonl "$data/MP-gpu.litmus" > out.txt 2>&1
check "--gpu: a forbidden outcome" 1 $?
contains "soundness failure" out.txt "SOUNDNESS FAILURE: litmus/data/MP-gpu: the GPU showed 'P1:r0=1 P1:r1=0 condition=1', which the simulator does not permit"
echo '{"model":"litmus/data/MP-gpu","instances":1,"outcomes":[{"outcome":"P1:r0=1","count":1,"terminated":true,"values":[{"name":"P1:r0","type":"i32","bits":1}]}]}' > short.jsonl
"$scopesim" litmus --no-schedules --gpu short.jsonl "$data/MP-gpu.litmus" > /dev/null 2> err.txt
check "--gpu: an outcome without a register the condition names" 2 $?
contains "names the missing value" err.txt "has no value of P1:r1"

exit $fail
