# What the end-to-end shell tests share (sourced by cli_test.sh and
# compare_cli_test.sh, whose one argument is the scopesim binary): a scratch
# directory to run in, removed at exit; pass/fail counts; expect_code; and
# finish, which prints the counts and fails the test if any check failed.
set -u
if [ $# -ne 1 ] || [ ! -x "$1" ]; then echo "usage: $(basename "$0") PATH_TO_SCOPESIM" >&2; exit 2; fi
bin=$(realpath "$1")  # the tests run in a scratch directory
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
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
finish() {
  echo "$passes passed, $fails failed"
  [ "$fails" -eq 0 ]
}
