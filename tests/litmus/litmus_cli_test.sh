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
contains "refusal names the test" err.txt "schedule is for 'MP-cta', not MP-gpu"

"$scopesim" litmus "$data/bad-scope.litmus" > /dev/null 2> err.txt
check "malformed input" 2 $?
contains "malformed input names file and line" err.txt "bad-scope.litmus:4: 'ld.relaxed.cpu': unknown scope 'cpu' (cta, gpu or sys)"
[[ $(wc -l < err.txt) == 1 ]]; check "malformed input: one line" 0 $?

"$scopesim" litmus "$data/two-gpus.litmus" > out.txt 2>&1
check "unsupported test" 1 $?
contains "unsupported verdict" out.txt "verdict:   unsupported: threads on more than one GPU"

"$scopesim" litmus --no-schedules --expect "$data/expected.csv" "$data/MP-gpu.litmus" "$data/MP-cta.litmus" > out.txt 2>&1
check "--expect with a disagreement" 1 $?
contains "the disagreement is named" out.txt "[expected: does not hold; DISAGREES]"
contains "the summary counts it" out.txt "safety: 2 compared, 1 agree, 0 documented disagreement(s), 1 new disagreement(s)"

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

"$scopesim" litmus --emit-cuda cu "$data/MP-gpu.litmus" > /dev/null
check "--emit-cuda" 0 $?
contains "cuda kernel" cu/MP-gpu.cu "__device__ void litmus_instance(unsigned cta, unsigned thread, unsigned* loc_f, unsigned* loc_x, unsigned* results)"
contains "exact PTX" cu/MP-gpu.cu 'st.release.gpu.global.u32 [%0], %1;'
contains "metadata" cu/MP-gpu.json '"results": ['

exit $fail
