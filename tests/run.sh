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
# A test's waits (tests/lib.sh, wait_for) last until just before then:
# TEST_DEADLINE, the seconds since the epoch at which it is stopped.
# TEST_JOBS: host tests run at once (default nproc), each reported in
# order once it and those before it end; kernel tests run one at a time, their output
# streamed as it comes (a boot's numbers move when another runs beside
# it).  A test that exits 77 is skipped, its last line the reason.
# FAKE_RUNS: the folder of tests/fake_runs.sh's runs, which this makes
# once for the tests that read them (below).
set -uo pipefail
cd "$(dirname "$0")/.." || exit
tier=${1:-all}
jobs_max=${TEST_JOBS:-$(nproc)}
[[ $jobs_max =~ ^[1-9][0-9]*$ ]] || { echo "cdevbench: TEST_JOBS=$jobs_max: not a positive number" >&2; exit 1; }
number_of() { local n=${1##*/test_}; echo $((10#${n%%_*})); }
tests=()
for t in tests/test_*.sh; do
	name=$(basename "$t" .sh)
	number=$(number_of "$t")
	[ "$tier" = all ] || [ "$number" -lt 90 ] || continue
	if [ -n "${TESTS:-}" ]; then
		[[ " $TESTS " == *" $number "* || " $TESTS " == *" $name "* ]] || continue
	fi
	tests+=("$t")
done
[ ${#tests[@]} -gt 0 ] || { echo "cdevbench: no test matches TESTS='${TESTS:-}' ($tier tier)" >&2; exit 1; }
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
# KVM probed once for every test (scripts/lib/kvm.sh, kvm_refusal): a
# test's scripts call rig_init, whose check of MODE probes it, and where
# KVM works each probe waits 2 s.
RIG_KVM_REFUSAL=$(MODE=icount bash -c '. scripts/lib.sh && rig_init && kvm_refusal') || exit
export RIG_KVM_REFUSAL
# The runs of tests/fake_runs.sh, made once in the background (in one of
# TEST_JOBS's places) for the tests that read them (tests/lib.sh,
# fake_runs), where two or more run: made by each, they cost each a
# minute's CPU.  A test run alone makes those it reads.
if [ "$(grep -l '\$(fake_runs ' "${tests[@]}" | wc -l)" -gt 1 ]; then
	export FAKE_RUNS=$results/fake
	{
		timeout -k 10 "${TEST_TIMEOUT:-600}" tests/fake_runs.sh scripts "$FAKE_RUNS" > "$FAKE_RUNS.out" 2>&1
		echo $? > "$FAKE_RUNS.status.tmp"
		mv "$FAKE_RUNS.status.tmp" "$FAKE_RUNS.status"
	} &
fi

# run_test I TEST [stream]: its output in RESULTS/I.log, "STATUS
# SECONDS" in RESULTS/I.status, last; streamed as TAP comments as it
# comes with "stream".
run_test() {
	local out=$results/$1 limit t0 rc
	limit=${TEST_TIMEOUT:-$([ "$(number_of "$2")" -lt 90 ] && echo 600 || echo 3600)}
	t0=$(date +%s)
	local -x TEST_DEADLINE=$((t0 + limit))
	if [ "${3:-}" = stream ]; then
		echo "# $(basename "$2" .sh)"
		timeout -k 10 "$limit" bash "$2" 2>&1 | tee "$out.log" | sed -u 's/^/#   /'
		rc=${PIPESTATUS[0]}
		: > "$out.streamed"
	else
		timeout -k 10 "$limit" bash "$2" > "$out.log" 2>&1
		rc=$?
	fi
	[ "$rc" != 124 ] || echo "$limit" > "$out.timeout"
	echo "$rc $(( $(date +%s) - t0 ))" > "$out.status.tmp"
	mv "$out.status.tmp" "$out.status"
}

passed=0 failed=0 skipped=0 reported=0
# Report the finished tests that come next in order.
report_finished() {
	local i name rc seconds
	while i=$((reported + 1)) && [ -f "$results/$i.status" ]; do
		reported=$i
		name=$(basename "${tests[i - 1]}" .sh)
		read -r rc seconds < "$results/$i.status"
		[ -f "$results/$i.streamed" ] || { echo "# $name"; sed 's/^/#   /' "$results/$i.log" 2> /dev/null; }
		if [ "$rc" = 0 ]; then
			echo "ok $i $name (${seconds} s)"
			passed=$((passed + 1))
		elif [ "$rc" = 77 ]; then
			echo "ok $i $name (${seconds} s) # SKIP $(tail -1 "$results/$i.log")"
			skipped=$((skipped + 1))
		elif [ "$rc" = lost ]; then
			echo "not ok $i $name # ended without a status (killed?)"
			failed=$((failed + 1))
		elif [ -f "$results/$i.timeout" ]; then
			echo "not ok $i $name (${seconds} s) # timed out after $(cat "$results/$i.timeout") s (TEST_TIMEOUT)"
			failed=$((failed + 1))
		else
			echo "not ok $i $name (${seconds} s)"
			failed=$((failed + 1))
		fi
	done
}

echo "TAP version 13"
echo "1..${#tests[@]}"
for ((i = 1; i <= ${#tests[@]}; i++)); do
	t=${tests[i - 1]}
	if [ "$(number_of "$t")" -lt 90 ] && [ "$jobs_max" -gt 1 ]; then
		while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
			wait -n
			report_finished
		done
		run_test "$i" "$t" &
	else
		wait
		report_finished
		run_test "$i" "$t" stream
		report_finished
	fi
done
wait
# a test whose runner died left no status: a failure, not a gap
for ((i = reported + 1; i <= ${#tests[@]}; i++)); do
	[ -f "$results/$i.status" ] || echo "lost 0" > "$results/$i.status"
done
report_finished
echo "# $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
