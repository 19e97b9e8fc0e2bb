#!/bin/bash
# make test: every tests/test_*.sh in name order (host tests first, the
# end-to-end smoke run last), as TAP: the plan, then one ok/not ok line
# per test file with its output as comments, then the totals.
set -uo pipefail
cd "$(dirname "$0")/.." || exit
tests=(tests/test_*.sh)
echo "TAP version 13"
echo "1..${#tests[@]}"
passed=0 failed=0 i=0
for t in "${tests[@]}"; do
	i=$((i + 1))
	name=$(basename "$t" .sh)
	echo "# $name"
	if bash "$t" 2>&1 | sed 's/^/#   /'; then
		echo "ok $i $name"
		passed=$((passed + 1))
	else
		echo "not ok $i $name"
		failed=$((failed + 1))
	fi
done
echo "# $passed passed, $failed failed"
[ "$failed" = 0 ]
