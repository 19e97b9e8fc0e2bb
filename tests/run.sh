#!/bin/bash
# make check, make test: tests/test_*.sh in name order, as TAP: the plan,
# each test's output as comments, one ok/not ok line per test with its
# wall time, then the totals.
#   tests/run.sh host   make check: the host tests, test_10 to test_89
#                       (no kernel build, no boot)
#   tests/run.sh all    make test: the host tests, then the kernel tests
#                       (test_90 and up: kernels built and booted)
# TESTS: a subset, by number or name ("20 42", "test_22_variant").
# TEST_TIMEOUT: seconds a test may run (default 600 for a host test,
# 3600 for a kernel test); one that runs longer is stopped and fails.
# A test that exits 77 is skipped, its last line the reason.
set -uo pipefail
cd "$(dirname "$0")/.." || exit
tier=${1:-all}
tests=()
for t in tests/test_*.sh; do
	name=$(basename "$t" .sh)
	number=${name#test_}
	number=${number%%_*}
	[ "$tier" = all ] || [ "$((10#$number))" -lt 90 ] || continue
	if [ -n "${TESTS:-}" ]; then
		[[ " $TESTS " == *" $number "* || " $TESTS " == *" $name "* ]] || continue
	fi
	tests+=("$t")
done
[ ${#tests[@]} -gt 0 ] || { echo "cdevbench: no test matches TESTS='${TESTS:-}' ($tier tier)" >&2; exit 1; }
echo "TAP version 13"
echo "1..${#tests[@]}"
passed=0 failed=0 skipped=0 i=0
for t in "${tests[@]}"; do
	i=$((i + 1))
	name=$(basename "$t" .sh)
	number=${name#test_}
	number=${number%%_*}
	limit=${TEST_TIMEOUT:-$([ "$((10#$number))" -lt 90 ] && echo 600 || echo 3600)}
	echo "# $name"
	t0=$(date +%s)
	out=$(mktemp)
	# streamed as it comes (a kernel test runs for minutes), kept for
	# a skip's reason
	timeout -k 10 "$limit" bash "$t" 2>&1 | tee "$out" | sed -u 's/^/#   /'
	rc=${PIPESTATUS[0]}
	seconds=$(( $(date +%s) - t0 ))
	if [ $rc = 0 ]; then
		echo "ok $i $name (${seconds} s)"
		passed=$((passed + 1))
	elif [ $rc = 77 ]; then
		echo "ok $i $name (${seconds} s) # SKIP $(tail -1 "$out")"
		skipped=$((skipped + 1))
	elif [ $rc = 124 ]; then
		echo "not ok $i $name (${seconds} s) # timed out after $limit s (TEST_TIMEOUT)"
		failed=$((failed + 1))
	else
		echo "not ok $i $name (${seconds} s)"
		failed=$((failed + 1))
	fi
	rm -f "$out"
done
echo "# $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
