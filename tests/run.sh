#!/bin/bash
# make test: every tests/test_*.sh in name order (host tests first, the
# end-to-end smoke run last), each reported as ok/not ok, then the total.
set -uo pipefail
cd "$(dirname "$0")/.."
passed=0 failed=0
for t in tests/test_*.sh; do
	name=$(basename "$t" .sh)
	echo "# $name"
	if bash "$t" 2>&1 | sed 's/^/#   /'; then
		echo "ok $name"
		passed=$((passed + 1))
	else
		echo "not ok $name"
		failed=$((failed + 1))
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
