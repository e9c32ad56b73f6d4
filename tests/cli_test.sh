#!/usr/bin/env bash
# End-to-end tests of the scopesim command, as a user runs it.
# Usage: cli_test.sh PATH_TO_SCOPESIM
source "$(dirname "$0")/cli_support.sh"

# explore: a broken model exits 1 and writes schedules; a correct one exits 0 with one outcome.
expect_code 1 "explore publish.relaxed" -- "$bin" explore publish.relaxed --mode exhaustive --schedules s
grep -q "error=1" out.txt && pass || fail "publish.relaxed does not report error=1"
grep -q "data-race" out.txt && pass || fail "publish.relaxed does not report the data race"
expect_code 0 "explore publish.block_acqrel" -- "$bin" explore publish.block_acqrel --mode exhaustive --no-schedules
expect_code 1 "deadlock with one resident block" -- "$bin" explore publish.cross_block_device_scope --resident-blocks 1 --no-schedules
grep -q "deadlock" out.txt && pass || fail "no deadlock reported"

# replay: every schedule reproduces its run, byte for byte, twice.
ls s/*.schedule >/dev/null 2>&1 && pass || fail "no schedule files written"
for f in s/*.schedule; do
  "$bin" replay "$f" >r1.txt 2>&1; c1=$?
  "$bin" replay "$f" >r2.txt 2>&1; c2=$?
  [ "$c1" -eq 1 ] && pass || fail "replay $f exit $c1 (a schedule of a bad run replays as bad)"
  cmp -s r1.txt r2.txt && pass || fail "replay $f is not byte-identical"
done

# determinism: the same options and seed give byte-identical JSON.
"$bin" explore litmus.SB.xcta --mode random --seed 5 --max-executions 50 --json --no-schedules >j1.json
"$bin" explore litmus.SB.xcta --mode random --seed 5 --max-executions 50 --json --no-schedules >j2.json
cmp -s j1.json j2.json && pass || fail "random --json differs between two runs"
"$bin" explore publish.relaxed --mode pct --seed 9 --max-executions 200 --json --no-schedules >p1.json
"$bin" explore publish.relaxed --mode pct --seed 9 --max-executions 200 --json --no-schedules >p2.json
cmp -s p1.json p2.json && pass || fail "pct --json differs between two runs"
# ... whatever the process's layout: every model's check, and a PCT sample of a
# kernel that spins (spin-assume compares a thread's stack), again from another
# directory with an environment a page and a half larger (the stack shifted
# within its page) and without address randomization where setarch can turn it off.
"$bin" check --json --no-schedules >l1.json
"$bin" explore spin.coresidency_assumed --mode pct --seed 3 --max-executions 100 --json --no-schedules >l1s.json
mkdir -p elsewhere
no_aslr=()
setarch "$(uname -m)" -R true 2>/dev/null && no_aslr=(setarch "$(uname -m)" -R)
elsewhere() { (cd elsewhere && env SCOPESIM_TEST_PADDING="$(printf '%6000s' '')" "${no_aslr[@]}" "$bin" "$@"); }
elsewhere check --json --no-schedules >l2.json
elsewhere explore spin.coresidency_assumed --mode pct --seed 3 --max-executions 100 --json --no-schedules >l2s.json
cmp -s l1.json l2.json && pass || fail "check --json differs with another process layout"
cmp -s l1s.json l2s.json && pass || fail "explore spin.coresidency_assumed --json differs with another process layout"
# --jobs: the exhaustive search on several threads prints the same JSON, schedules included.
"$bin" explore spin.naive_grid_barrier --json --schedules sj1 >x1.json
"$bin" explore spin.naive_grid_barrier --json --schedules sj3 --jobs 3 >x3.json
sed 's/sj3/sj1/' x3.json | cmp -s x1.json - && pass || fail "explore --jobs 3 --json differs from --jobs 1"
diff -r sj1 sj3 >/dev/null && pass || fail "explore --jobs 3 writes other schedules"
"$bin" check publish.relaxed histogram.plain_rmw --json --no-schedules >c1.json
"$bin" check publish.relaxed histogram.plain_rmw --json --no-schedules --jobs 4 >c4.json
cmp -s c1.json c4.json && pass || fail "check --jobs 4 --json differs from --jobs 1"
expect_code 2 "--jobs 0" -- "$bin" explore publish.relaxed --jobs 0
# Numeric options say their range in words.
expect_code 2 "--depth 0" -- "$bin" explore publish.relaxed --mode pct --depth 0
grep -q "^scopesim: --depth: must be 1 to 1000, got 0" err.txt && pass || fail "--depth 0 message"
expect_code 2 "--max-executions abc" -- "$bin" explore publish.relaxed --max-executions abc
grep -q "^scopesim: --max-executions: must be a whole number, 0 or more, got 'abc'" err.txt && pass ||
  fail "--max-executions abc message"
# A count is never rounded or clamped: a fraction, hex and a number past 64 bits are refused.
expect_code 2 "--max-executions 2.5" -- "$bin" explore publish.relaxed --max-executions 2.5
grep -q "^scopesim: --max-executions: must be a whole number, 0 or more, got '2.5'" err.txt && pass || fail "2.5 message"
expect_code 2 "--seed 0x10" -- "$bin" explore publish.relaxed --seed 0x10
expect_code 2 "--seed past 64 bits" -- "$bin" explore publish.relaxed --seed 99999999999999999999
grep -q "^scopesim: --seed: must be at most 18446744073709551615, got 99999999999999999999" err.txt && pass ||
  fail "seed overflow message"
expect_code 2 "--time-limit -2" -- "$bin" explore publish.relaxed --time-limit -2
grep -q "^scopesim: --time-limit: must be 0 or more, got -2" err.txt && pass || fail "--time-limit -2 message"
expect_code 2 "--time-limit past a double" -- "$bin" explore publish.relaxed --time-limit 1e309
grep -q "^scopesim: --time-limit: must be 0 or more, got 1e309, past the range of a number" err.txt && pass ||
  fail "--time-limit 1e309 message: $(cat err.txt)"
expect_code 2 "--param past 64 bits" -- "$bin" explore tile.barrier --param n=99999999999999999999
grep -q "^scopesim: --param n: 99999999999999999999 is past the range of a 64-bit integer" err.txt && pass ||
  fail "--param overflow message: $(cat err.txt)"
# A launch that does not fit a parameter the configuration sets, not the user: the message names it.
expect_code 2 "a block too small for the quick configuration's n" -- "$bin" explore tile.bounds_participate --quick --block 4
grep -q "n must be 1..4 (the block's threads) (n=6: the configuration's; --param NAME=INTEGER sets one)" err.txt &&
  pass || fail "configuration's parameter message: $(cat err.txt)"
expect_code 2 "an empty schedule directory" -- "$bin" explore publish.relaxed --schedules ""
grep -q "^scopesim: --schedules: must not be empty" err.txt && pass || fail "--schedules '' message: $(cat err.txt)"
expect_code 2 "an unknown command" -- "$bin" bogus
grep -q "^scopesim: unknown command 'bogus': the commands are list, explain, explore" err.txt && pass ||
  fail "unknown command message: $(cat err.txt)"

long_search=(explore histogram.plain_rmw --quick --block 14 --param bins=7 --no-schedules --time-limit 3)
# interrupted ARGS...: scopesim ARGS in the background, one SIGINT a second in; its exit code in $code,
# its stdout and stderr in int.txt and int.err. (Background jobs ignore SIGINT unless job control is
# on, hence set -m.)
interrupted() {
  set -m
  "$bin" "$@" >int.txt 2>int.err &
  local pid=$!
  set +m
  sleep 1
  kill -INT $pid
  wait $pid
  code=$?
}
# Ctrl-C stops the search and prints what it found, marked stopped by interrupt (with several
# jobs too: the signal may land on a simulated thread's fiber).
for jobs in 1 3; do
  interrupted "${long_search[@]}" --jobs $jobs
  [ "$code" -eq 1 ] && pass || fail "interrupted search (--jobs $jobs): exit $code, expected 1 (a bad outcome found)"
  grep -q "stopped by interrupt" int.txt && pass || fail "interrupted search (--jobs $jobs) does not say so"
done
# check: Ctrl-C stops the exploration it lands in (a sample found bad: as expected) and runs no later
# model; a model not explored confirms nothing, so the exit code is 1, and stderr says what ran.
interrupted check litmus.2+2W+relaxed.gpu.xcta publish.block_acqrel --mode random --max-executions 100000000 \
  --no-schedules
[ "$code" -eq 1 ] && pass || fail "interrupted check: exit $code, expected 1 (a model not explored)"
grep -q "^scopesim: interrupted: 0 of 2 explorations done and 1 stopped, the rest not run$" int.err && pass ||
  fail "interrupted check: $(cat int.err)"
# The table names the exploration left out and counts it among the verdicts, not as expected.
grep -qx "not run (interrupted): publish.block_acqrel" int.txt && pass || fail "interrupted check: no not-run line"
grep -qx "[01] of 2 verdicts as expected" int.txt && pass || fail "interrupted check: the summary does not count 2"
interrupted check litmus.2+2W+relaxed.gpu.xcta publish.block_acqrel --mode random --max-executions 100000000 \
  --no-schedules --json
python3 -c '
import json, sys
j = json.load(open("int.txt"))
assert j["not_run"] == ["publish.block_acqrel"] and not j["all_as_expected"], j
assert [v["model"] for v in j["verdicts"]] == ["litmus.2+2W+relaxed.gpu.xcta"], j
' && pass || fail "interrupted check --json: $(head -c 300 int.txt)"

# Progress: none on a stderr that is no terminal; a line a second with --progress; on a terminal,
# one line kept up to date from the search's second second on and erased before the report.
"$bin" "${long_search[@]}" >/dev/null 2>err.txt
[ ! -s err.txt ] && pass || fail "progress printed to a stderr that is no terminal"
"$bin" "${long_search[@]}" --progress >/dev/null 2>err.txt
grep -q "^scopesim: histogram.plain_rmw: [0-9]* executions so far$" err.txt && pass || fail "--progress prints no lines"
if command -v script >/dev/null; then
  script -qc "$(printf '%q ' "$bin" "${long_search[@]}")" /dev/null >tty.txt 2>&1
  grep -q "executions in [0-9]* s" tty.txt && pass || fail "no live progress on a terminal"
  grep -q $'\r\033\[Kmodel ' tty.txt && pass || fail "the live progress line is not erased before the report"
else
  echo "skip: no 'script' command to give the search a terminal"
fi

# bad input: exit 2 with a one-line message, never a crash.
expect_code 2 "unknown model" -- "$bin" explore no.such.model
grep -q "unknown model" err.txt && pass || fail "unknown model message"
# Under --json an error is also one JSON document on stdout, {"error": MESSAGE}: for an input error, an
# option that does not parse, and an error of a subcommand with its own handling (litmus, compare).
json_error() {  # DESCRIPTION WORDS...: the command exits 2 and stdout is {"error": ...} naming WORDS
  local what=$1 words=$2; shift 2
  "$@" >out.json 2>err.txt
  local rc=$?
  python3 -c 'import json, sys; e = json.load(open("out.json"))["error"]; sys.exit(0 if sys.argv[1] in e else 1)' "$words" &&
    [ "$rc" = 2 ] && grep -qF -- "$words" err.txt && pass || fail "$what: not exit 2 with {\"error\": ...} on stdout (rc $rc)"
}
json_error "explore --json, unknown model" "unknown model 'no.such.model'" "$bin" explore no.such.model --json
json_error "explore --json, a bad option" "--jobs: must be" "$bin" explore publish.relaxed --json --jobs 0
# A thread the system refuses (1024 threads' stacks past an address-space limit of about 1 GB): one
# error, exit 2, the threads already started ended and joined, never an abort. Exhaustive and sampled.
limited() { (ulimit -v 1000000 && "$@"); }
json_error "explore --jobs 1024 under an address-space limit" "cannot run 1024 threads at once" \
  limited "$bin" explore publish.relaxed --json --no-schedules --jobs 1024
json_error "explore --mode random --jobs 1024 under an address-space limit" "cannot run 1024 threads at once" \
  limited "$bin" explore publish.relaxed --mode random --json --no-schedules --jobs 1024
json_error "replay --json, no such file" "cannot read 'no-such.schedule'" "$bin" replay no-such.schedule --json
json_error "litmus --json, a replay of no file" "--replay takes exactly one litmus FILE" \
  "$bin" litmus --json --replay x.schedule a.litmus b.litmus
json_error "compare --json, no results" "cannot read 'no-such.jsonl'" "$bin" compare --all --gpu no-such.jsonl --json
"$bin" explore no.such.model >out.txt 2>/dev/null; [ ! -s out.txt ] && pass || fail "without --json, an error prints nothing on stdout"
# A launch the kernel was not written for is refused, not explored: histogram's
# threads share out its bins, so a block must be a multiple of them.
expect_code 2 "a block that does not share out histogram's bins" -- "$bin" explore histogram.shared_atomic --block 12
grep -q "histogram.shared_atomic <<<1,12>>>: the block's threads must be a multiple of bins (8)" err.txt && pass ||
  fail "histogram block message"
# CUDA's largest block fits the tile: every load is before the barrier and every
# read after it, so the one execution is clean.
expect_code 0 "tile.barrier at 1024 threads" -- "$bin" explore tile.barrier --block 1024 --no-schedules
grep -q "nothing bad" out.txt && pass || fail "tile.barrier <<<1,1024>>>: $(tail -2 out.txt)"
# Schedules that cannot be written: the results still print, with one warning, not one per witness.
touch not_a_dir
expect_code 1 "explore with an unwritable schedule directory" -- "$bin" explore publish.relaxed --schedules not_a_dir/s
grep -q "error=1" out.txt && pass || fail "results lost when schedules cannot be written"
[ "$(grep -c "warning: schedules not written" err.txt)" -eq 1 ] && pass || fail "the schedule warning is not printed once"
# A launch beyond what the simulator can run (here: more fiber stacks than the address space
# allows) is an error naming the limit, exit 2, not a kernel fault and a bogus lost update.
(ulimit -v 1500000; "$bin" explore counter.global_atomic --grid 4 --block 1024 --mode random --max-executions 1 \
   --no-schedules >out.txt 2>err.txt; echo $? >limit_rc)
[ "$(cat limit_rc)" = 2 ] && pass || fail "a launch beyond the simulator's limits: exit $(cat limit_rc), expected 2"
grep -q "counter.global_atomic <<<4,1024>>>: the simulator cannot run it: cannot .* a fiber stack" err.txt \
  && pass || fail "the simulator's limit message"
# More threads than a run holds (4096) are refused before any runs.
expect_code 2 "a launch of 65536 threads" -- "$bin" explore counter.global_atomic --grid 64 --block 1024 --no-schedules
grep -q "<<<64,1024>>>: the simulator cannot run it: its launches make 65536 threads in a run, more than the 4096" \
  err.txt && pass || fail "thread limit message: $(cat err.txt)"
# A parameter the model does not take is refused, naming it and the ones it takes: a misspelt
# one would otherwise explore the default silently. So is a value outside the model's range.
expect_code 2 "an unknown parameter" -- "$bin" explore histogram.plain_rmw --quick --param bin=1 --no-schedules
grep -q "histogram.plain_rmw <<<1,4>>>: no parameter 'bin' (the model takes bins)" err.txt && pass || fail "unknown parameter message"
expect_code 2 "a parameter of a model that takes none" -- "$bin" explore publish.relaxed --param n=1 --no-schedules
grep -q "no parameter 'n' (the model takes none)" err.txt && pass || fail "parameterless model message"
expect_code 2 "tile with an empty input" -- "$bin" explore tile.barrier --quick --param n=0 --no-schedules
grep -q "tile.barrier <<<1,8>>>: n must be 1..8" err.txt && pass || fail "tile n=0 message"
expect_code 0 "explain names the parameters" -- "$bin" explain histogram.plain_rmw
grep -q "^parameter   bins (--param bins=N): bins of the histogram" out.txt && pass || fail "explain lists bins"
"$bin" list --json | grep -q '"name": "bins"' && pass || fail "list --json lists the parameters"
# A schedule whose launch sets a parameter the model does not take is refused before it runs.
"$bin" explore histogram.plain_rmw --quick --schedules hp >/dev/null
sed 's/^param bins 2$/param bin 2/' hp/histogram.plain_rmw.1.schedule >hp/misspelt.schedule
expect_code 2 "replay of a schedule with an unknown parameter" -- "$bin" replay hp/misspelt.schedule
grep -q "the schedule's launch <<<1,4>>> is none of histogram.plain_rmw: no parameter 'bin'" err.txt && pass || fail "replay parameter message"
# histogram's threads 0..7 zero and flush the 8 bins: a 4-thread block cannot.
expect_code 2 "a block with fewer threads than bins" -- "$bin" explore histogram.shared_atomic --block 4
grep -q "multiple of bins (8)" err.txt && pass || fail "histogram block message"
expect_code 2 "bad option value" -- "$bin" explore publish.relaxed --mode sideways
expect_code 2 "unknown memory model" -- "$bin" explore publish.relaxed --model tso
expect_code 2 "missing schedule file" -- "$bin" replay does-not-exist.schedule
printf 'not a schedule\n' >garbage.schedule
expect_code 2 "garbage schedule" -- "$bin" replay garbage.schedule
first=$(ls s/*.schedule | head -1)
sed 's/^model .*/model publish.block_acqrel/' "$first" >wrong-model.schedule
expect_code 2 "schedule of another model" -- "$bin" replay wrong-model.schedule
sed 's/^grid .*/grid 7/' "$first" >wrong-grid.schedule
expect_code 2 "schedule with another launch" -- "$bin" replay wrong-grid.schedule
head -c 300 "$first" >truncated.schedule
expect_code 2 "truncated schedule" -- "$bin" replay truncated.schedule
# What cannot be read says why; an edited decision names what does not fit.
mkdir -p a-directory
expect_code 2 "a directory as the schedule" -- "$bin" replay a-directory
grep -q "cannot read 'a-directory': it is a directory" err.txt && pass || fail "directory message: $(cat err.txt)"
grep -q "cannot read 'does-not-exist.schedule': No such file or directory" <("$bin" replay does-not-exist.schedule 2>&1) &&
  pass || fail "missing file message"
# The first decision with two or more alternatives: its key replaced, then its index.
awk '!done && $2 ~ /^(thread|read)$/ && $3 ~ /^0\/([2-9]|[1-9][0-9]+)$/ {$4 = 999999; done = 1} 1' "$first" >bad-key.schedule
expect_code 2 "a decision whose key the run does not offer" -- "$bin" replay bad-key.schedule
grep -q "does not fit: the run offers no alternative with key 999999" err.txt && pass || fail "key message: $(cat err.txt)"
awk '!done && $2 ~ /^(thread|read)$/ && $3 ~ /^0\/([2-9]|[1-9][0-9]+)$/ {sub(/^0\//, "1/", $3); done = 1} 1' "$first" >bad-index.schedule
expect_code 2 "a decision whose index is not its key's" -- "$bin" replay bad-index.schedule
grep -q "is alternative 0 of the run's, not 1" err.txt && pass || fail "index message: $(cat err.txt)"
# A finding the run does not report: the replay names it.
sed '0,/^finding /s/^finding /finding X/' "$first" >bad-finding.schedule
expect_code 2 "a schedule listing another finding" -- "$bin" replay bad-finding.schedule
grep -q "did not reproduce it: the replay's finding 1 is '.*', the schedule's is 'X" err.txt && pass ||
  fail "finding message: $(cat err.txt)"
# ... and with --json, its report carries the error (exit 2: an error is {"error": ...} on stdout).
json_error "replay --json, a schedule it does not reproduce" "did not reproduce it" \
  "$bin" replay --json bad-finding.schedule
# What the message quotes of the file is cut: a finding of 60,000 bytes keeps its first 200.
long=$(head -c 60000 /dev/zero | tr '\0' x)
sed "0,/^finding /s/^finding /finding $long/" "$first" >long-finding.schedule
expect_code 2 "a schedule listing a finding of 60,000 bytes" -- "$bin" replay long-finding.schedule
grep -q "the schedule's is '${long:0:200}\[... 599[0-9][0-9] more bytes\]'$" err.txt && [ "$(wc -c <err.txt)" -lt 1000 ] &&
  pass || fail "a long finding's message: $(head -c 600 err.txt)"
sed 's/^model .*/model MP-cta/' "$first" >litmus-test.schedule
expect_code 2 "a schedule of an unknown model" -- "$bin" replay litmus-test.schedule
grep -q "unknown model 'MP-cta' (see 'scopesim list'); the schedule of a litmus test replays with 'scopesim litmus" err.txt &&
  pass || fail "unknown model message: $(cat err.txt)"

# replay --token: the token explore printed for a bad outcome replays that outcome at the same launch.
"$bin" explore litmus.SB.xcta --no-schedules >sb.txt
token=$(awk '/BAD: r0=0 r1=0/ {getline; print $2; exit}' sb.txt)
[ -n "$token" ] && pass || fail "explore printed no token for the bad outcome"
expect_code 1 "replay of a token" -- "$bin" replay litmus.SB.xcta --token "$token"
grep -q "^outcome: r0=0 r1=0" out.txt && pass || fail "the token's replay reaches another outcome: $(grep outcome out.txt)"
# The token carries its launch's key: at another launch or with other options it is refused before it runs.
case "$token" in *@*) pass ;; *) fail "the token carries no launch key: $token" ;; esac
expect_code 2 "a token at another launch" -- "$bin" replay litmus.SB.xcta --token "$token" --grid 3
grep -q "the token was printed for another launch or other options of litmus.SB.xcta" err.txt && pass ||
  fail "token launch message: $(cat err.txt)"
expect_code 2 "a token with another step bound" -- "$bin" replay litmus.SB.xcta --token "$token" --max-steps 50
grep -q "the token was printed for another launch or other options" err.txt && pass || fail "token options message: $(cat err.txt)"
# Without its key (a token of an older scopesim) it runs, and the decisions alone tell that it does not fit.
expect_code 2 "a keyless token at another launch" -- "$bin" replay litmus.SB.xcta --token "${token%@*}" --grid 3
grep -q "the token does not fit litmus.SB.xcta at <<<3,1>>>" err.txt && pass || fail "keyless token message: $(cat err.txt)"
expect_code 2 "a token that is none" -- "$bin" replay litmus.SB.xcta --token 'v1:0.!'
expect_code 2 "launch options with a schedule file" -- "$bin" replay "$first" --grid 2
expect_code 2 "an empty token" -- "$bin" replay litmus.SB.xcta --token ''
grep -q -- "--token: must not be empty" err.txt && pass || fail "empty token message: $(cat err.txt)"
expect_code 2 "a token given as the file" -- "$bin" replay "$token"
grep -q "is a token, not a schedule file: replay it with 'scopesim replay MODEL --token TOKEN'" err.txt && pass ||
  fail "token as file message: $(cat err.txt)"

# Options out of range or in conflict are refused, naming the option.
expect_code 2 "pct depth past its bound" -- "$bin" explore litmus.SB.xcta --mode pct --depth 2000
grep -q -- "--depth: must be 1 to 1000, got 2000" err.txt && pass || fail "depth message: $(cat err.txt)"
expect_code 2 "a time limit that is no number" -- "$bin" explore litmus.SB.xcta --time-limit nan
grep -q -- "--time-limit: must be a number, got 'nan'" err.txt && pass || fail "nan message: $(cat err.txt)"
expect_code 2 "jobs that is a word" -- "$bin" explore litmus.SB.xcta --jobs many
grep -q -- "--jobs: must be a whole number, 1 to 1024, got 'many'" err.txt && pass || fail "jobs message: $(cat err.txt)"
expect_code 2 "a parameter given twice" -- "$bin" explore tile.barrier --quick --param n=3 --param n=4
grep -q -- "--param n is given twice" err.txt && pass || fail "param twice message: $(cat err.txt)"
expect_code 2 "quiet with progress" -- "$bin" explore litmus.SB.xcta --quiet --progress
expect_code 2 "schedules with no-schedules" -- "$bin" explore litmus.SB.xcta --schedules d --no-schedules
expect_code 2 "bench sections both only and skipped" -- "$bin" bench --only exploration --skip exploration
expect_code 2 "bench time that is no number" -- "$bin" bench --only exploration --min-time nan
grep -q -- "--min-time: must be a number, got 'nan'" err.txt && pass || fail "bench nan message: $(cat err.txt)"
# warp's lanes 0 and 1 exchange within one block: a block of one thread has no lane 1.
expect_code 2 "a warp model in a block of one thread" -- "$bin" explore warp.partial_mask --block 1
grep -q "warp needs lanes 0 and 1" err.txt && pass || fail "warp block message: $(cat err.txt)"
# spin.naive_grid_barrier observes what every block read: got0 .. got5 at a grid of 6.
"$bin" explore spin.naive_grid_barrier --grid 6 --block 1 --mode random --max-executions 1 --no-schedules >spin6.txt
grep -q "^  got0=[0-9]* got1=[0-9]* got2=[0-9]* got3=[0-9]* got4=[0-9]* got5=[0-9]* " spin6.txt && pass ||
  fail "spin at grid 6 does not observe every block: $(grep got0 spin6.txt)"
# A report that cannot be written is an error, not exit 0.
if [ -w /dev/full ]; then
  expect_code 2 "output to a full device" -- sh -c '"$0" explain litmus.SB.xcta >/dev/full' "$bin"
  grep -q "cannot write the output" err.txt && pass || fail "full device message: $(cat err.txt)"
fi
# explain's "show it": a model with no quick launch is explored exhaustively at its chapter one, no pct hint.
"$bin" explain publish.relaxed | grep -q "^show it     scopesim explore publish.relaxed$" && pass || fail "explain show it"
"$bin" explain tile.divergent_barrier | grep -q "^show it     scopesim explore tile.divergent_barrier --quick   (or at the chapter launch" &&
  pass || fail "explain show it with a quick launch"
"$bin" list --json | python3 -c '
import json, sys
m = {x["name"]: x for x in json.load(sys.stdin)}
assert m["publish.relaxed"]["quick"] is None and m["publish.relaxed"]["exhaustive_executions_at"] == "launch"
assert m["tile.barrier"]["quick"] is not None and m["tile.barrier"]["exhaustive_executions_at"] == "quick"
' && pass || fail "list --json quick launch"

# check and list
expect_code 0 "check" -- "$bin" check publish.relaxed publish.block_acqrel tile.barrier --no-schedules
grep -q "publish.relaxed" out.txt && pass || fail "check does not list publish.relaxed"
expect_code 0 "list --json" -- "$bin" list --json
expect_code 0 "explore --help" -- "$bin" explore --help

# GPU: without a GPU (CI) `scopesim gpu` says so in one line and exits 2; the
# committed GPU results compare clean (no soundness failure) against every model.
expect_code 2 "gpu without a GPU" -- "$bin" gpu --all
[ "$(wc -l <err.txt)" -eq 1 ] && pass || fail "gpu without a GPU prints more than one line"
# A harness that fails otherwise than the harness's 0, 1 or 2: one error, exit 2, never its own status.
printf '#!/bin/sh\ncase "$1" in --list) echo publish.relaxed;; --list-litmus) ;; *) exit 5;; esac\n' >fake-harness
chmod +x fake-harness
expect_code 2 "a harness that exits 5" -- "$bin" gpu publish.relaxed --harness ./fake-harness
grep -q "^scopesim: the GPU harness './fake-harness' exited with status 5" err.txt && pass ||
  fail "harness status message: $(cat err.txt)"
docs="$repo/docs/gpu"
expect_code 0 "compare the committed GPU results" -- "$bin" compare --all --gpu "$docs/results.jsonl" --time-limit 1
grep -q "litmus.SB.xcta" out.txt && pass || fail "compare does not list litmus.SB.xcta"
expect_code 2 "compare without results" -- "$bin" compare --all --gpu does-not-exist.jsonl
printf 'not json\n' >bad.jsonl
expect_code 2 "compare with garbage results" -- "$bin" compare --all --gpu bad.jsonl

# bench: sections chosen by --only, a Markdown report with a Mermaid plot, bad section names rejected.
expect_code 0 "bench exploration" -- "$bin" bench --only exploration --repeat 1 litmus.CoRW
grep -q "litmus.CoRW" out.txt && grep -q "fiber switch" out.txt && pass || fail "bench exploration table"
head -1 out.txt | grep -qE "^build: .+, .+, engine (without a profile|optimized with its profile|instrumented for a profile); [0-9]+ hardware threads$" &&
  pass || fail "bench names its build"
grep -q "Scaling" out.txt && fail "bench --only exploration ran scaling" || pass
# Then the targets the section measured: CoRW's one execution, explored once, meets the
# first; the cost's row is there, met or not (a time).
grep -qE '^explored / distinct, every configuration +<= 1\.05 +1 configuration: worst 1\.00 \(1 explored, 1 distinct\) +yes$' out.txt &&
  grep -qE '^cost per scheduling decision +<= 20x one fiber switch +[0-9]+ ns against [0-9.]+ ns: [0-9.]+x +(yes|no)$' out.txt &&
  [ "$(sed -n '/Against the targets/,$p' out.txt | grep -cE '(yes|no)$')" -eq 2 ] && pass || fail "bench targets: $(cat out.txt)"
expect_code 0 "bench exploration with --min-time 0" -- "$bin" bench --only exploration --repeat 2 --min-time 0 litmus.CoRW
grep -q "litmus.CoRW" out.txt && pass || fail "bench exploration with --min-time 0"
expect_code 2 "bench negative --min-time" -- "$bin" bench --only exploration --min-time -1 litmus.CoRW
expect_code 0 "bench exploration in rounds" -- "$bin" bench --only exploration --repeat 1 --min-time 0 --rounds 2 litmus.CoRW
grep -q "litmus.CoRW" out.txt && grep -q "fiber switch" out.txt && pass || fail "bench exploration in rounds"
expect_code 2 "bench exploration without rounds" -- "$bin" bench --only exploration --rounds 0 litmus.CoRW
grep -q -- "--rounds" err.txt && pass || fail "bench --rounds 0 message: $(cat err.txt)"
# --progress: what is being measured, a line a second on stderr (the litmus family's 34 configurations,
# three rounds of at least 0.05 s each: over 5 s); stdout holds the report alone.
expect_code 0 "bench progress" -- "$bin" bench --only exploration --progress --rounds 3 litmus
# (Each round takes over a second, so the first and the last each show at least one line.)
grep -qE "^scopesim: bench: exploration, round 1 of 3: [0-9]+ of 34, litmus\." err.txt &&
  grep -qE "^scopesim: bench: exploration, round 3 of 3: [0-9]+ of 34, litmus\." err.txt &&
  ! grep -q "scopesim: bench:" out.txt && grep -q "median cost per scheduling decision" out.txt &&
  pass || fail "bench progress: $(head -c 300 err.txt)"
if command -v script >/dev/null; then  # on a terminal: one line, erased before the section's report
  script -qc "$(printf '%q ' "$bin" bench --only exploration --rounds 3 litmus)" /dev/null >tty.txt 2>&1
  grep -q "scopesim: bench: exploration, round" tty.txt && grep -q $'\r\033\[K\r$' tty.txt &&
    grep -q "^== Exhaustive exploration" tty.txt && pass || fail "bench live progress"
fi
# The chapter's launches: one complete execution each (tile's barrier orders every
# access; the counters' and bins' increments are unused and read only behind a
# barrier or the host's synchronize, so they commute), well within their seconds.
expect_code 0 "bench chapter" -- "$bin" bench --only chapter --time-limit 5
[ "$(grep -cE '^(tile\.barrier|histogram\.shared_atomic|counter\.global_atomic|counter\.hierarchical) +<<<[0-9,]+>>> +1 +1 +0 +complete ' out.txt)" -eq 4 ] &&
  grep -qE '^chapter launches, exhaustively +tile\.barrier < 1 s, the others < 10 s +tile\.barrier [0-9.]+s, .* +yes$' out.txt &&
  pass || fail "bench chapter: $(cat out.txt)"
# bench's help names the chapter section's models as the section runs them, in
# its words: the help is made from the section's list.
in_words() { awk '{ a[NR] = $0 } END { for (i = 1; i <= NR; ++i) printf "%s%s", a[i], (i < NR - 1 ? ", " : i == NR - 1 ? " and " : "") }'; }  # lines as "A, B and C"
chapter_models=$(sed -n '/^model  *launch/,/^$/p' out.txt | awk 'NR > 1 && NF { print $1 }')
"$bin" bench --help >help.txt 2>&1
listed=$(echo "$chapter_models" | in_words)
[ "$(echo "$chapter_models" | wc -l)" -eq 4 ] && grep -qF "'chapter' explores the chapter's large launches of $listed exhaustively" help.txt &&
  pass || fail "bench help's chapter models ($listed): $(grep -o "'chapter'[^;]*" help.txt)"
# Every broken catalogue model shows itself to PCT's first seed (chapter_config_test
# asks the same of a sample): no configuration's median is "not found".
expect_code 0 "bench first-bug" -- "$bin" bench --only first-bug --seeds 1 --time-limit 5
! grep -q "not found" out.txt &&
  grep -qE '^time to first bug, PCT +median of 1 seed <= 10,000 executions +[0-9]+ broken configurations: medians [0-9]+-[0-9]+ executions, at most [0-9]+ +yes$' out.txt &&
  pass || fail "bench first-bug: $(tail -3 out.txt)"
expect_code 0 "bench scaling" -- "$bin" bench --only scaling --max-threads 4 --time-limit 2 --markdown
grep -q "xychart-beta" out.txt && grep -q "histogram.shared_atomic" out.txt && pass || fail "bench scaling plot"
# ... and the scaling section's models, in the order of its table.
scaled_models=$(grep -E '^\| [a-z]+\.[a-z_]+ \| [0-9]' out.txt | awk -F' *\\| *' '!seen[$2]++ { print $2 }')
listed=$(echo "$scaled_models" | in_words)
[ "$(echo "$scaled_models" | wc -l)" -eq 2 ] && grep -qF "'scaling' explores $listed (" help.txt &&
  pass || fail "bench help's scaling models ($listed): $(grep -o "'scaling'[^;]*" help.txt)"
# Below its 8 bins histogram counts into as many bins as threads: its increments'
# results are unused and read only after the barrier, so they commute (one
# execution), as tile's barrier orders every load before every read.
grep -q "| histogram.shared_atomic | 4 (4 bins) | 1 | 1 | complete | no |" out.txt &&
  grep -q "| tile.barrier | 4 | 1 | 1 | complete | no |" out.txt && pass || fail "bench scaling at 4 threads: $(cat out.txt)"
# Every point complete, but 4 threads fall short of the target's 1024.
grep -q "| scaling against threads per block | 2 ... 1024, every point complete | 4 of 4 points complete, 2 ... 4 | no |" out.txt &&
  pass || fail "bench scaling target: $(tail -3 out.txt)"
expect_code 0 "bench parallel" -- "$bin" bench --only parallel --max-jobs 2 --parallel-block 4
# ... and the parallel section's model.
parallel_model=$(sed -nE 's/^== Parallel exploration: ([a-z_.]+) <<<.*/\1/p' out.txt)
[ -n "$parallel_model" ] && grep -qF "'parallel' explores $parallel_model <<<1,--parallel-block>>>" help.txt &&
  pass || fail "bench help's parallel model ($parallel_model): $(grep -o "'parallel'[^;]*" help.txt)"
# one row per job count (1, 2), each the same result as one job's
[ "$(grep -cE '^ *[12] .* yes( |$)' out.txt)" -eq 2 ] && ! grep -q "NO" out.txt && pass || fail "bench parallel table"
# where efficiency goes: the CPU time, workers busy, the machine's own speed-up for 2 independent
# explorations and the search's against it
grep -qE '^ *2 .* yes +[0-9.]+s +[0-9.]+ +[0-9]+\.[0-9]+x +[0-9]+%' out.txt && grep -q "of machine" out.txt && pass ||
  fail "bench parallel CPU and machine columns"
# the threads' context switches: two counts after "of machine"
grep -qE '^ *jobs .* of machine +sleeps +preemptions' out.txt &&
  grep -qE '^ *2 .* yes +[0-9.]+s +[0-9.]+ +[0-9]+\.[0-9]+x +[0-9]+% +[0-9]+ +[0-9]+ ' out.txt && pass ||
  fail "bench parallel context-switch columns"
# two jobs on a small workload cannot tell the target (16 jobs, one job >= 10 s)
grep -qE '^--jobs 16 on an exploration >= 10 s with one job +.* 2 jobs: [0-9.]+x, .*identical: yes +not measured' out.txt &&
  pass || fail "bench parallel target: $(tail -2 out.txt)"
# rounds: two of each job count, the median shown, each round's result the same as the first
expect_code 0 "bench parallel rounds" -- "$bin" bench --only parallel --max-jobs 2 --parallel-block 4 --parallel-repeat 2
grep -q "the median of 2 rounds" out.txt && [ "$(grep -cE '^ *[12] .* yes( |$)' out.txt)" -eq 2 ] && pass ||
  fail "bench parallel rounds"
expect_code 2 "bench parallel no rounds" -- "$bin" bench --only parallel --parallel-repeat 0
expect_code 2 "bench parallel block that does not fit" -- "$bin" bench --only parallel --parallel-block 5
expect_code 2 "bench unknown section" -- "$bin" bench --only nonsense

finish
