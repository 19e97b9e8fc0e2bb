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

# needs_kernel VARIANT [FLAVOUR]: skip the test (tests/run.sh, exit 77),
# saying why, where the 6.1 kernel the smoke run builds is missing.
needs_kernel() {
	local bzimage=build/kernels/6.1/$1/obj${2:+-$2}/arch/x86/boot/bzImage
	[ -f "$bzimage" ] && return
	echo "needs $1's ${2:-timing} kernel on 6.1 ($bzimage), which test_90_smoke builds: run make test, or make kernels VARIANTS=$1"
	exit 77
}

# wait_for WHAT CMD...: run CMD (its output dropped) every 0.1 s until it
# succeeds, for as long as the test may run: a test waits for the event
# it needs, never a guessed time, which a loaded host overruns.  Under
# tests/run.sh, it fails naming WHAT 5 s before the test's timeout
# (TEST_DEADLINE, in seconds since the epoch), so that the failure says
# which event never came; a test run alone waits until Ctrl-C.
wait_for() {
	local what=$1
	shift
	until "$@" > /dev/null; do
		[ -z "${TEST_DEADLINE:-}" ] || [ "$(date +%s)" -lt $((TEST_DEADLINE - 5)) ] ||
			fail "waited until the test's timeout for $what, which never came"
		sleep 0.1
	done
}

# fake_runs DIR [RUN...]: the folder of tests/fake_runs.sh's runs, to
# read and never write (the tests that read them run side by side):
# FAKE_RUNS, which tests/run.sh makes once for them all, or else those
# RUNs (default: every one) made here in DIR.
fake_runs() {
	local dir=${FAKE_RUNS:-$1} status
	if [ -n "${FAKE_RUNS:-}" ]; then
		wait_for "tests/run.sh's fake runs in $FAKE_RUNS" test -f "$FAKE_RUNS.status"
		status=$(cat "$FAKE_RUNS.status")
	else
		status=0
		tests/fake_runs.sh scripts "$dir" "${@:2}" > "$dir.out" 2>&1 || status=$?
	fi
	[ "$status" = 0 ] ||
		{ cat "$dir.out" >&2; tail -40 "$dir/log" >&2; fail "tests/fake_runs.sh failed (above)"; }
	echo "$dir"
}

# held FILE: another process holds FILE's flock.
held() { ! flock -n "$1" true; }

# hold_lock FILE: a background process ($holder) holds FILE's flock, as a
# make bench holds its results folder's, from when this returns until
# release_lock or the test's end (its sleeps do not keep the lock).
hold_lock() {
	(exec 9> "$1" && flock 9 && while kill -0 $$ 2> /dev/null; do sleep 1 9>&-; done) &
	holder=$!
	wait_for "a lock on $1" held "$1"
}

# release_lock: the lock of hold_lock is free when this returns.
release_lock() {
	kill "$holder"
	wait "$holder" 2> /dev/null || true
}

# expect_fail "what" "stderr pattern" cmd...: cmd must fail and say pattern
# (an empty pattern, which any output matches, is refused).
expect_fail() {
	local what=$1 pattern=$2 out
	shift 2
	[ -n "$pattern" ] || fail "$what: expect_fail needs a non-empty pattern"
	if out=$("$@" 2>&1); then
		fail "$what: succeeded, expected a failure"
	fi
	grep -qE -- "$pattern" <<< "$out" ||
		fail "$what: error does not match '$pattern': $out"
	echo "$what: failed as expected"
}

# lines_matching ERE FILE: the lines of FILE that ERE matches, none being
# fine; fails where FILE cannot be read, which "! grep" would take for
# "no line matches".  In an assignment, so that set -e stops the test.
lines_matching() {
	local rc=0
	grep -E -- "$1" "$2" || rc=$?
	[ "$rc" -le 1 ] || fail "cannot read $2 (grep exit status $rc)"
}

# report_run_line REPORT: report.txt from the line that starts "run <id>,"
# (the run's facts: mode, sweep, host, bases, sittings, seeds) to the next
# blank line, on one line with spaces squeezed, wherever the first screen
# puts it.
report_run_line() {
	awk '/^run [^ (]+, / { on = 1 } on && /^$/ { exit } on' "$1" | tr '\n' ' ' | tr -s ' '
}

# A CSV file with each quoted field's commas made ';' and its quotes
# dropped (compare.csv's params such as "n=100,majors=10"), so that
# awk -F, sees the columns.
unquoted_csv() {
	sed -E ':a; s/("[^",]*),([^"]*")/\1;\2/; ta; s/"//g' "$1"
}

# stand_in_build BUILD_DIR: what boot.sh needs of a build to start QEMU,
# stand-ins for stock's timing, fault and checker kernels and modules on
# 6.1, and the real build/bin/rows as the one guest program
# scripts/initramfs.sh packs; stand_in_suite_env DIR: a suite.env of boot 1, seed 1.
stand_in_build() {
	local obj
	for obj in obj obj-fault obj-checker; do
		mkdir -p "$1/kernels/6.1/stock/$obj/arch/x86/boot"
		touch "$1/kernels/6.1/stock/$obj/arch/x86/boot/bzImage"
	done
	for obj in stock stock-fault stock-checker; do
		mkdir -p "$1/modules/6.1/$obj"
		touch "$1/modules/6.1/$obj/cdevbench.ko"
	done
	mkdir -p "$1/bin"
	ln -sf "$RIG_ROOT/build/bin/rows" "$1/bin/rows"
	echo rows > "$1/bin/guest-programs"
}
stand_in_suite_env() { printf 'BOOT=1\nSEED=1\n' > "$1/suite.env"; }

# stand_in_qemu DIR: DIR/qemu-system-x86_64, a guest that answers
# --version as QEMU 7.2.0 and otherwise runs the script on stdin with
# $dir, the unit's folder that boot.sh shares with the guest (-virtfs
# ...,mount_tag=results), and that folder's suite.env sourced, BIN_DIR
# the programs' host path (host.env): it runs on the host.
stand_in_qemu() {
	{
		cat <<'QEMU'
#!/bin/bash
if [ "$1" = --version ]; then
	echo "QEMU emulator version 7.2.0 (stand-in)"
	exit 0
fi
for a; do
	case $a in local,path=*,mount_tag=results,*) dir=${a#local,path=} dir=${dir%%,*} ;; esac
done
. "$dir/suite.env"
. "$dir/host.env"
BIN_DIR=$HOST_BIN_DIR
QEMU
		cat
	} > "$1/qemu-system-x86_64"
	chmod +x "$1/qemu-system-x86_64"
}
