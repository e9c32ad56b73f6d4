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
schedule=$(ls scopesim-schedules/ptx.MP-cta.*.schedule | head -1)
[[ -f "$schedule" ]]; check "witness schedule written" 0 $?

# A test named as a shipped model of the litmus family keeps its schedules apart from that model's:
# neither command removes or overwrites the other's files (ptx.<test>.<n>.schedule).
"$scopesim" explore litmus.MP+rel.cta+acq.cta.xcta --schedules both > /dev/null 2>&1
cat both/litmus.MP+rel.cta+acq.cta.xcta.*.schedule > explored.txt
sed 's/^PTX .*/PTX MP+rel.cta+acq.cta.xcta/' "$data/MP-cta.litmus" > named.litmus
"$scopesim" litmus named.litmus --schedules both > /dev/null 2>&1
[[ -s explored.txt ]] && cat both/litmus.MP+rel.cta+acq.cta.xcta.*.schedule | cmp -s - explored.txt
check "the shipped model's schedules kept" 0 $?
ls both/ptx.MP+rel.cta+acq.cta.xcta.*.schedule > /dev/null 2>&1; check "the test's schedules beside them" 0 $?

"$scopesim" litmus "$data/MP-cta.litmus" --replay "$schedule" > replay.txt 2>&1
check "replay of the witness shows its bad outcome" 1 $?
contains "replay reaches the outcome" replay.txt "P1:r0=1 P1:r1=0"

"$scopesim" litmus "$data/MP-gpu.litmus" --replay "$schedule" > /dev/null 2> err.txt
check "a schedule of another test is refused" 2 $?
contains "refusal names the test" err.txt "the schedule is of 'MP-cta', not MP-gpu"

"$scopesim" litmus "$data/bad-scope.litmus" > out.txt 2> err.txt
check "malformed input" 2 $?
contains "malformed input names file and line" err.txt "bad-scope.litmus:4: 'ld.relaxed.cpu': unknown scope 'cpu' (cta, gpu or sys)"
[[ $(wc -l < err.txt) == 1 ]]; check "malformed input: one line" 0 $?
contains "a file that does not parse is no test run" out.txt "0 test(s) in"

# What an error quotes of the file is one readable line: a token of 200,000 bytes keeps its first 200
# and says how many more; a control byte is written \xNN.
{ head -c 200000 /dev/zero | tr '\0' A; echo; tail -n +2 "$data/MP-gpu.litmus"; } > long-token.litmus
"$scopesim" litmus long-token.litmus > out.txt 2> err.txt
check "a file whose first token is 200,000 bytes" 2 $?
contains "the token cut in the message" err.txt "long-token.litmus:1: expected 'PTX NAME' header, found '$(head -c 200 /dev/zero | tr '\0' A)[... 199800 more bytes]'"
[[ $(wc -l < err.txt) == 1 && $(wc -c < err.txt) -lt 400 ]]; check "a long token: one short line" 0 $?
{ head -n 1 "$data/MP-gpu.litmus"; printf 'x\003y\n'; tail -n +2 "$data/MP-gpu.litmus"; } > control.litmus
"$scopesim" litmus control.litmus > out.txt 2> err.txt
check "a control byte in a file" 2 $?
contains "the control byte written as \\x03" err.txt "'x\x03y'"

# A malformed file among good ones: its error on stderr, the others' verdicts, exit 2.
"$scopesim" litmus --no-schedules "$data/MP-gpu.litmus" "$data/bad-scope.litmus" "$data/MP-cta.litmus" > out.txt 2> err.txt
check "a malformed file among good ones" 2 $?
contains "the first good file's verdict" out.txt "verdict:   does not hold"
contains "the last good file's verdict" out.txt "verdict:   holds"
contains "the malformed file's error" err.txt "bad-scope.litmus:4: 'ld.relaxed.cpu': unknown scope 'cpu' (cta, gpu or sys)"
[[ $(wc -l < err.txt) == 1 ]]; check "a malformed file among good ones: one line" 0 $?
contains "the good files are the tests run" out.txt "2 test(s) in"
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

# --local-time-limit bounds a thread's time between two steps, not its time running on alone: one
# thread of 20,000 stores (each a step, the thread never switched out) under a limit of 0.2 s runs to
# its end, however long the 20,000 take together.
{ printf 'PTX stores\n{ x=0; }\n P0@cta 0,gpu 0 ;\n'; seq 1 20000 | sed 's/.*/ st.relaxed.gpu x, & ;/'; printf 'exists (x == 20000)\n'; } > stores.litmus
"$scopesim" litmus --no-schedules --max-steps 30000 --local-time-limit 0.2 stores.litmus > out.txt 2>&1
check "a thread's many steps under a short local time limit" 0 $?
contains "its last store is the final value" out.txt "verdict:   holds"

# --memory-limit stops a search of many distinct outcomes once what it keeps passes the limit: eight
# threads that each add 1 to x have 8! = 40,320 outcomes of their registers, some 100 MB kept; at 1 MB
# the search stops early, and the exists, witnessed by then (its outcome is the first run's), holds.
{ printf 'PTX eight\n{ x=0; }\n'; for i in 0 1 2 3 4 5 6 7; do printf ' P%d@cta 0,gpu 0 |' $i; done | sed 's/|$/;/'; echo
  for i in 0 1 2 3 4 5 6 7; do printf ' atom.relaxed.gpu.add r0, x, 1 |'; done | sed 's/|$/;/'; echo
  printf 'exists (P0:r0 == 0 /\\ P1:r0 == 1 /\\ P2:r0 == 2 /\\ P3:r0 == 3 /\\ P4:r0 == 4 /\\ P5:r0 == 5 /\\ P6:r0 == 6 /\\ P7:r0 == 7)\n'; } > eight.litmus
"$scopesim" litmus --no-schedules --memory-limit 1 eight.litmus > out.txt 2>&1
check "a search stopped by its memory limit, its exists witnessed" 0 $?
contains "stopped by the memory limit" out.txt "execution(s), stopped by memory-limit):"
contains "the exists holds" out.txt "verdict:   holds"

"$scopesim" litmus --no-schedules --expect "$data/expected.csv" "$data/MP-gpu.litmus" "$data/MP-cta.litmus" > out.txt 2>&1
check "--expect with a disagreement" 1 $?
contains "the disagreement is named" out.txt "[expected: does not hold; DISAGREES]"
contains "the summary counts it" out.txt "safety: 2 compared, 1 agree, 0 documented disagreement(s), 1 new disagreement(s)"

# An unsupported test fails a comparison even when the verdict file does not name it
# (it names another test run: MP-cta holds, row 3).
echo "MP-cta.litmus,1" > e.csv
"$scopesim" litmus --no-schedules --expect e.csv "$data/two-gpus.litmus" "$data/MP-cta.litmus" > out.txt 2>&1
check "--expect with an unsupported test" 1 $?
contains "the summary counts it" out.txt "safety: 1 compared, 1 agree, 0 documented disagreement(s), 0 new disagreement(s), 0 incomplete; 1 unsupported (0 documented)"
echo "two-gpus.litmus,unsupported,documented for this test" > known.csv
"$scopesim" litmus --no-schedules --expect e.csv --known known.csv "$data/two-gpus.litmus" "$data/MP-cta.litmus" > out.txt 2>&1
check "--expect with a documented unsupported test" 0 $?
contains "the summary counts it as documented" out.txt "1 unsupported (1 documented)"

# A verdict file is read whole before any test runs. A path given two verdicts
# makes the result depend on the order of its lines: an input error naming both.
for lines in 'MP-cta.litmus,1\nMP-cta.litmus,0\n' 'litmus/PTX/MP-cta.litmus,1\nMP-cta.litmus,0\n'; do
  printf "$lines" > twice.csv
  "$scopesim" litmus --no-schedules --expect twice.csv "$data/MP-cta.litmus" > out.txt 2> err.txt
  check "--expect with two verdicts for one test" 2 $?
  contains "both lines are named" err.txt "twice.csv:2: MP-cta.litmus is given 0 here and 1 on line 1: a test has one verdict"
  [[ $(wc -l < err.txt) == 1 && ! -s out.txt ]]; check "two verdicts: one line on stderr, nothing run" 0 $?
done
printf 'MP-cta.litmus,1\nMP-cta.litmus,1\n' > twice.csv
"$scopesim" litmus --no-schedules --expect-liveness twice.csv "$data/MP-cta.litmus" > out.txt 2>&1
check "the same verdict twice is no contradiction" 0 $?
printf 'MP-cta.litmus,1\nMP-cta.litmus,0\n' > twice.csv
"$scopesim" litmus --no-schedules --expect-liveness twice.csv "$data/MP-cta.litmus" > out.txt 2> err.txt
check "--expect-liveness with two verdicts for one test" 2 $?
# A verdict file that names none of the tests compares nothing: the wrong file.
echo "SB.litmus,1" > other.csv
"$scopesim" litmus --no-schedules --expect other.csv "$data/MP-gpu.litmus" "$data/MP-cta.litmus" > out.txt 2> err.txt
check "--expect naming none of the tests" 2 $?
contains "--expect naming none: why" err.txt "scopesim: --expect other.csv names none of the 2 test(s) run"
"$scopesim" litmus --no-schedules --json --expect-liveness other.csv "$data/MP-gpu.litmus" > out.txt 2> err.txt
check "--expect-liveness naming none of the tests" 2 $?
python3 -c 'import json; assert "names none of the 1 test(s) run" in json.load(open("out.txt"))["error"]'
check "--expect-liveness naming none, json: the error on stdout" 0 $?
# One that names some of them compares those; the others get no comparison.
echo "MP-gpu.litmus,0" > some.csv
"$scopesim" litmus --no-schedules --expect some.csv "$data/MP-gpu.litmus" "$data/MP-cta.litmus" > out.txt 2>&1
check "--expect naming some of the tests" 0 $?
contains "the one named is compared" out.txt "safety: 1 compared, 1 agree,"

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

# --print, --emit-cuda and --replay each do one thing and stop: another mode, or an
# option only a run reads, would be dropped unread, so the pair is a usage error
# (one line on stderr naming both; with --json also {"error": ...} on stdout).
refused() {  # refused FIRST SECOND ARGS...: exit 2, one line naming FIRST and SECOND, nothing written
  local first=$1 second=$2; shift 2
  rm -rf refused-dir
  "$scopesim" litmus "$@" > out.txt 2> err.txt
  check "$first with $second is refused" 2 $?
  contains "$first with $second: both named" err.txt "$first and $second cannot be combined"
  [[ $(wc -l < err.txt) == 1 && ! -e refused-dir && ! -e refused-schedules ]]
  check "$first with $second: one line, nothing written" 0 $?
}
refused --emit-cuda --print --print --emit-cuda refused-dir "$data/MP-gpu.litmus"
refused --print --replay --replay "$schedule" --print "$data/MP-cta.litmus"
refused --emit-cuda --replay --replay "$schedule" --emit-cuda refused-dir "$data/MP-cta.litmus"
refused --replay --expect --replay "$schedule" --expect "$data/expected.csv" "$data/MP-cta.litmus"
refused --replay --liveness --replay "$schedule" --liveness "$data/MP-cta.litmus"
refused --replay --max-steps --replay "$schedule" --max-steps 5 "$data/MP-cta.litmus"
refused --print --expect --print --expect "$data/expected.csv" "$data/MP-cta.litmus"
refused --emit-cuda --schedules --emit-cuda refused-dir --schedules refused-schedules "$data/MP-cta.litmus"
"$scopesim" litmus --json --replay "$schedule" --expect "$data/expected.csv" "$data/MP-cta.litmus" > out.txt 2> /dev/null
check "--replay with --expect, json" 2 $?
python3 -c 'import json; assert "--replay and --expect cannot be combined" in json.load(open("out.txt"))["error"]'
check "--replay with --expect, json: the error on stdout" 0 $?
# --no-schedules asks for what each of them does: no schedule file.
"$scopesim" litmus --print --no-schedules "$data/MP-gpu.litmus" > out.txt 2>&1
check "--print with --no-schedules" 0 $?
# An empty path names no file: an error, never the option left out.
for option in --emit-cuda --gpu-markdown --gpu --expect --expect-liveness --known --replay; do
  "$scopesim" litmus --no-schedules "$option" "" "$data/MP-gpu.litmus" > out.txt 2> err.txt
  check "$option '' is refused" 2 $?
  contains "$option '': why" err.txt "$option: must not be empty"
done

# all.cu includes each test's file by its quoted path, which has no escapes: a
# name with a '"' is refused before anything is written.
cp "$data/MP-gpu.litmus" 'q"1.litmus'
"$scopesim" litmus --emit-cuda cu-quote 'q"1.litmus' > out.txt 2> err.txt
check "--emit-cuda of a file named with a '\"'" 2 $?
contains "the name is refused" err.txt 'q"1.litmus: its CUDA file q"1.cu cannot be included by all.cu'
[[ ! -e cu-quote ]]; check "--emit-cuda of a refused name writes nothing" 0 $?

# A UTF-8 byte-order mark before the header is skipped (MP-gpu: row 1, does not hold).
{ printf '\xEF\xBB\xBF'; cat "$data/MP-gpu.litmus"; } > bom.litmus
"$scopesim" litmus --no-schedules bom.litmus > out.txt 2>&1
check "a file with a byte-order mark" 0 $?
contains "the file with a byte-order mark runs" out.txt "verdict:   does not hold"

# The condition names only what the test gives a value: a register no instruction
# of its thread writes, or a location nothing declares or uses, is a typo (it would
# read 0), malformed input at its line.
sed 's/P1:r1 == 0/P1:r9 == 0/' "$data/MP-gpu.litmus" > typo-reg.litmus
"$scopesim" litmus --no-schedules typo-reg.litmus > out.txt 2> err.txt
check "a register nothing writes" 2 $?
contains "the register is named" err.txt "typo-reg.litmus:9: 'P1:r9' in the condition is never written: no instruction of P1 writes r9"
sed 's/P1:r1 == 0/zz == 0/' "$data/MP-gpu.litmus" > typo-loc.litmus
"$scopesim" litmus --no-schedules typo-loc.litmus > out.txt 2> err.txt
check "a location nothing declares or uses" 2 $?
contains "the location is named" err.txt "typo-loc.litmus:9: location 'zz' in the condition is neither in the initial state nor used by an instruction"
sed 's/P1@cta 1,gpu 0/P1@cta 1024,gpu 0/' "$data/MP-gpu.litmus" > cta.litmus
"$scopesim" litmus --no-schedules cta.litmus > out.txt 2> err.txt
check "a cta out of range" 2 $?
contains "the range is named" err.txt "cta.litmus:6: 'cta 1024' in the placement of P1: a cta is a number from 0 to 1023"
sed 's/^exists/maybe/' "$data/MP-gpu.litmus" > maybe.litmus
"$scopesim" litmus --no-schedules maybe.litmus > out.txt 2> err.txt
check "an unknown quantifier" 2 $?
contains "the quantifiers are named" err.txt "maybe.litmus:9: expected exists, ~exists or forall to start the final condition, found 'maybe'"

# Ctrl-C (one SIGINT) stops the search of the test running where it is: that test is
# reported, stopped by interrupt and incomplete (its 'does not hold' needs every
# execution: not proved; under --expect 'incomplete'); the files after it are not
# run, which stderr says, and exit 1: not every test ran. Four threads racing on
# two locations take an exhaustive search hours; x is never 99.
cat > long.litmus <<'LITMUS'
PTX long
{ x=0; y=0; }
 P0@cta 0,gpu 0       | P1@cta 0,gpu 0       | P2@cta 0,gpu 0       | P3@cta 0,gpu 0       ;
 st.relaxed.gpu x, 1  | st.relaxed.gpu y, 1  | st.relaxed.gpu x, 3  | st.relaxed.gpu y, 7  ;
 ld.relaxed.gpu r0, y | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, y | ld.relaxed.gpu r0, x ;
 st.relaxed.gpu y, 2  | st.relaxed.gpu x, 2  | st.relaxed.gpu y, 3  | st.relaxed.gpu x, 7  ;
 ld.relaxed.gpu r1, x | ld.relaxed.gpu r1, y | ld.relaxed.gpu r1, x | ld.relaxed.gpu r1, y ;
 st.relaxed.gpu x, 4  | st.relaxed.gpu y, 4  | st.relaxed.gpu x, 5  | st.relaxed.gpu y, 8  ;
 ld.relaxed.gpu r2, y | ld.relaxed.gpu r2, x | ld.relaxed.gpu r2, y | ld.relaxed.gpu r2, x ;
exists (x == 99)
LITMUS
printf 'MP-gpu.litmus,0\nlong.litmus,0\nMP-cta.litmus,1\n' > e.csv
# (The time limit ends a search that Ctrl-C does not stop: stopped by time-limit, the test fails.)
set -m  # the job in a process group of its own, where SIGINT is not ignored
"$scopesim" litmus --no-schedules --time-limit 60 --expect e.csv "$data/MP-gpu.litmus" long.litmus "$data/MP-cta.litmus" \
  > out.txt 2> err.txt &
pid=$!
set +m
# MP-gpu's report is on stdout before long.litmus's search starts.
for _ in $(seq 300); do grep -q "^MP-gpu " out.txt && break; sleep 0.1; done
sleep 0.5
kill -INT "$pid"
wait "$pid"
check "Ctrl-C during a search" 1 $?
contains "the test before it is reported" out.txt "verdict:   does not hold  [expected: does not hold; agrees]"
contains "the test it landed in is reported" out.txt "long (long.litmus)"
contains "stopped by interrupt" out.txt "execution(s), stopped by interrupt):"
contains "its verdict is not proved" out.txt "verdict:   does not hold (search incomplete: not proved)  [expected: does not hold; incomplete]"
if grep -q "^MP-cta " out.txt; then echo "FAIL: a file after the interrupt was run"; fail=1; else echo "ok: the file after it is not run"; fi
contains "the tests run are counted" out.txt "safety: 2 compared, 1 agree, 0 documented disagreement(s), 0 new disagreement(s), 1 incomplete;"
contains "two tests ran" out.txt "2 test(s) in"
contains "stderr says the rest was not run" err.txt "scopesim: interrupted: 2 of 3 test(s) run, the rest not run"
# With --json (printed at the end): the test stopped by interrupt, the file not run.
set -m
"$scopesim" litmus --no-schedules --time-limit 60 --json "$data/MP-gpu.litmus" long.litmus "$data/MP-cta.litmus" \
  > out.json 2> err.txt &
pid=$!
set +m
sleep 1
kill -INT "$pid"
wait "$pid"
check "Ctrl-C during a search, json" 1 $?
python3 - "$data/MP-cta.litmus" <<'PY'
import json, sys
j = json.load(open("out.json"))
assert [t["stopped_by"] for t in j["tests"]] == ["", "interrupt"], j["tests"]
assert not j["tests"][1]["proved"] and not j["tests"][1]["complete"]
assert j["not_run"] == [sys.argv[1]], j.get("not_run")
PY
check "json: stopped by interrupt, the file after it not run" 0 $?

exit $fail
