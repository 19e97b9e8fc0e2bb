# shellcheck shell=bash
# Helpers for the host tests.  Sourced.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck disable=SC2034 # for the tests that source this file
RIG_ROOT=$PWD

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# expect_fail "what" "stderr pattern" cmd...: cmd must fail and say pattern.
expect_fail() {
	local what=$1 pattern=$2 out
	shift 2
	if out=$("$@" 2>&1); then
		fail "$what: succeeded, expected a failure"
	fi
	grep -qE -- "$pattern" <<< "$out" ||
		fail "$what: error does not match '$pattern': $out"
	echo "$what: failed as expected"
}

# A CSV file with each quoted field's commas made ';' and its quotes
# dropped (compare.csv's params such as "n=100,majors=10"), so that
# awk -F, sees the columns.
unquoted_csv() {
	sed -E ':a; s/("[^",]*),([^"]*")/\1;\2/; ta; s/"//g' "$1"
}
